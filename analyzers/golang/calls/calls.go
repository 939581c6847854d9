// Package calls is the machinery of the rules that follow calls from
// function to function (requires, excludes, lock_order, never_acquires):
// the function declarations of a package with the functions they name,
// summaries that pass from callees to their callers, computed to a fixed
// point within the package and imported from other packages as analysis
// facts, and the call paths that findings print.
package calls

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/core"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Unit is one function declaration of the package that has a body.
type Unit struct {
	Func *types.Func
	Decl *ast.FuncDecl
	// Refs are the functions the body names, nested literals included,
	// each once, as their generic origin: the cheap test of whether a
	// function can concern a rule at all.
	Refs []*types.Func
}

// Units returns the package's function declarations with bodies, in file
// order.
func Units(in *inspector.Inspector, info *types.Info) []*Unit {
	var out []*Unit
	for c := range in.Root().Preorder((*ast.FuncDecl)(nil)) {
		decl := c.Node().(*ast.FuncDecl)
		fn, ok := info.Defs[decl.Name].(*types.Func)
		if !ok || decl.Body == nil {
			continue
		}
		out = append(out, &Unit{Func: fn, Decl: decl, Refs: refs(info, c)})
	}
	return out
}

// refs lists the functions a declaration names, deduplicated.
func refs(info *types.Info, decl inspector.Cursor) []*types.Func {
	seen := map[*types.Func]bool{}
	var out []*types.Func
	for c := range decl.Preorder((*ast.Ident)(nil)) {
		if fn, ok := info.Uses[c.Node().(*ast.Ident)].(*types.Func); ok && !seen[fn.Origin()] {
			seen[fn.Origin()] = true
			out = append(out, fn.Origin())
		}
	}
	return out
}

// Names reports whether the unit's body names a function for which has
// is true.
func (u *Unit) Names(has func(*types.Func) bool) bool {
	for _, fn := range u.Refs {
		if has(fn) {
			return true
		}
	}
	return false
}

// Fixpoint computes summaries that pass from callees to callers: it calls
// step for every unit that relevant accepts, in file order, round after
// round, until a round in which no step reports a change. Summaries must
// only grow, so that the iteration ends; the last round changes nothing,
// so what it found is final.
func Fixpoint(units []*Unit, relevant func(*Unit) bool, step func(*Unit) bool) {
	for changed := true; changed; {
		changed = false
		for _, u := range units {
			if relevant(u) && step(u) {
				changed = true
			}
		}
	}
}

// Facts imports the analysis facts of functions of other packages, once
// each. F is the fact's type and P its pointer type, the analysis.Fact.
type Facts[F any, P interface {
	*F
	analysis.Fact
}] struct {
	pass *analysis.Pass
	seen map[*types.Func]P
}

// NewFacts returns an importer of facts of type P for a pass.
func NewFacts[F any, P interface {
	*F
	analysis.Fact
}](pass *analysis.Pass) *Facts[F, P] {
	return &Facts[F, P]{pass: pass, seen: map[*types.Func]P{}}
}

// Of returns the fact of fn, a function of another package, or nil: for
// a function of this package, and for one without the fact.
func (f *Facts[F, P]) Of(fn *types.Func) P {
	if fn.Pkg() == nil || fn.Pkg() == f.pass.Pkg {
		return nil
	}
	got, ok := f.seen[fn]
	if !ok {
		got = new(F)
		if !f.pass.ImportObjectFact(fn, got) {
			got = nil
		}
		f.seen[fn] = got
	}
	return got
}

// MaxPath bounds the call paths kept in messages and facts.
const MaxPath = 12

// Path is a call path from a function to what it reaches, both included,
// callee last: ["app.Serve", "gpu.encodeLocked"].
type Path []string

// From returns the path with name, a caller, in front, cut to MaxPath.
func (p Path) From(name string) Path {
	out := append(Path{name}, p...)
	if len(out) > MaxPath {
		out = append(out[:MaxPath-1:MaxPath-1], "…")
	}
	return out
}

// String joins the path with arrows.
func (p Path) String() string { return core.CallPath(p) }

// Last is the function the path leads to.
func (p Path) Last() string { return p[len(p)-1] }

// DeadAt says whether pos lies in code of the body that does not run, and
// whether it may run all the same (a literal stored for later, a go
// statement). Code that certainly does not run wins over code that may.
func DeadAt(b *live.Body, pos token.Pos) (dead, maybe bool) {
	maybe = true
	for _, d := range b.Dead {
		if d.Node.Pos() <= pos && pos < d.Node.End() {
			dead = true
			maybe = maybe && d.Maybe
		}
	}
	return dead, dead && maybe
}

// CalledIdents returns the identifiers under a node that name the
// function of a call (F in F(x), m in x.m(), F in F[T](x)): every other
// identifier that names a function uses it as a value.
func CalledIdents(c inspector.Cursor) map[*ast.Ident]bool {
	out := map[*ast.Ident]bool{}
	for cc := range c.Preorder((*ast.CallExpr)(nil)) {
		fun := ast.Unparen(cc.Node().(*ast.CallExpr).Fun)
		switch f := fun.(type) {
		case *ast.IndexExpr:
			fun = ast.Unparen(f.X)
		case *ast.IndexListExpr:
			fun = ast.Unparen(f.X)
		}
		switch f := fun.(type) {
		case *ast.Ident:
			out[f] = true
		case *ast.SelectorExpr:
			out[f.Sel] = true
		}
	}
	return out
}
