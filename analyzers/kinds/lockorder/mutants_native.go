//go:build cgo

package lockorder

import (
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
)

// NativeOps are the reverse edges a change brings in, in C, C++, CUDA
// and Rust: Go's two, with the earlier lock taken as the files take it
// (native.Section).
var NativeOps = []string{mutant.OpLockReversed, mutant.OpLocksSwapped}

// NativeOps implements native.Rule.
func (r *Rule) NativeOps(native.Dialect) []string { return NativeOps }

// NativeMutants implements native.Rule. In every function of the files,
// right after the first statement that takes and holds a lock of the
// order (or, under unlisted: last, another lock), an earlier lock is
// taken and given up (lock-reversed@line:lock); and the first
// acquisitions of two locks that a block takes in order are swapped
// (locks-swapped@line).
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	fns, err := c.All()
	if err != nil || len(fns) == 0 {
		return nil // the baseline run reports the files it cannot read
	}
	pats := fns[0].Patterns
	// rank is a lock's place in the order: its index, len(pats) for an
	// unlisted lock that comes last, -1 for one the order ignores.
	rank := func(lock []string) int {
		for i, p := range pats {
			if model.MatchLock(lock, p) {
				return i
			}
		}
		if r.Unlisted == UnlistedLast {
			return len(pats)
		}
		return -1
	}
	var out []*mutant.Mutant
	for _, fn := range fns {
		firsts := map[int]*treesitter.Acquisition{}
		var ranks []int // in source order
		acqs := fn.Acquisitions()
		for k := range acqs {
			a := &acqs[k]
			j := rank(a.Lock)
			if j < 0 || !a.Takes || firsts[j] != nil {
				continue
			}
			firsts[j] = a
			ranks = append(ranks, j)
			if a.Until <= a.Node.End {
				continue // a temporary holds nothing for a later lock
			}
			for i := 0; i < j && i < len(pats); i++ {
				op := mutant.OpLockReversed + "@" + native.Line(fn, a.Node) + ":" + native.LastName(r.Locks[i].Raw)
				s, ok := native.SectionOf(fns, pats[i])
				if !ok {
					out = append(out, c.Void(fn, op, "no function of the files takes "+r.Locks[i].Raw+" in a statement of its own"))
					continue
				}
				out = append(out, c.InsertAfter(fn, a.Node, s.Around("", ""), op))
			}
		}
		for x, i := range ranks {
			for _, j := range ranks[x+1:] {
				if i < j && native.SameBlock(fn, firsts[i].Node, firsts[j].Node) {
					op := mutant.OpLocksSwapped + "@" + native.Line(fn, firsts[i].Node)
					out = append(out, c.Swap(fn, firsts[i].Node, firsts[j].Node, op))
				}
			}
		}
	}
	return out
}

// NativeVacuity implements native.Rule: a listed lock that no live code
// of the files takes fails the baseline run, so an order is never vacuous
// here.
func (r *Rule) NativeVacuity(*native.Code) []string { return nil }
