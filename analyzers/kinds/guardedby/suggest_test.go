package guardedby_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/fix"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// racyPeers is the code before the fix: Peer reads the map without the
// lock that SetPeer writes it under.
const racyPeers = `package raft

import "sync"

type Raft struct {
	mu    sync.RWMutex
	peers map[string]int
	other sync.Mutex
}

func (r *Raft) SetPeer(id string, p int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.peers[id] = p
}

func (r *Raft) Peer(id string) int {
	return r.peers[id]
}
`

// The fix: Peer reads it under the read lock.
var fixedPeers = strings.Replace(racyPeers, "func (r *Raft) Peer(id string) int {\n", "func (r *Raft) Peer(id string) int {\n\tr.mu.RLock()\n\tdefer r.mu.RUnlock()\n", 1)

// TestSuggestGuardedBy runs suggest on a fix commit of a scratch
// repository that puts a map read under the read lock: guarded_by is
// proposed for the field with the lock, proven against the revert; the
// invariants it prints pass on the fix and flag the racy code.
func TestSuggestGuardedBy(t *testing.T) {
	require.NotEqual(t, racyPeers, fixedPeers)
	dir := ruletest.GitRepo(t,
		map[string]string{"go.mod": "module example.com/m\n\ngo 1.21\n", "raft/raft.go": racyPeers},
		map[string]string{"raft/raft.go": fixedPeers})
	s, err := fix.Suggest("HEAD", dir, fix.Options{Dir: dir})
	require.NoError(t, err)
	var got []string
	for _, c := range s.Proven {
		got = append(got, string(c.Kind)+" "+c.Target())
	}
	assert.Contains(t, got, "guarded_by (*Raft).peers", "left out: %v", s.Rejected)

	var out bytes.Buffer
	s.Print(&out)
	printed := out.String()
	assert.Contains(t, printed, "guarded_by:")
	assert.Contains(t, printed, "lock: mu")
	f, _, err := invariants.Parse(registry.Specs(), filepath.Join(dir, "guardlint.yaml"), out.Bytes(), "example.com/m")
	require.NoError(t, err, printed)
	var set invariants.Set
	for _, inv := range f.Invariants {
		if inv.Kind() == "guarded_by" {
			set.Invariants = append(set.Invariants, inv)
		}
	}
	require.Len(t, set.Invariants, 1, printed)
	set.Files = []*invariants.File{f}

	// On the fix: clean.
	res, err := driver.Run(&set, driver.Options{Dir: dir, Patterns: []string{"./..."}})
	require.NoError(t, err)
	assert.Empty(t, res.Findings)

	// On the racy code: Peer's read is flagged.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "raft", "raft.go"), []byte(racyPeers), 0o644))
	res, err = driver.Run(&set, driver.Options{Dir: dir, Patterns: []string{"./..."}})
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	assert.Contains(t, res.Findings[0].Message, "exported method (*raft.Raft).Peer reads (*raft.Raft).peers without r.mu held")
}

// A lock of another struct, or a write under a read lock, proposes
// nothing.
func TestSuggestGuardedByNothing(t *testing.T) {
	wrong := strings.Replace(fixedPeers, "\tr.mu.RLock()\n\tdefer r.mu.RUnlock()\n\treturn r.peers[id]", "\tr.mu.RLock()\n\tdefer r.mu.RUnlock()\n\tr.peers[id]++\n\treturn r.peers[id]", 1)
	require.NotEqual(t, fixedPeers, wrong)
	dir := ruletest.GitRepo(t,
		map[string]string{"go.mod": "module example.com/m\n\ngo 1.21\n", "raft/raft.go": racyPeers},
		map[string]string{"raft/raft.go": wrong})
	s, err := fix.Suggest("HEAD", dir, fix.Options{Dir: dir})
	require.NoError(t, err)
	for _, c := range s.Proven {
		assert.NotEqual(t, "guarded_by", string(c.Kind), c.Target())
	}
	for _, r := range s.Rejected {
		assert.NotContains(t, r, "(guarded_by ")
	}
}
