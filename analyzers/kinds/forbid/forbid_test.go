package forbid_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/kinds/forbid"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/registry/ruletest"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestForbid(t *testing.T) {
	a := forbid.New(guardconf.New(registry.Files("testdata/forbid.yaml")))
	got := ruletest.Run(t, analysistest.TestData(), a, "fb")
	assert.Equal(t, []string{
		"forbid.yaml:9: invariant stale-call: cannot verify: forbidden call (*fb.Encoder).free does not resolve from package fb: Encoder has no method or field free (why: w)",
	}, got)
}
