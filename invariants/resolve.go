package invariants

import (
	"fmt"
	"slices"
	"strings"
)

// Resolve picks the reading of every Go name that has several (see
// Name.Readings): the one whose package is among known, the import paths
// the driver has listed. A name none of whose readings is known keeps its
// first, as it was read before dotted paths were supported; a driver that
// sees the whole run reports its package as not found, and one that sees a
// package at a time (go vet) finds that it concerns no package of its
// own. A name that two or more known packages can hold stays unresolved,
// and is an error at its position that lists the readings in the quoted
// form that says which one is meant.
//
// The first call decides: later calls return its result and change
// nothing, so the drivers that share a set (the prover runs the engine
// while it loads packages itself) can each call it, concurrently too.
func (s *Set) Resolve(known []string) error {
	s.resolve.Lock()
	defer s.resolve.Unlock()
	if s.resolve.done {
		return s.resolve.err
	}
	s.resolve.done = true
	isKnown := map[string]bool{}
	for _, p := range known {
		isKnown[p] = true
	}
	var errs ErrorList
	for _, inv := range s.Invariants {
		for _, ref := range inv.goNames() {
			n := ref.name
			if n.Readings == nil {
				continue
			}
			var found []Reading
			for _, r := range n.Readings {
				if isKnown[r.Pkg] {
					found = append(found, r)
				}
			}
			switch len(found) {
			case 0:
			case 1:
				n.Pkg, n.Ident, n.Member, n.Readings = found[0].Pkg, found[0].Ident, found[0].Member, nil
			default:
				errs = append(errs, &Error{Pos: n.Pos, Msg: fmt.Sprintf("invariant %s: %s: %s", inv.ID, ref.what, n.Ambiguous(found))})
			}
		}
	}
	s.resolve.err = errs.err()
	return s.resolve.err
}

// Candidates returns the import paths that the set's unresolved names may
// live in, sorted: what a driver that does not list the packages of a run
// (the golangci-lint plugin) must look up before Resolve.
func (s *Set) Candidates() []string {
	var out []string
	for _, inv := range s.Invariants {
		for _, ref := range inv.goNames() {
			for _, r := range ref.name.Readings {
				out = append(out, r.Pkg)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Ambiguous describes a name that the readings, each of whose packages
// exists, can all mean; the quoted spelling of each says which is meant.
func (n Name) Ambiguous(readings []Reading) string {
	pkgs := make([]string, len(readings))
	spelled := make([]string, len(readings))
	for i, r := range readings {
		m := n
		m.Pkg, m.Ident, m.Member, m.Readings = r.Pkg, r.Ident, r.Member, nil
		pkgs[i] = r.Pkg
		spelled[i] = m.Quoted()
	}
	all := "both"
	if len(pkgs) > 2 {
		all = "all"
	}
	return fmt.Sprintf("name %q is ambiguous: packages %s %s exist; write %s", n.Raw, strings.Join(pkgs, " and "), all, strings.Join(spelled, " or "))
}

// Quoted returns the name with its package path quoted, the spelling
// that has one reading whatever the path holds.
func (n Name) Quoted() string { return n.spell(`"` + n.Pkg + `"`) }

// nameRef is one Go name of an invariant, with the key it is written under.
type nameRef struct {
	name *Name
	what string
}

// goNames returns every Go name of an invariant, targets and rule names
// alike; none for the tree-sitter languages.
func (inv *Invariant) goNames() []nameRef {
	if inv.Lang.TreeSitter() {
		return nil
	}
	var out []nameRef
	for i := range inv.Functions {
		out = append(out, nameRef{&inv.Functions[i], "target"})
	}
	if inv.Field != nil {
		out = append(out, nameRef{inv.Field, "field"})
	}
	if inv.Rule != nil {
		for _, n := range inv.Rule.Names() {
			out = append(out, nameRef{n, string(inv.Rule.Kind())})
		}
	}
	for i := range inv.Runs {
		out = append(out, nameRef{&inv.Runs[i], "runs"})
	}
	return out
}
