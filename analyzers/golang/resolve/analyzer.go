package resolve

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// Analyzer computes a package's Scope once, for every analyzer of a suite
// that resolves names there. Collecting the scope walks every object the
// package uses, which costs as much as a rule's whole check on a small
// package; each rule, the live analyzer and the lock-taking analysis
// computing their own made that walk five or more times per package.
var Analyzer = &analysis.Analyzer{
	Name:       "resolve",
	Doc:        "resolve: the packages an invariant's names resolve in, seen from one package\n\nThe analyzer reports nothing; the rule analyzers read its result.",
	URL:        "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/golang/resolve",
	Run:        func(pass *analysis.Pass) (any, error) { return NewScope(pass.Pkg, pass.TypesInfo), nil },
	ResultType: reflect.TypeFor[*Scope](),
}

// Of returns the scope the Analyzer computed for a pass that requires it.
func Of(pass *analysis.Pass) *Scope { return pass.ResultOf[Analyzer].(*Scope) }
