package driver

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/packages"
)

// scopeFindings fails closed on invariants the run cannot reach: an
// invariant whose package does not exist at all, and an invariants file
// none of whose packages was loaded (run on the wrong directory, or every
// package renamed).
func scopeFindings(set *invariants.Set, inScope map[string]bool, opts Options) []core.Finding {
	out := MissingPackages(set, opts.Dir, inScope)
	for _, f := range set.Files {
		touched, named := false, false
		for _, inv := range f.Invariants {
			for _, p := range inv.Packages() {
				named = true
				touched = touched || inScope[p]
			}
		}
		if named && !touched {
			out = append(out, core.Finding{
				Pos:     core.PosOf(invariants.Pos{File: f.Path, Line: 1, Col: 1}),
				Message: core.CannotVerify("no package that %s names was loaded by %s", core.RelPath(opts.Dir, f.Path), strings.Join(opts.Patterns, " ")),
			})
		}
	}
	return out
}

// MissingPackages returns a finding for every invariant that names a Go
// package which does not exist at all (renamed or deleted), at the
// invariant's line. Packages in known exist; the others are looked up
// with go list from dir, all at once.
//
// An invariant whose package is gone concerns no package of any run, so
// no analyzer would ever see it: without this check it would pass in
// silence.
func MissingPackages(set *invariants.Set, dir string, known map[string]bool) []core.Finding {
	var unknown []string
	for _, inv := range set.Invariants {
		for _, p := range inv.Packages() {
			if !known[p] && !slices.Contains(unknown, p) {
				unknown = append(unknown, p)
			}
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	exists := map[string]bool{}
	pkgs, _ := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: dir}, unknown...)
	for _, p := range pkgs {
		if len(p.Errors) == 0 {
			exists[p.PkgPath] = true
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
