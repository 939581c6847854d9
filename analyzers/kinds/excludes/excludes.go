package excludes

import (
	_ "embed"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
)

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
	for _, inv := range r.OfKind() {
		name := ruleOf(inv).Lock
		visible := r.PackageOf(name) != nil
		for _, fn := range inv.Functions {
			visible = visible || r.PackageOf(fn) != nil
		}
		if !visible {
			continue
		}
		lock, ok := r.ResolveLock(inv, name, name.Pkg == here)
		if !ok {
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
