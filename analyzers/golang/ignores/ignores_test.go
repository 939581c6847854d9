package ignores_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/golang/ignores"
	"github.com/guardlint/guardlint/analyzers/kinds/call"
	"github.com/guardlint/guardlint/analyzers/registry"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestIgnores(t *testing.T) {
	conf := guardconf.New(registry.Files("testdata/ignores.yaml"))
	// The call findings of suppressed and suppressedAbove are suppressed,
	// which marks those comments used: were they not, this run would
	// report them as suppressing nothing. The wrong and unused ones are
	// reported.
	analysistest.Run(t, analysistest.TestData(), ignores.New(conf, call.New(conf)), "sup")
}

// TestFileAndBlockForms checks the file-level and block forms: what they
// cover, and the ones that are unmatched, lack a reason or suppress
// nothing. The block of a disabled invariant is not reported.
func TestFileAndBlockForms(t *testing.T) {
	conf := guardconf.New(registry.Files("testdata/blocks.yaml"))
	analysistest.Run(t, analysistest.TestData(), ignores.New(conf, call.New(conf)), "blocks")
}
