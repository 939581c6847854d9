package registry_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
)

// proposed lists proposals as kind, target and where they come from.
func proposed(ps []core.Proposal) []string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p.Kind)+" "+p.Target()+" "+p.At())
	}
	return out
}

// TestSuggestKeepsTheKindsLanguages: hold and requires are checked for Go
// and for the tree-sitter languages alike, so a lock a C++ or a Go fix
// added with the functions called under it proposes both; a language no
// kind is checked for gets no proposal.
func TestSuggestKeepsTheKindsLanguages(t *testing.T) {
	lock := func(lang invariants.Lang) *core.Change {
		o := core.Origin{Lang: lang, Function: "Registry::add", File: "registry.cc", Line: 3}
		return &core.Change{Locks: []core.AddedLock{{Origin: o, Lock: "mu", Held: []string{"Registry::insert"}}}}
	}
	both := []string{"hold Registry::add registry.cc:3", "requires Registry::insert registry.cc:3"}
	assert.Equal(t, both, proposed(registry.Suggest(lock(invariants.LangCPP))))
	assert.Equal(t, both, proposed(registry.Suggest(lock(invariants.LangGo))))
	assert.Empty(t, proposed(registry.Suggest(lock(invariants.Lang("fortran")))))
}

// TestSuggestOrdersByTheFixsLines: proposals come in the order of the
// lines they come from, whatever kind proposes them, the removed lines
// after the added ones.
func TestSuggestOrdersByTheFixsLines(t *testing.T) {
	at := func(line int, removed bool) core.Origin {
		return core.Origin{Lang: invariants.LangGo, Package: ".", Function: "F", File: "f.go", Line: line, Removed: removed}
	}
	c := &core.Change{
		Calls:        []core.AddedCall{{Origin: at(9, false), Callee: "late"}},
		Locks:        []core.AddedLock{{Origin: at(4, false), Lock: "mu"}},
		RemovedCalls: []core.RemovedCall{{Origin: at(1, true), Callee: "gone"}},
		Checks:       []core.AddedCheck{{Origin: at(6, false), First: "check", Then: "read"}},
	}
	assert.Equal(t, []string{"hold F f.go:4", "order F f.go:6", "call F f.go:9", "forbid F f.go:1 (removed)"}, proposed(registry.Suggest(c)))
}
