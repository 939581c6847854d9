//go:build linux

package runtime

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/guardlint/guardlint/runtime/internal/cuda"
)

// Graph replay of fused kernels. A kernel launch costs the host more than
// the replay of an instantiated CUDA graph of the same launch: on the H200,
// one fused (a+b)*c kernel launched and waited for took 8.4 µs, its
// one-node graph launched and waited for 6.3 µs (docs/gpu-results.md, "The
// floor under the round trip"). An evaluation repeated in a loop runs the
// same program on the same few buffers (Free keeps results as spares), so
// the CUDA backend keeps one instantiated graph per fused kernel and lane,
// changes its node's buffers in place when they differ from its last
// launch's (cuGraphExecKernelNodeSetParams, host work the plain launch
// does anyway), and replays it.
//
// Per lane, because the driver orders the launches of one graph after each
// other whatever their streams: one graph shared by two lanes would order
// work that the lanes' own events leave unordered, and could hide the
// missing barrier or retain that the runtime's guards must see.

// laneGraphKey names a graph: the fused kernel and the lane it replays on.
type laneGraphKey struct {
	f cuda.Function
	l lane
}

// laneGraph is one cached graph with its key; entries are never changed
// after they are made, so the last one used can be kept in an atomic
// pointer without allocating on a switch between lanes.
type laneGraph struct {
	key laneGraphKey
	g   *cuda.KernelGraph
}

// laneGraphs is the CUDA backend's graph cache.
type laneGraphs struct {
	mu      sync.Mutex
	byKey   map[laneGraphKey]*laneGraph
	last    atomic.Pointer[laneGraph]
	replays atomic.Uint64 // graph launches, for tests
}

// graph returns the graph of f on l, instantiating it with these
// parameters on first use.
func (b *cudaBackend) graph(f cuda.Function, l lane, grid uint32, args []uint64) (*cuda.KernelGraph, error) {
	c := &b.graphs
	k := laneGraphKey{f, l}
	if last := c.last.Load(); last != nil && last.key == k {
		return last.g, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		var g *cuda.KernelGraph
		err := b.do(func() (err error) {
			g, err = b.drv.NewKernelGraph(f, grid, elementwiseBlock, 0, args)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("instantiate the fused kernel's graph: %w", err)
		}
		if c.byKey == nil {
			c.byKey = map[laneGraphKey]*laneGraph{}
		}
		e = &laneGraph{key: k, g: g}
		c.byKey[k] = e
	}
	c.last.Store(e)
	return e.g, nil
}

// launchGraph replays f's graph on l with these parameters.
func (b *cudaBackend) launchGraph(f cuda.Function, l lane, grid uint32, args []uint64) error {
	g, err := b.graph(f, l, grid, args)
	if err != nil {
		return err
	}
	b.graphs.replays.Add(1)
	return b.do(func() error {
		return g.Launch(f, grid, elementwiseBlock, 0, cuda.Stream(l), args)
	})
}

// dropGraphs destroys the graphs of lane l, or every graph when all is
// set; launches already queued complete. A destroyed lane's handle may be
// reused by the driver for a new stream, which must not find the old
// lane's graphs.
func (b *cudaBackend) dropGraphs(l lane, all bool) error {
	c := &b.graphs
	c.mu.Lock()
	defer c.mu.Unlock()
	if last := c.last.Load(); last != nil && (all || last.key.l == l) {
		c.last.Store(nil)
	}
	var errs []error
	for k, e := range c.byKey {
		if all || k.l == l {
			errs = append(errs, b.do(e.g.Destroy))
			delete(c.byKey, k)
		}
	}
	return errors.Join(errs...)
}
