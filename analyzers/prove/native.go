package prove

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/guardlint/guardlint/invariants"
)

// nativeCode is the mutant generator of C, C++, CUDA and Rust: each
// invariant's files are parsed once, and its kind's native generators
// (native.Rule) make the reverts at the sites the front end reports.
type nativeCode struct {
	// view is the sources as the baseline checked them: the disk with the
	// set's patch chains applied (nil when there are none).
	view *overlay.Files
}

// mutants implements generator.
func (g nativeCode) mutants(inv *invariants.Invariant) ([]*mutant.Mutant, []string) {
	gen, ok := inv.Rule.(native.Rule)
	if !ok {
		return []*mutant.Mutant{mutant.VoidMutant(inv, inv.ID, "locate", "kind "+string(inv.Kind())+" has no mutant generator for lang "+string(inv.Lang))}, nil
	}
	code, err := native.Load(inv, g.view)
	if err != nil {
		return []*mutant.Mutant{mutant.VoidMutant(inv, inv.ID, "locate", err.Error())}, nil
	}
	return gen.NativeMutants(code), gen.NativeVacuity(code)
}

// nativeFindings checks a C, C++, CUDA or Rust mutant: the invariant
// alone, through the driver's tree-sitter run, over a view of the sources
// in which the mutant's files replace those of base (the patched tree,
// or the disk).
//
// Only the files the mutant changes are checked, unless exact or one of
// them is a header: a kill is a
// finding inside the mutated function, which depends on that function's
// file alone (its definitions, the defines, the patterns), and the
// invariant held on the other files before. That keeps a glob over a large
// vendored tree from being walked and read again for every mutant. The
// headers among the invariant's files come along: the declarations the
// front end reads there (a helper's EXCLUSIVE_LOCKS_REQUIRED, a field's
// type, a guard class) decide findings in the mutated function too. The
// findings elsewhere, which a survivor's detail lists, are then those of
// the changed files only.
func nativeFindings(m *mutant.Mutant, base *overlay.Files, exact bool) []core.Finding {
	view := base.Clone()
	inv := *m.Invariant
	inv.Files = nil
	for _, path := range slices.Sorted(maps.Keys(m.Files)) {
		view.Replace(path, m.Files[path])
		inv.Files = append(inv.Files, invariants.Glob{Pattern: path, Pos: m.Invariant.Pos})
		if strings.ContainsAny(path, "*?[") {
			exact = true // not a glob of itself
		}
		if headerExts[filepath.Ext(path)] {
			// A function defined in a header works on what the other
			// files define (the helper it calls, the accesses of the
			// field): a header alone may have nothing to check.
			exact = true
		}
	}
	if exact || len(inv.Files) == 0 {
		inv.Files = m.Invariant.Files
	} else {
		inv.Files = append(inv.Files, headers(m.Invariant.Files, inv.Files)...)
	}
	set := &invariants.Set{Files: []*invariants.File{m.Invariant.File}, Invariants: []*invariants.Invariant{&inv}}
	return driver.NativeFiles(set, view, 0) // the default parse budget, as the baseline run has it
}

// headerExts are the extensions of C and C++ headers, whose declarations
// a mutated function's check reads.
var headerExts = map[string]bool{".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".h++": true, ".cuh": true, ".inl": true, ".ipp": true}

// headers returns the patterns of all that name headers (a path or a glob
// that ends in a header's extension) and are not among have.
func headers(all, have []invariants.Glob) []invariants.Glob {
	var out []invariants.Glob
	for _, g := range all {
		if headerExts[filepath.Ext(g.Pattern)] && !slices.ContainsFunc(have, func(h invariants.Glob) bool { return h.Pattern == g.Pattern }) {
			out = append(out, g)
		}
	}
	return out
}
