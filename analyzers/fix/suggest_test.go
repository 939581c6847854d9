package fix

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What suggest proposes for the three fixes of the history, grouped by
// hunk and ranked, kept so that a change in what it proposes is seen. Every one of them was checked to
// hold now and to fire on the revert; TestSuggestOnFixes checks the
// printed file again, independently of suggest's own check.
var suggested = map[string][]string{
	// runtime/stream.go is one hunk that adds the whole file: at most two
	// per function and six per hunk, locks before calls (suggest_rank.go).
	// Device.closeLocked's two come last: its lines have moved since the
	// fix (the Device gained fields), so suggest ranks them after those of
	// a hunk it can place (suggest_rank.go).
	"ccdf0d3": {
		"encoderRegistry.takeAll-holds-encoderRegistry.mu",
		"Stream.Eval-holds-evalMu",
		"Stream.Close-holds-evalMu",
		"Stream.evalLocked-requires-evalMu",
		"Stream.closeLocked-requires-evalMu",
		"Device.NewStream-calls-Device.NewCommandBuffer",
		"Device.NewStream-calls-encoderRegistry.register",
		"Device.closeLocked-calls-encoderRegistry.takeAll",
		"Device.closeLocked-forbids-encoderRegistry.lookup",
	},
	"e3d990f": {
		"cpuLane.push-holds-cpuLane.mu",
		"cpuLane.closed-guarded-mu", // push reads closed under the lock it added
		"cpuBackend.enqueue-calls-cpuLane.push",
		"cpuBackend.destroyLane-calls-cpuLane.stop",
		"cpuBackend.close-calls-cpuLane.stop",
	},
	// The calls of Device.check are implied by the orders that check it
	// first; the reset is what invariants/fixes.yaml keeps as
	// wait-on-closed-device-resets.
	"86fcbce": {
		"CommandBuffer.endActiveEncoder-orders-Device.check",
		"CommandBuffer.Wait-orders-Device.check",
		"CommandBuffer.Wait-calls-CommandBuffer.reset",
	},
}

func TestSuggestOnFixes(t *testing.T) {
	root, _ := repository(t, "ccdf0d3", "e3d990f", "86fcbce")
	for _, fx := range fixes {
		t.Run(fx.rev, func(t *testing.T) {
			s, err := Suggest(fx.rev, root, Options{Dir: root, Paths: fx.paths})
			require.NoError(t, err)
			var ids []string
			for _, c := range s.Proven {
				ids = append(ids, c.id)
			}
			assert.Equal(t, suggested[fx.rev], ids, "rejected: %v", s.Rejected)

			requirePrintedProves(t, s, root, fx.paths)
		})
	}
}

// requirePrintedProves checks the file a suggestion prints independently
// of suggest's own check: it loads, every invariant in it has the
// commit's subject as its why and the commit as ref, holds on the work tree, and
// fires on the revert of the suggestion's change.
func requirePrintedProves(t *testing.T, s *Suggestion, root string, paths []string) {
	t.Helper()
	var out bytes.Buffer
	s.Print(&out)
	module, err := moduleOf(root)
	require.NoError(t, err)
	f, _, err := invariants.Parse(registry.Specs(), filepath.Join(s.Dir, "suggested.yaml"), out.Bytes(), module)
	require.NoError(t, err, out.String())
	require.Len(t, f.Invariants, len(s.Proven))
	for _, inv := range f.Invariants {
		assert.Equal(t, s.Change.Commit, inv.Ref)
		assert.Equal(t, whyOf(s.Change), inv.Why)
	}
	set := func() *invariants.Set { return &invariants.Set{Files: []*invariants.File{f}, Invariants: f.Invariants} }
	now, err := driver.Run(set(), driver.Options{Dir: root})
	require.NoError(t, err)
	assert.Empty(t, findingLines(now.Findings, root), "the suggestions hold now")
	change, err := Read(root, s.Change.Commit, paths)
	require.NoError(t, err)
	view, _, err := (&reverter{change: change, kept: func(string) bool { return false }}).revert()
	require.NoError(t, err)
	reverted, err := driver.Run(set(), driver.Options{Dir: root, Files: view})
	require.NoError(t, err)
	for _, inv := range f.Invariants {
		assert.True(t, slices.ContainsFunc(reverted.Findings, func(f core.Finding) bool { return f.ID == inv.ID }), "%s fires on the revert", inv.ID)
	}
}
