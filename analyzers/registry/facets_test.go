package registry_test

import (
	"slices"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/golang/acquires"
	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
)

// A facet is one ability of a kind that some driver, front end or the
// prover asks for: a field of its descriptor (core.Kind) or an interface
// its rule value implements. The descriptor's fields and the interfaces
// are checked by the compiler; which kinds have which facets is checked
// here, against facetTable.
const (
	fGoAnalyzer    = "go-analyzer"     // core.Kind.Analyzer: the Go check
	fSuggest       = "suggest"         // core.Kind.Suggest: proposed from a fix
	fGoMutants     = "go-mutants"      // mutate.Rule: Go reverts and vacuity
	fSpread        = "spread"          // mutate.Spread: reverts beyond the targets' packages
	fImporters     = "importers"       // core.Importers: the targets' importers are checked too
	fScope         = "scope"           // invariants.ScopeRule: no target; its names stand for them
	fFollowsLocks  = "follows-locks"   // acquires.Rule: which locks each function takes
	fTSFunction    = "ts-function"     // treesitter.FunctionRule: checked per target definition
	fTSField       = "ts-field"        // treesitter.FieldRule: checked over the writes of a field
	fTSFiles       = "ts-files"        // treesitter.FilesRule: checked over all functions of the files
	fTSLookup      = "ts-lookup"       // treesitter.FilesLookup: says what it looks up and reads
	fTSHelpers     = "ts-helpers"      // treesitter.HelperRule: helpers stand in for the rule
	fTSPatternUses = "ts-pattern-uses" // treesitter.PatternUser: what each pattern is for
	fTSAcquirer    = "ts-acquirer"     // treesitter.Acquirer: helpers that return a guard
	fNativeMutants = "native-mutants"  // native.Rule: C, C++, CUDA, Rust and Metal reverts
)

// facetTable is every kind's facets. A new kind gets a row here, and a
// kind that gains or loses a facet changes its row: a forgotten facet
// (a kind that concerns its targets' importers but does not say so, and
// would silently skip them) fails TestFacetTable.
var facetTable = map[invariants.Kind][]string{
	"call":           {fGoAnalyzer, fSuggest, fGoMutants, fTSFunction, fTSHelpers, fTSPatternUses, fNativeMutants},
	"hold":           {fGoAnalyzer, fSuggest, fGoMutants, fTSFunction, fTSPatternUses, fNativeMutants},
	"owns":           {fGoAnalyzer, fSuggest, fGoMutants, fImporters, fTSField, fNativeMutants},
	"guarded_by":     {fGoAnalyzer, fSuggest, fGoMutants, fImporters, fTSFiles, fTSLookup, fNativeMutants},
	"forbid":         {fGoAnalyzer, fSuggest, fGoMutants, fTSFunction, fTSPatternUses, fNativeMutants},
	"order":          {fGoAnalyzer, fSuggest, fGoMutants, fTSFunction, fTSPatternUses, fNativeMutants},
	"requires":       {fGoAnalyzer, fSuggest, fGoMutants, fImporters, fTSFiles, fTSLookup, fTSPatternUses, fTSAcquirer, fNativeMutants},
	"excludes":       {fGoAnalyzer, fGoMutants, fSpread, fImporters, fTSFiles, fNativeMutants, fSuggest},
	"lock_order":     {fGoAnalyzer, fGoMutants, fImporters, fScope, fFollowsLocks, fTSFiles, fNativeMutants},
	"never_acquires": {fGoAnalyzer, fGoMutants, fImporters, fFollowsLocks},
}

// facetsOf lists the facets a kind has: its descriptor's fields, and the
// interfaces of its example rule values (one per language family).
func facetsOf(t *testing.T, k core.Kind) []string {
	var out []string
	add := func(f string, has bool) {
		if has && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	add(fGoAnalyzer, k.Analyzer != nil)
	add(fSuggest, k.Suggest != nil)
	for _, lang := range k.Langs {
		family := lang
		if lang.TreeSitter() {
			family = invariants.LangCPP
		}
		r := decode(t, lang, k.Examples[family]).Rule
		if lang.TreeSitter() {
			_, fn := r.(treesitter.FunctionRule)
			_, field := r.(treesitter.FieldRule)
			_, files := r.(treesitter.FilesRule)
			_, lookup := r.(treesitter.FilesLookup)
			_, helpers := r.(treesitter.HelperRule)
			_, uses := r.(treesitter.PatternUser)
			_, acq := r.(treesitter.Acquirer)
			_, nat := r.(native.Rule)
			add(fTSFunction, fn)
			add(fTSField, field)
			add(fTSFiles, files)
			add(fTSLookup, lookup)
			add(fTSHelpers, helpers)
			add(fTSPatternUses, uses)
			add(fTSAcquirer, acq)
			add(fNativeMutants, nat)
			continue
		}
		_, mut := r.(mutate.Rule)
		_, spread := r.(mutate.Spread)
		_, imp := r.(core.Importers)
		_, scope := r.(invariants.ScopeRule)
		_, follows := r.(acquires.Rule)
		add(fGoMutants, mut)
		add(fSpread, spread)
		add(fImporters, imp)
		add(fScope, scope)
		add(fFollowsLocks, follows)
	}
	return out
}

// TestFacetTable checks every registered kind's facets against
// facetTable, and that the table has no row for a kind that is not
// registered.
func TestFacetTable(t *testing.T) {
	registered := map[invariants.Kind]bool{}
	for _, k := range registry.Kinds {
		registered[k.Name] = true
		t.Run(string(k.Name), func(t *testing.T) {
			want, ok := facetTable[k.Name]
			if !assert.True(t, ok, "kind %s has no row in facetTable: list the facets it has", k.Name) {
				return
			}
			assert.ElementsMatch(t, want, facetsOf(t, k), "facets of %s (want: the table's row, actual: the kind's)", k.Name)
		})
	}
	for name := range facetTable {
		assert.True(t, registered[name], "facetTable has a row for %s, which is not registered", name)
	}
}
