package requires

import (
	_ "embed"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a requires analyzer reading invariants from the given
// guardconf analyzer. Unlike the other rule analyzers it exports facts, so
// drivers run it on the dependencies of the packages they check too.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(Name, docs.Extract(doc, "requires"), conf, func(r *rule.Rule) {
		if cs := contracts(r); len(cs) > 0 {
			newChecker(r, cs).run()
		}
	}, rule.Facts(new(Needs)))
}

// contract is one requires invariant as the analysed package sees it.
type contract struct {
	inv  *invariants.Invariant
	lock *types.Var // nil where the lock cannot be named
	need level      // the level the invariant's mode asks for
	// ops are the operations: the invariant's functions and the functions
	// of this package annotated with the invariant's lock.
	ops              map[*types.Func]bool
	acquire, release []*types.Func
	helperAt         map[*types.Func]invariants.Pos
	// notes are the //guardlint:requires comments that made functions of
	// this package operations.
	notes map[*types.Func]token.Pos
}

// annotated reports whether fn is an operation by annotation.
func (c *contract) annotated(fn *types.Func) bool { return c.notes[fn].IsValid() }

// contracts resolves the requires invariants that concern the package: those
// whose operations or lock it can see. What does not resolve is reported
// by the package that declares it, where the invariant is wrong, and
// skipped elsewhere.
func contracts(r *rule.Rule) []*contract {
	here := r.Pass.Pkg.Path()
	var out []*contract
	for _, inv := range r.OfKind() {
		req := ruleOf(inv)
		visible, home := r.PackageOf(req.Lock) != nil, req.Lock.Pkg == here
		for _, fn := range inv.Functions {
			visible = visible || r.PackageOf(fn) != nil
			home = home || fn.Pkg == here
		}
		if !visible {
			continue
		}
		lock, ok := r.ResolveLock(inv, req.Lock, home)
		if !ok {
			continue
		}
		c := &contract{inv: inv, lock: lock, need: levelOf(req.Mode), ops: map[*types.Func]bool{}, helperAt: map[*types.Func]invariants.Pos{}, notes: map[*types.Func]token.Pos{}}
		for _, n := range inv.Functions {
			fn, err := r.Func(n)
			switch {
			case err == nil:
				c.ops[fn] = true
			case n.Pkg == here:
				r.Unverifiable(inv, n.Pos, "operation %s not found in package %s: %v", n.Short(), here, err)
			}
		}
		c.acquire = c.helpers(r, req.Acquire, "acquire")
		c.release = c.helpers(r, req.Release, "release")
		out = append(out, c)
	}
	return out
}

// helpers resolves acquire or release helpers; one that does not resolve
// is reported in its own package.
func (c *contract) helpers(r *rule.Rule, names []invariants.Name, what string) []*types.Func {
	var out []*types.Func
	for _, n := range names {
		fn, err := r.Func(n)
		if err != nil {
			if n.Pkg == r.Pass.Pkg.Path() {
				r.Unverifiable(c.inv, n.Pos, "%s helper %s does not resolve: %v", what, n.Short(), err)
			}
			continue
		}
		c.helperAt[fn] = n.Pos
		out = append(out, fn)
	}
	return out
}
