package prove

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/mutate"
	"github.com/guardlint/guardlint/analyzers/mutate/native"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/invariants"
)

// nativeCode is the mutant generator of C, C++, CUDA and Rust: each
// invariant's files are parsed once, and its kind's native generators
// (native.Rule) make the reverts at the sites the front end reports.
type nativeCode struct{}

// mutants implements generator.
func (nativeCode) mutants(inv *invariants.Invariant) ([]*mutate.Mutant, []string) {
	gen, ok := inv.Rule.(native.Rule)
	if !ok {
		return []*mutate.Mutant{mutate.VoidMutant(inv, inv.ID, "locate", "kind "+string(inv.Kind())+" has no mutant generator for lang "+string(inv.Lang))}, nil
	}
	code, err := native.Load(inv, nil)
	if err != nil {
		return []*mutate.Mutant{mutate.VoidMutant(inv, inv.ID, "locate", err.Error())}, nil
	}
	return gen.NativeMutants(code), gen.NativeVacuity(code)
}

// nativeFindings checks a C, C++, CUDA or Rust mutant: the invariant
// alone, through the driver's tree-sitter run, over a view of the sources
// in which the mutant's files replace the disk's.
func nativeFindings(m *mutate.Mutant) []core.Finding {
	view := overlay.New()
	for path, data := range m.Files {
		view.Replace(path, data)
	}
	set := &invariants.Set{Files: []*invariants.File{m.Invariant.File}, Invariants: []*invariants.Invariant{m.Invariant}}
	return driver.NativeFiles(set, view)
}
