// Package layers is the layer order of guardlint's packages, which
// docs/contributing.md draws and the package's test enforces over the
// import graph (go list): an import never points from a lower layer to a
// higher one, two packages of one layer import each other only within
// one unit (one front end, one kind), and the analysis surfaces of a
// build without cgo link no tree-sitter grammar.
package layers

import "strings"

// A Layer is one level of the architecture, lowest first.
type Layer int

// The layers, lowest first.
const (
	Model    Layer = iota // invariants: the file format, loader, schema
	Core                  // the rule core and the vocabulary every layer above shares
	FrontEnd              // code into facts: Go (go/types, live, locks) and tree-sitter
	Kind                  // one package per rule kind
	Runner                // the tree-sitter run: files, parsing, dispatch to the kinds' facets
	Registry              // the one list of kinds
	Driver                // config discovery, scope, the suite, findings, formats
	Prover                // beside the driver: prove (mutants) and fix (suggest, --revert)
	Surface               // the CLI with go vet's protocol, the golangci-lint plugin
)

var names = [...]string{"model", "core", "front end", "kind", "runner", "registry", "driver", "prover", "surface"}

func (l Layer) String() string { return names[l] }

// A Unit is a package or group of packages of one layer that may import
// each other: the units of one layer are independent of each other.
type Unit struct {
	Layer Layer
	// Name is the unit's name; for the units whose Prefix stands for one
	// unit per directory below it (every kind), "" and see PerDir.
	Name string
	// Prefix is the import path below the module that the unit's
	// packages start with (a path or path/ for everything below it).
	Prefix string
	// PerDir: every directory directly below Prefix is a unit of its own
	// (analyzers/kinds/hold and analyzers/kinds/owns may not import each
	// other).
	PerDir bool
}

// Units are guardlint's units, by layer. The packages of the core layer
// are one unit: the core and the vocabulary every layer above shares
// (mutants, views of the sources, diffs, suppression comments, the doc
// of an analyzer) may use each other. Every package of the linter
// belongs to one; the runtime and its guards (runtime/, gpu_test/,
// internal/) and the benchmarks' generators (bench/) are not the linter.
var Units = []Unit{
	{Layer: Model, Name: "invariants", Prefix: "invariants"},
	{Layer: Core, Name: "core", Prefix: "analyzers/core"},
	{Layer: Core, Name: "core", Prefix: "analyzers/mutant"},
	{Layer: Core, Name: "core", Prefix: "analyzers/overlay"},
	{Layer: Core, Name: "core", Prefix: "analyzers/patch"},
	{Layer: Core, Name: "core", Prefix: "analyzers/suppress"},
	{Layer: Core, Name: "core", Prefix: "analyzers/cliflag"},
	{Layer: Core, Name: "core", Prefix: "analyzers/layers"},
	{Layer: FrontEnd, Name: "go", Prefix: "analyzers/golang/"},
	{Layer: FrontEnd, Name: "tree-sitter", Prefix: "analyzers/treesitter"},
	{Layer: Kind, Prefix: "analyzers/kinds/", PerDir: true},
	{Layer: Runner, Name: "tree-sitter run", Prefix: "analyzers/nativecheck"},
	{Layer: Registry, Name: "registry", Prefix: "analyzers/registry"},
	{Layer: Driver, Name: "driver", Prefix: "analyzers/driver"},
	{Layer: Prover, Name: "prover", Prefix: "analyzers/prove"},
	{Layer: Prover, Name: "prover", Prefix: "analyzers/fix"},
	{Layer: Surface, Name: "surfaces", Prefix: "analyzers/golangci"},
	{Layer: Surface, Name: "surfaces", Prefix: "cmd/guardlint"},
}

// Outside lists the prefixes of the module's packages that are not the
// linter: they may import it (a benchmark's generator), it never imports
// them.
var Outside = []string{"runtime", "gpu_test", "internal/", "bench/"}

// Of returns the unit of a package, by its import path below the module,
// and whether it has one.
func Of(path string) (unit string, layer Layer, ok bool) {
	for _, u := range Units {
		if !under(path, u.Prefix) {
			continue
		}
		if !u.PerDir {
			return u.Name, u.Layer, true
		}
		rest := strings.TrimPrefix(path, u.Prefix)
		dir, _, _ := strings.Cut(rest, "/")
		return u.Prefix + dir, u.Layer, true
	}
	return "", 0, false
}

// IsOutside reports whether a package is not part of the linter.
func IsOutside(path string) bool {
	for _, p := range Outside {
		if under(path, p) {
			return true
		}
	}
	return false
}

// under reports whether path is prefix or below it; a prefix ending in /
// holds only what is below it.
func under(path, prefix string) bool {
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(path, prefix)
	}
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}
