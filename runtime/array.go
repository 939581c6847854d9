package runtime

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// opKind is the operation that produces an array.
type opKind int

const (
	opData opKind = iota // uploaded data
	opAdd
	opMul
	opSoftcap
	opSum
	opUniform
)

// opNames name the operations in errors.
var opNames = [...]string{"data", "add", "mul", "softcap", "sum", "uniform"}

// Array is a lazy float32 array in the style of MLX: operations build a
// graph, and Eval (or reading the array) computes it on the array's device.
// An array may be built on one goroutine and evaluated or read on another.
//
// The graph fields (op, inputs, scalar, key) are fixed at construction and
// touched afterwards only under evalMu; mu guards the result.
type Array struct {
	dev    *Device
	shape  []int
	size   int
	op     opKind
	inputs []*Array // slices inbuf, or nil
	inbuf  [2]*Array
	scalar float32
	key    Key
	err    error // a construction error, reported by Eval and reads

	// Scratch of the evaluation in progress, used under evalMu only.
	mark  uint64  // the evalEpoch that last visited the array
	level int     // depth below the unevaluated inputs
	out   *Buffer // the result being computed

	mu   sync.Mutex
	buf  *Buffer
	done bool // evaluated; buf is nil afterwards only when freed
}

// FromSlice uploads data as an array of the given shape (one dimension of
// len(data) when no shape is given).
func FromSlice(d *Device, data []float32, shape ...int) (*Array, error) {
	if d == nil {
		return nil, fmt.Errorf("from slice: %w: nil device", ErrInvalidArgument)
	}
	if len(shape) == 0 {
		shape = []int{len(data)}
	}
	size, err := shapeSize(shape)
	if err != nil {
		return nil, fmt.Errorf("from slice: %w", err)
	}
	if size != len(data) {
		return nil, fmt.Errorf("from slice: %d elements for shape %v of %d: %w", len(data), shape, size, ErrLength)
	}
	b, err := d.BufferFrom(data)
	if err != nil {
		return nil, fmt.Errorf("from slice: %w", err)
	}
	return &Array{dev: d, shape: slices.Clone(shape), size: size, op: opData, buf: b, done: true}, nil
}

// shapeSize returns the number of elements of a shape.
func shapeSize(shape []int) (int, error) {
	size := 1
	for _, s := range shape {
		if s <= 0 {
			return 0, fmt.Errorf("shape %v: %w: dimensions must be positive", shape, ErrShape)
		}
		size *= s
		if size > math.MaxUint32 {
			return 0, fmt.Errorf("shape %v: %w: more than 2^32-1 elements", shape, ErrShape)
		}
	}
	return size, nil
}

// failed returns an array that reports err when evaluated or read.
func failed(err error) *Array { return &Array{err: err} }

// binaryOp builds an elementwise node of two arrays of the same shape.
func binaryOp(op opKind, a, b *Array) *Array {
	name := opNames[op]
	switch {
	case a == nil || b == nil:
		return failed(fmt.Errorf("%s: %w: nil array", name, ErrInvalidArgument))
	case a.err != nil:
		return failed(a.err)
	case b.err != nil:
		return failed(b.err)
	case a.dev != b.dev:
		return failed(fmt.Errorf("%s: %w: %s and %s", name, ErrDevices, a.dev, b.dev))
	case !slices.Equal(a.shape, b.shape):
		return failed(fmt.Errorf("%s: shapes %v and %v: %w", name, a.shape, b.shape, ErrShape))
	}
	r := &Array{dev: a.dev, shape: a.shape, size: a.size, op: op, inbuf: [2]*Array{a, b}}
	r.inputs = r.inbuf[:2]
	return r
}

// Add returns a + b, elementwise.
func Add(a, b *Array) *Array { return binaryOp(opAdd, a, b) }

// Mul returns a * b, elementwise.
func Mul(a, b *Array) *Array { return binaryOp(opMul, a, b) }

// Softcap returns c * tanh(x / c), elementwise.
func Softcap(x *Array, c float32) *Array {
	switch {
	case x == nil:
		return failed(fmt.Errorf("softcap: %w: nil array", ErrInvalidArgument))
	case x.err != nil:
		return failed(x.err)
	case !(c > 0) || math.IsInf(float64(c), 1):
		return failed(fmt.Errorf("softcap: cap %v: %w: want a positive finite number", c, ErrInvalidArgument))
	}
	r := &Array{dev: x.dev, shape: x.shape, size: x.size, op: opSoftcap, inbuf: [2]*Array{x}, scalar: c}
	r.inputs = r.inbuf[:1]
	return r
}

// Sum returns the sum of all elements as a scalar (shape []), computed with
// the fixed reduction tree shared by every backend.
func Sum(x *Array) *Array {
	switch {
	case x == nil:
		return failed(fmt.Errorf("sum: %w: nil array", ErrInvalidArgument))
	case x.err != nil:
		return failed(x.err)
	}
	r := &Array{dev: x.dev, shape: scalarShape, size: 1, op: opSum, inbuf: [2]*Array{x}}
	r.inputs = r.inbuf[:1]
	return r
}

