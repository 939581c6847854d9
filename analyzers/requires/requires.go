package requires

import (
	_ "embed"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/internal/docs"
	"github.com/guardlint/guardlint/analyzers/internal/locks"
	"github.com/guardlint/guardlint/analyzers/internal/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a requires analyzer reading invariants from the given
// guardconf analyzer. Unlike the other rule analyzers it exports facts, so
// drivers run it on the dependencies of the packages they check too.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:      string(Name),
		Doc:       docs.Extract(doc, "requires"),
		URL:       "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/requires",
		Requires:  rule.Requires(conf),
		FactTypes: []analysis.Fact{new(Needs)},
		Run: func(pass *analysis.Pass) (any, error) {
			r := rule.New(pass, conf, Name)
			cs := contracts(r)
			if len(cs) == 0 {
				return nil, nil
			}
			newChecker(r, cs).run()
			return nil, nil
		},
	}
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
	for _, inv := range r.Conf.Set.Invariants {
		if inv.Kind() != Name || inv.Lang != invariants.LangGo {
			continue
		}
		req := ruleOf(inv)
		visible, home := r.PackageOf(req.Lock) != nil, req.Lock.Pkg == here
		for _, fn := range inv.Functions {
			visible = visible || r.PackageOf(fn) != nil
			home = home || fn.Pkg == here
		}
		if !visible {
			continue
		}
		// Outside its own package the lock may not resolve: a package
		// loaded from export data keeps no unexported variable its API
		// does not mention. Such a package cannot name the lock, so it
		// can take it only through the helpers, and the contract goes on
		// without it.
		var lock *types.Var
		if home {
			var ok bool
			if lock, ok = r.ResolveVar(inv, "lock", req.Lock); !ok {
				continue
			}
		} else {
			lock, _ = r.Var(req.Lock)
		}
		if lock != nil && !isMutex(lock.Type()) {
			if home {
				r.Unverifiable(inv, req.Lock.Pos, "lock %s has type %s, not sync.Mutex or sync.RWMutex", req.Lock.Short(), lock.Type())
			}
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

// isMutex reports whether t is sync.Mutex or sync.RWMutex, or a pointer to
// one: a lock whose Lock and Unlock calls name it.
func isMutex(t types.Type) bool {
	n, ok := types.Unalias(locks.Deref(t)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}
