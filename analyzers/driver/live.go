package driver

import (
	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Live runs the Go front end's live-code analysis (the analyzers' own,
// with the runners set declares) over packages loaded with syntax and
// types, and returns each package's result by its ID. The prover mutates,
// and suggest reads, the code as the checks see it: locks, calls and
// liveness from the same packages, never a reading of their own.
func Live(set *invariants.Set, pkgs []*packages.Package) (map[string]*live.Info, error) {
	lv := live.For(guardconf.New(guardconf.Static(set)))
	graph, err := checker.Analyze([]*analysis.Analyzer{lv}, Graph(pkgs), nil)
	if err != nil {
		return nil, err
	}
	out := map[string]*live.Info{}
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			return nil, act.Err
		}
		out[act.Package.ID] = act.Result.(*live.Info)
	}
	return out, nil
}
