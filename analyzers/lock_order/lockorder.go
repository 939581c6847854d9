package lockorder

import (
	_ "embed"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/internal/acquires"
	"github.com/guardlint/guardlint/analyzers/internal/docs"
	"github.com/guardlint/guardlint/analyzers/internal/locks"
	"github.com/guardlint/guardlint/analyzers/internal/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a lock_order analyzer reading invariants from the given
// guardconf analyzer. What functions take comes from the acquires
// analyzer, whose facts cross packages.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     string(Name),
		Doc:      docs.Extract(doc, string(Name)),
		URL:      "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/lock_order",
		Requires: append(rule.Requires(conf), acquires.For(conf)),
		Run: func(pass *analysis.Pass) (any, error) {
			r := rule.New(pass, conf, Name)
			acq := pass.ResultOf[acquires.For(conf)].(*acquires.Info)
			for _, o := range orders(r) {
				newChecker(r, acq, o).run()
			}
			return nil, nil
		},
	}
}

// order is one lock_order invariant as the analysed package sees it.
type order struct {
	inv *invariants.Invariant
	// locks are the listed locks as the package resolves them, nil where
	// it cannot name one; keys are their canonical names, as the
	// acquires facts know them.
	locks []*types.Var
	keys  []string
	last  bool // unlisted: last
}

// orders resolves the lock_order invariants that concern the package:
// those with a lock it can see. A lock that does not resolve, or is not
// a mutex, is reported by its own package.
func orders(r *rule.Rule) []*order {
	here := r.Pass.Pkg.Path()
	var out []*order
	for _, inv := range r.Conf.Set.Invariants {
		if inv.Kind() != Name || inv.Lang != invariants.LangGo {
			continue
		}
		rl := ruleOf(inv)
		o := &order{inv: inv, last: rl.Unlisted == UnlistedLast}
		visible, ok := false, true
		for _, n := range rl.Locks {
			visible = visible || r.PackageOf(n) != nil
			var v *types.Var
			if n.Pkg == here {
				if v, ok = r.ResolveVar(inv, "lock", n); !ok {
					break
				}
				if !locks.IsMutex(v.Type()) {
					r.Unverifiable(inv, n.Pos, "lock %s has type %s, not sync.Mutex or sync.RWMutex", n.Short(), v.Type())
					ok = false
					break
				}
			} else if v, _ = r.Var(n); v != nil && !locks.IsMutex(v.Type()) {
				v = nil // reported in its own package
			}
			o.locks = append(o.locks, v)
			o.keys = append(o.keys, n.String())
		}
		if visible && ok {
			out = append(out, o)
		}
	}
	return out
}

// name is listed lock i as the invariant names it, for messages.
func (o *order) name(i int) string { return ruleOf(o.inv).Locks[i].Short() }

// words is the order for messages.
func (o *order) words() string {
	s := ruleOf(o.inv).order()
	if o.last {
		s += ", then every other lock"
	}
	return s
}
