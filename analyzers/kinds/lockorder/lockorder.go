package lockorder

import (
	_ "embed"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
)

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
	for _, inv := range r.OfKind() {
		rl := ruleOf(inv)
		o := &order{inv: inv, last: rl.Unlisted == UnlistedLast}
		visible, ok := false, true
		for _, n := range rl.Locks {
			visible = visible || r.PackageOf(n) != nil
			var v *types.Var
			if v, ok = r.ResolveLock(inv, n, n.Pkg == here); !ok {
				break
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