// scalarShape is the shape of a scalar. Shapes are never modified after
// construction, so arrays share them.
var scalarShape = []int{}

// Uniform returns uniform random numbers in [0, 1) of the given shape, with
// a key drawn from the process-global random state when it is called.
func Uniform(d *Device, shape ...int) *Array {
	if d == nil {
		return failed(fmt.Errorf("uniform: %w: nil device", ErrInvalidArgument))
	}
	size, err := shapeSize(shape)
	if err != nil {
		return failed(fmt.Errorf("uniform: %w", err))
	}
	return &Array{dev: d, shape: slices.Clone(shape), size: size, op: opUniform, key: NextKey()}
}

// Shape returns a copy of the array's shape.
func (a *Array) Shape() []int { return slices.Clone(a.shape) }

// Size returns the number of elements.
func (a *Array) Size() int { return a.size }

// Device returns the array's device.
func (a *Array) Device() *Device { return a.dev }

// Err returns the array's construction error, if any.
func (a *Array) Err() error {
	if a == nil {
		return fmt.Errorf("%w: nil array", ErrInvalidArgument)
	}
	return a.err
}

// Data evaluates the array if needed and returns a copy of its elements.
func (a *Array) Data() ([]float32, error) {
	if a == nil {
		return nil, fmt.Errorf("read array: %w: nil array", ErrInvalidArgument)
	}
	if err := Eval(a); err != nil {
		return nil, err
	}
	b, gen := a.result()
	if b == nil {
		return nil, fmt.Errorf("read array: %w", ErrFreed)
	}
	out := make([]float32, b.n)
	if err := b.read(out, gen); err != nil {
		return nil, fmt.Errorf("read array: %w", err)
	}
	return out, nil
}

// result returns the array's buffer, nil once freed, and the buffer's
// generation at that moment: the array may be freed after a.mu is
// released and its buffer recycled as a spare (spares.go), which a read
// with this generation then reports as freed.
func (a *Array) result() (*Buffer, int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b := a.buf
	if b == nil {
		return nil, anyGeneration
	}
	b.mu.Lock() // after a.mu, as freeLocked takes them
	defer b.mu.Unlock()
	return b, int64(b.gen)
}

// To returns an array of d with a's shape and values. It evaluates a
// through Eval when needed, reads it back to the host and uploads the copy
// to d: the data is staged through host memory, not copied between the
// devices directly, so each call costs a download and an upload and
// waits for both. When a is already on d, To returns a itself.
func (a *Array) To(d *Device) (*Array, error) {
	switch {
	case a == nil:
		return nil, fmt.Errorf("move array: %w: nil array", ErrInvalidArgument)
	case d == nil:
		return nil, fmt.Errorf("move array: %w: nil device", ErrInvalidArgument)
	case a.err != nil:
		return nil, fmt.Errorf("move array: %w", a.err)
	}
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("move array: %w", err)
	}
	if a.dev == d {
		a.mu.Lock()
		freed := a.done && a.buf == nil
		a.mu.Unlock()
		if freed {
			return nil, fmt.Errorf("move array: %w", ErrFreed)
		}
		return a, nil
	}
	data, err := a.Data()
	if err != nil {
		return nil, fmt.Errorf("move array to %s: %w", d, err)
	}
	b, err := d.BufferFrom(data)
	if err != nil {
		return nil, fmt.Errorf("move array to %s: %w", d, err)
	}
	return &Array{dev: d, shape: a.shape, size: a.size, op: opData, buf: b, done: true}, nil
}

// Item evaluates a one-element array and returns its element.
func (a *Array) Item() (float32, error) {
	if a != nil && a.err == nil && a.size != 1 {
		return 0, fmt.Errorf("item of an array of %d elements: %w", a.size, ErrShape)
	}
	d, err := a.Data()
	if err != nil {
		return 0, err
	}
	return d[0], nil
}

// Free releases the array's device memory. Reading it afterwards, or
// evaluating an array built on it, returns ErrFreed.
func (a *Array) Free() error {
	evalMu.Lock()
	defer evalMu.Unlock()
	return a.freeLocked()
}

// freeLocked frees the array's buffer, which an evaluation in progress
// may be reading: its callers hold evalMu.
//
//guardlint:requires evalMu
func (a *Array) freeLocked() error {
	if a == nil {
		return fmt.Errorf("free array: %w: nil array", ErrInvalidArgument)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return a.err
	}
	if a.buf == nil {
		if a.done {
			return fmt.Errorf("free array: %w", ErrFreed)
		}
		a.done = true // never evaluated: nothing to free, and nothing to evaluate
		a.inputs, a.inbuf = nil, [2]*Array{}
		return nil
	}
	err := a.buf.Free()
	a.buf = nil
	return err
}
