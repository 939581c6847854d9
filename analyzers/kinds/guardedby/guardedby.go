package guardedby

import (
	_ "embed"
	"fmt"
	"go/types"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// New returns a guarded_by analyzer reading invariants from the given
// guardconf analyzer. Like requires it exports facts: which functions
// need the lock held by their callers, and which fields the inline form
// guards, so drivers run it on the dependencies of the packages they
// check too.
func New(conf *analysis.Analyzer) *analysis.Analyzer {
	return rule.NewAnalyzer(Name, docs.Extract(doc, "guarded_by"), conf, func(r *rule.Rule) {
		ch := newChecker(r)
		ch.cs = append(contracts(r), ch.inline()...)
		ch.run()
	}, rule.Facts(new(Needs), new(Guarded)))
}

// contract is one guarded_by invariant as the analysed package sees it.
type contract struct {
	inv   *invariants.Invariant
	field *types.Var
	// lock is the lock: a field of the field's struct (reached from the
	// same value, also through embedded fields) or a package variable.
	lock    *types.Var
	onValue bool // lock is a field of the guarded value
	reads   level
	init    map[*types.Func]bool
	// readOnly: the field is written only where no lock is needed, so
	// its reads need none (checker.readOnly).
	readOnly bool
}

// contracts resolves the invariants of the file whose field this package
// can see. What does not resolve is reported in the field's package.
func contracts(r *rule.Rule) []*contract {
	var out []*contract
	for _, inv := range r.Invariants() {
		home := r.Pass.Pkg.Path() == inv.Field.Pkg
		field, err := r.Var(*inv.Field)
		if err == nil && !field.IsField() {
			err = fmt.Errorf("%s is not a field", inv.Field.Short())
		}
		if err != nil {
			if home {
				r.Unverifiable(inv, inv.Field.Pos, "field %s does not resolve in package %s: %v", inv.Field.Short(), inv.Field.Pkg, err)
			}
			continue
		}
		// An unexported field is touched only in its package, but the
		// needs its functions export reach the callers in others.
		g := ruleOf(inv)
		c := &contract{inv: inv, field: field, reads: levelOf(g.Reads), init: map[*types.Func]bool{}}
		owner, err := r.Owner(*inv.Field)
		if err == nil {
			c.lock, c.onValue, err = resolveLock(r, inv, owner, g.Lock.Raw)
		}
		if err != nil {
			if home {
				r.Unverifiable(inv, g.Lock.Pos, "lock %s of %s: %v", g.Lock.Raw, inv.Field.Short(), err)
			}
			continue
		}
		ok := true
		for _, n := range g.Init {
			fn, err := r.Func(n)
			switch {
			case err == nil:
				c.init[fn] = true
			case n.Pkg == r.Pass.Pkg.Path():
				r.Unverifiable(inv, n.Pos, "init function %s does not resolve: %v", n.Short(), err)
				ok = false
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// resolveLock resolves the lock a rule names for a field of owner: a
// field of owner (directly or through embedded structs) when the name is
// one, else a package variable, named relative to the field's package.
func resolveLock(r *rule.Rule, inv *invariants.Invariant, owner *types.TypeName, raw string) (*types.Var, bool, error) {
	if !strings.ContainsAny(raw, "./()*") {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(owner.Type()), true, owner.Pkg(), raw)
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			if !lockable(v.Type()) {
				return nil, false, fmt.Errorf("field %s has type %s, not sync.Mutex or sync.RWMutex", raw, v.Type())
			}
			return v, true, nil
		}
	}
	module := ""
	if inv.File != nil {
		module = inv.File.Module
	}
	n, err := invariants.ParseName(raw, module, inv.Field.Pkg)
	if err != nil {
		return nil, false, err
	}
	v, err := r.Var(n)
	if err != nil {
		return nil, false, fmt.Errorf("neither a field of %s nor a package variable: %w", owner.Name(), err)
	}
	if v.IsField() {
		return nil, false, fmt.Errorf("%s is a field of another type; the lock must be a field of %s or a package variable", raw, owner.Name())
	}
	if !lockable(v.Type()) {
		return nil, false, fmt.Errorf("%s has type %s, not sync.Mutex or sync.RWMutex", raw, v.Type())
	}
	return v, false, nil
}

// lockable reports whether a lock of type t is one whose Lock and Unlock
// the rule follows: a sync.Mutex or sync.RWMutex, a pointer to one, or a
// struct that embeds one (its methods are promoted).
func lockable(t types.Type) bool {
	if locks.IsMutex(t) {
		return true
	}
	st, ok := locks.Deref(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if f.Embedded() && locks.IsMutex(f.Type()) {
			return true
		}
	}
	return false
}

// lockName is the lock as the rule writes it.
func (c *contract) lockName() string { return ruleOf(c.inv).Lock.Raw }

// fieldName is the field as messages name it: (*Raft).peers.
func (c *contract) fieldName() string { return c.inv.Field.Short() }
