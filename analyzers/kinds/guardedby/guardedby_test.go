package guardedby_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/kinds/guardedby"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestGuardedBy(t *testing.T) {
	a := guardedby.New(guardconf.New(registry.Files("testdata/guardedby.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "raft")
}

func TestImporters(t *testing.T) {
	a := guardedby.New(guardconf.New(registry.Files("testdata/guardedby.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "raftuser")
}

func TestInline(t *testing.T) {
	a := guardedby.New(guardconf.New(registry.Files("testdata/stale.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "inl", "inluser")
}

func TestStaleInvariants(t *testing.T) {
	a := guardedby.New(guardconf.New(registry.Files("testdata/stale.yaml")))
	got := ruletest.Run(t, analysistest.TestData(), a, "gbstale")
	assert.Equal(t, []string{
		"stale.yaml:3: invariant field-renamed: cannot verify: field (*gbstale.T).gone does not resolve in package gbstale: T has no method or field gone (why: w)",
		"stale.yaml:4: invariant lock-renamed: cannot verify: lock mx of (*gbstale.T).f: neither a field of T nor a package variable: mx is not declared in package gbstale; closest: T (why: w)",
		"stale.yaml:5: invariant not-a-mutex: cannot verify: lock n of (*gbstale.T).f: field n has type int, not sync.Mutex or sync.RWMutex (why: w)",
		"stale.yaml:6: invariant init-renamed: cannot verify: init function gbstale.gone does not resolve: gone is not declared in package gbstale (why: w)",
	}, got)
}
