package guardedby_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/kinds/guardedby"
	"github.com/guardlint/guardlint/analyzers/registry"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestGuardedBy(t *testing.T) {
	a := guardedby.New(guardconf.New(registry.Files("testdata/guardedby.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "raft")
}
