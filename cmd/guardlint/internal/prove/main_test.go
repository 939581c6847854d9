package prove

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// noEnv is an environment without $GUARDLINT_CONFIG.
func noEnv(string) string { return "" }

func TestMainExitCodes(t *testing.T) {
	for _, tc := range []struct {
		dir, config string
		want        int
		out         string
	}{
		{mod, "proved.yaml", exitProved, "3 invariants"},
		{mod, "weak.yaml", exitUnproved, "survived"},
		{mod, "vacuous.yaml", exitUnproved, "vacuous"},
		{mod, "missing.yaml", exitConfig, ""},
		{filepath.Join("testdata", "typeerr"), "guardlint.yaml", exitFailure, ""},
	} {
		var stdout, stderr bytes.Buffer
		got := Main([]string{"-C", tc.dir, "-config", tc.config, "./..."}, &stdout, &stderr, noEnv)
		assert.Equal(t, tc.want, got, "%s %s: %s%s", tc.dir, tc.config, stdout.String(), stderr.String())
		assert.Contains(t, stdout.String(), tc.out)
	}
}

func TestMainShow(t *testing.T) {
	var stdout, stderr bytes.Buffer
	got := Main([]string{"-C", mod, "-config", "proved.yaml", "-show", "encoder-retained.CommandBuffer.getOrCreateEncoder.block-comment"}, &stdout, &stderr, noEnv)
	assert.Equal(t, exitProved, got, stderr.String())
	assert.Contains(t, stdout.String(), "/* enc.retain() */")
	assert.True(t, strings.HasPrefix(stdout.String(), "encoder-retained.CommandBuffer.getOrCreateEncoder.block-comment: killed"), stdout.String())
}
