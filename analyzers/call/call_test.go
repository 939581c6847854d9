package call_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/call"
	"github.com/guardlint/guardlint/analyzers/guardconf"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestCall(t *testing.T) {
	a := call.New(guardconf.New(guardconf.Files("testdata/call.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "enc")
}
