package cli

import (
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/stretchr/testify/assert"
)

// TestProveSubcommand checks that `guardlint prove` reaches the prover and
// finds its invariants the way the command does: -config, then
// $GUARDLINT_CONFIG, then guardlint.yaml at the module root.
func TestProveSubcommand(t *testing.T) {
	mod := filepath.Join("..", "..", "..", "..", "analyzers", "prove", "testdata", "mod")
	code, out, errOut := run(t, noEnv, "prove", "-C", mod, "-config", "proved.yaml", "./...")
	assert.Equal(t, ExitClean, code, errOut)
	assert.Contains(t, out, "3 invariants")

	env := func(k string) string {
		if k == driver.EnvConfig {
			return "weak.yaml"
		}
		return ""
	}
	code, out, errOut = run(t, env, "prove", "-C", mod, "./...")
	assert.Equal(t, ExitFindings, code, errOut)
	assert.Contains(t, out, "load-first-checks-bounds")

	code, out, errOut = run(t, noEnv, "prove", "-C", mod, "./...")
	assert.Equal(t, ExitClean, code, errOut)
	assert.Contains(t, out, "13 invariants", "guardlint.yaml at the module root")

	code, _, _ = run(t, noEnv, "prove", "-no-such-flag")
	assert.Equal(t, ExitConfig, code)
}
