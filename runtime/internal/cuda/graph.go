//go:build linux

package cuda

import (
	"errors"
	goruntime "runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// ErrNoGraphs is returned by NewKernelGraph when the driver lacks the graph
// entry points this binding uses (drivers before CUDA 12).
var ErrNoGraphs = errors.New("cuda: the driver has no CUDA graph entry points of CUDA 12")

// graphEntryPoints resolves the optional graph entry points: a driver
// without them still loads, and the runtime launches kernels directly.
func (d *Driver) graphEntryPoints(h uintptr) {
	syms := []struct {
		dst  *uintptr
		name string
	}{
		{&d.cuGraphCreate, "cuGraphCreate"}, {&d.cuGraphDestroy, "cuGraphDestroy"},
		{&d.cuGraphAddKernelNode, "cuGraphAddKernelNode_v2"},
		{&d.cuGraphInstantiate, "cuGraphInstantiateWithFlags"},
		{&d.cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams_v2"},
		{&d.cuGraphLaunch, "cuGraphLaunch"}, {&d.cuGraphExecDestroy, "cuGraphExecDestroy"},
	}
	var resolved [7]uintptr
	for i, s := range syms {
		p, err := purego.Dlsym(h, s.name)
		if err != nil {
			return // all or none
		}
		resolved[i] = p
	}
	for i, s := range syms {
		*s.dst = resolved[i]
	}
}

// GraphsSupported reports whether NewKernelGraph can work.
func (d *Driver) GraphsSupported() bool { return d.cuGraphLaunch != 0 }

// kernelNodeParams is CUDA_KERNEL_NODE_PARAMS_v2: the function, a 3-D grid
// and block, the shared memory, the parameter pointers, no extra, and no
// CUkernel or context (the function's own and the current one).
type kernelNodeParams struct {
	fn           uintptr
	grid         [3]uint32
	block        [3]uint32
	sharedBytes  uint32
	kernelParams unsafe.Pointer
	extra        uintptr
	kern         uintptr
	ctx          uintptr
}

// kernelNode is what the driver reads when a node is added or changed: the
// node's parameters and the parameter block they point into. It lives
// pinned for the graph's lifetime, so its address may be passed as an
// integer.
type kernelNode struct {
	params kernelNodeParams
	block  launchParams
	nargs  int
}

// KernelGraph is an instantiated CUDA graph of one kernel node: a launch
// recorded once and replayed with cuGraphLaunch, which the driver submits
// with less host work than cuLaunchKernel. Launch changes the node's
// function, grid or arguments in the instantiated graph when they differ
// from the last launch's (the driver copies them, so launches already
// queued keep theirs). Launches of one graph are ordered after each other
// by the driver, whatever their streams. It is safe for concurrent use.
type KernelGraph struct {
	d     *Driver
	mu    sync.Mutex
	graph uintptr
	exec  uintptr
	node  uintptr
	n     *kernelNode
	pin   goruntime.Pinner
}

// NewKernelGraph builds and instantiates a graph of one launch of f with a
// 1-D grid; args holds one value per kernel parameter, at most
// MaxKernelArgs. Destroy frees it.
func (d *Driver) NewKernelGraph(f Function, grid, block, sharedBytes uint32, args []uint64) (*KernelGraph, error) {
	if !d.GraphsSupported() {
		return nil, ErrNoGraphs
	}
	g := &KernelGraph{d: d, n: new(kernelNode)}
	for i := range g.n.block.ptrs {
		g.n.block.ptrs[i] = unsafe.Pointer(&g.n.block.vals[i])
	}
	g.n.params.kernelParams = unsafe.Pointer(&g.n.block.ptrs[0])
	g.n.set(f, grid, block, sharedBytes, args)
	g.pin.Pin(g.n)
	if err := d.call("cuGraphCreate", d.cuGraphCreate, uintptr(unsafe.Pointer(&g.graph)), 0); err != nil {
		g.pin.Unpin()
		return nil, err
	}
	err := d.call("cuGraphAddKernelNode_v2", d.cuGraphAddKernelNode,
		uintptr(unsafe.Pointer(&g.node)), g.graph, 0, 0, uintptr(unsafe.Pointer(&g.n.params)))
	if err == nil {
		err = d.call("cuGraphInstantiateWithFlags", d.cuGraphInstantiate, uintptr(unsafe.Pointer(&g.exec)), g.graph, 0)
	}
	if err != nil {
		_ = d.call("cuGraphDestroy", d.cuGraphDestroy, g.graph)
		g.pin.Unpin()
		return nil, err
	}
	return g, nil
}

// set writes a launch into the node's parameters.
func (n *kernelNode) set(f Function, grid, block, sharedBytes uint32, args []uint64) {
	n.params.fn = uintptr(f)
	n.params.grid = [3]uint32{grid, 1, 1}
	n.params.block = [3]uint32{block, 1, 1}
	n.params.sharedBytes = sharedBytes
	n.nargs = copy(n.block.vals[:], args)
}

// same reports whether the node already holds this launch.
func (n *kernelNode) same(f Function, grid, block, sharedBytes uint32, args []uint64) bool {
	p := &n.params
	if p.fn != uintptr(f) || p.grid[0] != grid || p.block[0] != block || p.sharedBytes != sharedBytes || n.nargs != len(args) {
		return false
	}
	for i, a := range args {
		if n.block.vals[i] != a {
			return false
		}
	}
	return true
}

// Launch replays the graph on s as a launch of f with these parameters,
// changing the instantiated node first when they differ from the last
// launch's. A failed change leaves the graph as it was.
func (g *KernelGraph) Launch(f Function, grid, block, sharedBytes uint32, s Stream, args []uint64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.n.same(f, grid, block, sharedBytes, args) {
		old := *g.n
		g.n.set(f, grid, block, sharedBytes, args)
		// The node's parameters sit in pinned memory, so their address may
		// be passed as an integer.
		if err := g.d.callValues("cuGraphExecKernelNodeSetParams_v2", g.d.cuGraphExecKernelNodeSetParams, 3,
			g.exec, g.node, uintptr(unsafe.Pointer(&g.n.params)), 0); err != nil {
			g.n.params, g.n.block.vals, g.n.nargs = old.params, old.block.vals, old.nargs
			return err
		}
	}
	return g.d.callValues("cuGraphLaunch", g.d.cuGraphLaunch, 2, g.exec, uintptr(s), 0, 0)
}

// Destroy frees the graph; launches already queued complete. The graph must
// not be used after.
func (g *KernelGraph) Destroy() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	err := errors.Join(
		g.d.callValues("cuGraphExecDestroy", g.d.cuGraphExecDestroy, 1, g.exec, 0, 0, 0),
		g.d.callValues("cuGraphDestroy", g.d.cuGraphDestroy, 1, g.graph, 0, 0, 0))
	g.pin.Unpin()
	return err
}
