package driver

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/packages"
)

// scope decides which invariants the run checks and fails closed on
// those it cannot reach. It counts into res the invariants checked and
// those outside the run's patterns, and returns the findings: one for
// every invariant that names a Go package which does not exist at all,
// and one when nothing of the configuration applies to the run (run on
// the wrong directory, or every package renamed).
//
// A Go invariant is checked when a package of the run's patterns is one
// of its packages or, for an exported owned field or a requires
// invariant, depends on one. Another whose packages exist lies outside a
// partial run (./app/...) and is counted, not failed: the run that covers
// its packages checks it. The C, C++, CUDA and Rust invariants name files,
// not packages, and every run checks them.
func scope(set *invariants.Set, ms *modules, lists []unitList, inScope map[string]bool, opts Options, res *Result) []core.Finding {
	deps := map[string]bool{}
	for _, l := range lists {
		packages.Visit(l.listed, nil, func(p *packages.Package) { deps[p.PkgPath] = true })
	}
	out := missingPackages(set, ms, inScope)
	missing := map[*invariants.Invariant]bool{}
	for _, f := range out {
		missing[f.Invariant] = true
	}
	for _, inv := range set.Invariants {
		switch {
		case inv.Lang.TreeSitter() || applies(inv, inScope, deps):
			res.Checked++
		case !missing[inv]:
			res.NotChecked = append(res.NotChecked, inv)
		}
	}
	if res.Checked == 0 && len(res.NotChecked) > 0 {
		var files []string
		for _, f := range set.Files {
			files = append(files, core.RelPath(opts.Dir, f.Path))
		}
		out = append(out, core.Finding{
			Pos: core.PosOf(invariants.Pos{File: set.Files[0].Path, Line: 1, Col: 1}),
			Message: core.CannotVerify("none of the %d invariants of %s concerns a package of %s",
				len(res.NotChecked), strings.Join(files, ", "), strings.Join(opts.Patterns, " ")),
		})
	}
	return out
}

// applies reports whether a Go invariant concerns the run: one of its
// packages is in scope, or a package in scope depends on one of the
// packages whose importers it concerns (deps holds every package the
// run's packages import, themselves included).
func applies(inv *invariants.Invariant, inScope, deps map[string]bool) bool {
	for _, p := range inv.Packages() {
		if inScope[p] {
			return true
		}
	}
	for _, p := range reach(inv) {
		if deps[p] {
			return true
		}
	}
	return false
}

// MissingPackages returns a finding for every invariant that names a Go
// package which does not exist at all (renamed or deleted), at the
// invariant's line. Packages in known exist; the others are looked up
// with go list, in the module each belongs to (found from dir, see
// modules.go), all at once per module.
//
// An invariant whose package is gone concerns no package of any run, so
// no analyzer would ever see it: without this check it would pass in
// silence.
func MissingPackages(set *invariants.Set, dir string, known map[string]bool) []core.Finding {
	if known == nil {
		known = map[string]bool{}
	}
	ms, err := findModules(set, dir)
	if err != nil {
		return []core.Finding{{
			Pos:     core.PosOf(invariants.Pos{File: set.Files[0].Path, Line: 1, Col: 1}),
			Message: core.CannotVerify("%v", err),
		}}
	}
	return missingPackages(set, ms, known)
}

// missingPackages is MissingPackages with the modules already found.
func missingPackages(set *invariants.Set, ms *modules, known map[string]bool) []core.Finding {
	byDir := map[string][]string{}
	var dirs []string
	for _, p := range goPackages(set) {
		if known[p] {
			continue
		}
		d := ms.lookupDir(p)
		if d == "" {
			continue // in no module: it cannot exist
		}
		if byDir[d] == nil {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], p)
	}
	exists := map[string]bool{}
	for _, d := range dirs {
		pkgs, _ := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: d}, byDir[d]...)
		for _, p := range pkgs {
			if len(p.Errors) == 0 {
				exists[p.PkgPath] = true
			}
		}
	}
	var out []core.Finding
	for _, inv := range set.Invariants {
		for _, p := range inv.Packages() {
			if !known[p] && !exists[p] {
				out = append(out, core.Unverifiable(inv, inv.Pos, "package %s not found%s", p, invariants.Suggest(p, maps.Keys(known))))
			}
		}
	}
	return out
}

// ResolveExisting reads the names whose package path has a dot in its
// last element against the packages of their readings that exist, looked
// up with go list from dir: for a driver that lists no packages before the
// analysis (the golangci-lint plugin). A name that two existing packages
// can hold is an error, with its position.
func ResolveExisting(set *invariants.Set, dir string) error {
	var known []string
	if candidates := set.Candidates(); len(candidates) > 0 {
		pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: dir}, candidates...)
		if err != nil {
			return fmt.Errorf("guardlint: looking up the invariants' packages: %w", err)
		}
		for _, p := range pkgs {
			if len(p.Errors) == 0 {
				known = append(known, p.PkgPath)
			}
		}
	}
	var list invariants.ErrorList
	if err := set.Resolve(known); errors.As(err, &list) {
		lines := make([]string, len(list))
		for i, e := range list {
			lines[i] = fmt.Sprintf("%s:%d:%d: %s", core.RelPath(dir, e.Pos.File), e.Pos.Line, e.Pos.Col, e.Msg)
		}
		return fmt.Errorf("guardlint: names in the invariants are ambiguous:\n%s", strings.Join(lines, "\n"))
	}
	return nil
}

// Lines formats findings one per line, with paths relative to dir: the
// text of an error that carries them (golangci-lint stops with it).
func Lines(fs []core.Finding, dir string) string {
	lines := make([]string, len(fs))
	for i, f := range fs {
		lines[i] = f.Format(dir)
	}
	return strings.Join(lines, "\n")
}

// ErrorOf joins findings into one error, or returns nil when there are
// none.
func ErrorOf(what string, fs []core.Finding, dir string) error {
	if len(fs) == 0 {
		return nil
	}
	return fmt.Errorf("guardlint: %s:\n%s", what, Lines(fs, dir))
}
