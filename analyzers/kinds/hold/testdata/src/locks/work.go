package locks

import (
	"errors"
	"fmt"
	"log"
	"strconv"
	"sync"
)

// Work after the unlock: a call of another package's function whose
// arguments carry no pointer into the protected state touches none of it.

type commandBuffer struct{ id int }

type streamID int

func (s streamID) String() string { return "stream " + strconv.Itoa(int(s)) }

type table struct {
	mu      sync.RWMutex
	streams map[int]*commandBuffer
	onMiss  func(int)
	scratch []byte
}

func (t *table) describe(s int) string { return strconv.Itoa(s) }

// --- precise work: silent ---

// lookup is the shape the definition exists for.
func (t *table) lookup(s int) (*commandBuffer, error) {
	t.mu.RLock()
	cb, ok := t.streams[s]
	t.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("no stream %d on this table", s)
	}
	return cb, nil
}

// logged logs and converts after the unlock, into locals.
func (t *table) logged(s int) error {
	t.mu.RLock()
	_, ok := t.streams[s]
	t.mu.RUnlock()
	name := strconv.Itoa(s)
	log.Printf("looked up %s: %t", name, ok)
	if !ok {
		return errors.New("no stream " + name)
	}
	return nil
}

// beforeLock formats its argument before taking the lock.
func (t *table) beforeLock(s int) string {
	msg := fmt.Sprint("stream ", s)
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.streams[s] == nil {
		return msg
	}
	return ""
}

// zeroValue returns *new(T), a zero value nothing else can reach, after
// the unlock.
func (t *table) zeroValue(s int) (commandBuffer, error) {
	t.mu.RLock()
	_, ok := t.streams[s]
	t.mu.RUnlock()
	if !ok {
		return *new(commandBuffer), fmt.Errorf("no stream %d", s)
	}
	return commandBuffer{id: s}, nil
}

// suffix slices the string another package's function computed from a
// local, after the unlock: a fresh string, nothing shared.
func (t *table) suffix(s int) string {
	t.mu.RLock()
	n := len(t.streams) + s
	t.mu.RUnlock()
	return strconv.Itoa(1e9 + n%1e9)[1:]
}

// sliceShared slices a buffer of the owner after the unlock: the slice
// shares the owner's memory.
func (t *table) sliceShared(s int) []byte {
	t.mu.RLock()
	n := len(t.streams) + s
	t.mu.RUnlock()
	return t.scratch[:n] // want `invariant slice-shared: \(locks.table\).mu is not held here`
}

// streamError is an error built from what the caller passed.
type streamError struct{ msg string }

func (e *streamError) Error() string { return e.msg }

// literalError builds an error value from another package's formatting
// of a parameter after the unlock.
func (t *table) literalError(s int) error {
	t.mu.RLock()
	_, ok := t.streams[s]
	t.mu.RUnlock()
	if !ok {
		return &streamError{msg: fmt.Sprintf("no stream %d", s)}
	}
	return nil
}

// --- work that may touch the protected state: each fires ---

// literalOwnerCall builds an error value with an owner's method.
func (t *table) literalOwnerCall(s int) error {
	t.mu.RLock()
	_, ok := t.streams[s]
	t.mu.RUnlock()
	if !ok {
		return &streamError{msg: t.describe(s)} // want `invariant literal-owner-call: \(locks.table\).mu is not held here`
	}
	return nil
}

// dereferences reads the protected buffer through its pointer.
func (t *table) dereferences(s int) commandBuffer {
	t.mu.RLock()
	cb := t.streams[s]
	t.mu.RUnlock()
	return *cb // want `invariant dereferences: \(locks.table\).mu is not held here`
}

func (t *table) first(s int) *commandBuffer { return t.streams[s] }

// dereferencesCall reads through what an owner's method returns: only
// *new(T) is a fresh value.
func (t *table) dereferencesCall(s int) commandBuffer {
	t.mu.RLock()
	n := len(t.streams)
	t.mu.RUnlock()
	return *t.first(s + n) // want `invariant dereferences-call: \(locks.table\).mu is not held here`
}

// sharesMap passes the protected map to another package's function.
func (t *table) sharesMap(s int) error {
	t.mu.RLock()
	_, ok := t.streams[s]
	t.mu.RUnlock()
	if !ok {
		return fmt.Errorf("no stream %d in %v", s, t.streams) // want `invariant shares-map: \(locks.table\).mu is not held here`
	}
	return nil
}

// sharesPointer passes a local pointer into the protected state.
func (t *table) sharesPointer(s int) {
	t.mu.RLock()
	cb := t.streams[s]
	t.mu.RUnlock()
	fmt.Println(cb) // want `invariant shares-pointer: \(locks.table\).mu is not held here`
}

// ownerFunction calls a method of the lock's own type.
func (t *table) ownerFunction(s int) string {
	t.mu.RLock()
	_, ok := t.streams[s]
	t.mu.RUnlock()
	if !ok {
		return ""
	}
	return t.describe(s) // want `invariant owner-function: \(locks.table\).mu is not held here`
}

// unknownTarget calls through a function value.
func (t *table) unknownTarget(s int) {
	t.mu.RLock()
	_, ok := t.streams[s]
	miss := t.onMiss
	t.mu.RUnlock()
	if !ok {
		miss(s) // want `invariant unknown-target: \(locks.table\).mu is not held here`
	}
}

// ownerMethods hands another package a value of the owner's package with
// methods, which it may call (fmt calls String).
func (t *table) ownerMethods(s int) string {
	t.mu.RLock()
	_, ok := t.streams[s]
	t.mu.RUnlock()
	if !ok {
		return ""
	}
	return fmt.Sprint(streamID(s)) // want `invariant owner-methods: \(locks.table\).mu is not held here`
}
