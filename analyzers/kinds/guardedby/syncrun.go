package guardedby

import (
	"go/ast"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"golang.org/x/tools/go/ast/inspector"
)

// syncRunners are standard functions that call a function argument, if
// at all, only before they return, and keep no reference to it: a
// literal passed to one runs while the caller holds what it holds at the
// call. The live analysis cannot count them as running the literal (they
// do not call it on every path: sort.Slice of fewer than two elements
// never calls less), which is what `runs` means to the other rules; for a
// lock it is enough that the literal cannot run after the call returns.
// Keys: the package path and the function's name.
var syncRunners = map[string]bool{
	"sort.Slice": true, "sort.SliceStable": true, "sort.SliceIsSorted": true,
	"sort.Search": true, "sort.Find": true,
	"slices.SortFunc": true, "slices.SortStableFunc": true, "slices.IsSortedFunc": true,
	"slices.BinarySearchFunc": true, "slices.IndexFunc": true, "slices.ContainsFunc": true,
	"slices.DeleteFunc": true, "slices.CompactFunc": true, "slices.EqualFunc": true,
	"slices.CompareFunc": true, "slices.MinFunc": true, "slices.MaxFunc": true,
	"maps.DeleteFunc": true, "maps.EqualFunc": true,
	"strings.Map": true, "strings.IndexFunc": true, "strings.LastIndexFunc": true,
	"strings.FieldsFunc": true, "strings.TrimFunc": true, "strings.TrimLeftFunc": true,
	"strings.TrimRightFunc": true, "strings.ContainsFunc": true,
	"bytes.Map": true, "bytes.IndexFunc": true, "bytes.LastIndexFunc": true,
	"bytes.FieldsFunc": true, "bytes.TrimFunc": true, "bytes.TrimLeftFunc": true,
	"bytes.TrimRightFunc": true, "bytes.ContainsFunc": true,
}

// syncCall returns the call a literal at c is passed to (directly, as an
// argument) when the callee is a syncRunner, or nil.
func (ch *checker) syncCall(c inspector.Cursor) *ast.CallExpr {
	call, ok := c.Parent().Node().(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) == c.Node() {
		return nil
	}
	fn, _ := ch.r.Pass.TypesInfo.Uses[calleeIdent(call)].(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return nil
	}
	if !syncRunners[fn.Pkg().Path()+"."+fn.Name()] {
		return nil
	}
	return call
}

// entryLevel is the level of key k's lock a root starts with: none, or
// for a literal run during a call, what its parent holds at the call.
func (ch *checker) entryLevel(u *unit, rt *root, c *contract, k string) level {
	if rt.from == nil {
		return free
	}
	owner := ast.Node(u.Decl)
	if rt.parent.lit != nil {
		owner = rt.parent.lit
	}
	// The call may sit in a literal that runs in place inside the parent.
	for e, o := range rt.parent.owner {
		if o != owner && e.Node.Pos() <= rt.from.Pos() && rt.from.End() <= e.Node.End() {
			owner = o
		}
	}
	var got level
	seen := false
	ch.visit(ch.analysis(c, k, ch.entryLevel(u, rt.parent, c, k)), rt.parent.body, func(l level, s *live.Step) {
		if rt.parent.owner[s] == owner && s.Node.Pos() <= rt.from.Pos() && rt.from.End() <= s.Node.End() {
			if !seen || l < got {
				got = l
			}
			seen = true
		}
	}, func(level, *live.Effect) {})
	if !seen {
		return free
	}
	return got
}
