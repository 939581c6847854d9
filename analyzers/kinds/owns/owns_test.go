package owns_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/kinds/owns"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestOwns(t *testing.T) {
	a := owns.New(guardconf.New(registry.Files("testdata/owns.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "cb", "cbuser", "cbgen")
}

func TestStaleInvariants(t *testing.T) {
	a := owns.New(guardconf.New(registry.Files("testdata/stale.yaml")))
	got := ruletest.Run(t, analysistest.TestData(), a, "cbstale")
	assert.Equal(t, []string{
		"stale.yaml:4: invariant field-renamed: cannot verify: field (cbstale.CommandBuffer).current does not resolve in package cbstale: CommandBuffer has no method or field current (why: w)",
		"stale.yaml:5: invariant writer-renamed: cannot verify: writer (*cbstale.CommandBuffer).clear does not resolve: CommandBuffer has no method or field clear (why: w)",
		"stale.yaml:6: invariant not-a-field: cannot verify: field (cbstale.CommandBuffer).reset does not resolve in package cbstale: (cbstale.CommandBuffer).reset is not a variable or field (why: w)",
	}, got)
}
