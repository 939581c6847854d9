package excludes

import (
	_ "embed"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/internal/docs"
	"github.com/guardlint/guardlint/analyzers/internal/locks"
	"github.com/guardlint/guardlint/analyzers/internal/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns an excludes analyzer reading invariants from the given
// guardconf analyzer. It exports facts, so drivers run it on the
// dependencies of the packages they check too.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:      string(Name),
		Doc:       docs.Extract(doc, "excludes"),
		URL:       "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/excludes",
		Requires:  rule.Requires(conf),
		FactTypes: []analysis.Fact{new(Excluded)},
		Run: func(pass *analysis.Pass) (any, error) {
			r := rule.New(pass, conf, Name)
			if cs := contracts(r); len(cs) > 0 {
				newChecker(r, cs).run()
			}
			return nil, nil
		},
	}
}

// contract is one excludes invariant as the analysed package sees it.
type contract struct {
	inv     *invariants.Invariant
	lock    *types.Var // nil where the package cannot name the lock
	targets map[*types.Func]bool
}

// contracts resolves the excludes invariants that concern the package:
// those whose lock or targets it can see. A name that does not resolve
// is reported by the package that declares it, and skipped elsewhere.
func contracts(r *rule.Rule) []*contract {
	here := r.Pass.Pkg.Path()
	var out []*contract
	for _, inv := range r.Conf.Set.Invariants {
		if inv.Kind() != Name || inv.Lang != invariants.LangGo {
			continue
		}
		name := ruleOf(inv).Lock
		visible := r.PackageOf(name) != nil
		for _, fn := range inv.Functions {
			visible = visible || r.PackageOf(fn) != nil
		}
		if !visible {
			continue
		}
		var lock *types.Var
		if name.Pkg == here {
			var ok bool
			if lock, ok = r.ResolveVar(inv, "lock", name); !ok {
				continue
			}
		} else {
			lock, _ = r.Var(name)
		}
		if lock != nil && !locks.IsMutex(lock.Type()) {
			if name.Pkg == here {
				r.Unverifiable(inv, name.Pos, "lock %s has type %s, not sync.Mutex or sync.RWMutex", name.Short(), lock.Type())
			}
			continue
		}
		c := &contract{inv: inv, lock: lock, targets: map[*types.Func]bool{}}
		for _, n := range inv.Functions {
			fn, err := r.Func(n)
			switch {
			case err == nil:
				c.targets[fn.Origin()] = true
			case n.Pkg == here:
				r.Unverifiable(inv, n.Pos, "target %s not found in package %s: %v", n.Short(), here, err)
			}
		}
		out = append(out, c)
	}
	return out
}

// lockName is the lock as the invariant names it, for messages.
func (c *contract) lockName() string { return ruleOf(c.inv).Lock.Short() }
