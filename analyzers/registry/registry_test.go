package registry_test

import (
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
)

func TestAnalyzersAreValid(t *testing.T) {
	as := registry.Analyzers(guardconf.Static(&invariants.Set{}))
	require.NoError(t, analysis.Validate(as))
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
		summary, _, _ := strings.Cut(a.Doc, "\n")
		assert.NotEmpty(t, summary, a.Name)
		assert.NotContains(t, summary, a.Name+":", "the summary drops the name prefix")
		assert.False(t, strings.HasSuffix(summary, "."), "%s: summary ends with a period", a.Name)
		assert.LessOrEqual(t, len(summary), 60, a.Name)
		// The URL is the package's page: its directory is the kind's key
		// without underscores (lock_order: analyzers/kinds/lockorder).
		assert.True(t, strings.HasPrefix(a.URL, "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/"), a.URL)
		assert.True(t, strings.HasSuffix(a.URL, "/"+strings.ReplaceAll(a.Name, "_", "")), a.URL)
	}
	assert.Equal(t, []string{"call", "hold", "owns", "guarded_by", "forbid", "order", "requires", "excludes", "lock_order", "never_acquires", "ignores"}, names)
}

// TestAnalyzersShareNothing checks that two sets of analyzers built with different
// invariants are independent values, as drivers such as golangci-lint and
// nogo need.
func TestAnalyzersShareNothing(t *testing.T) {
	a := registry.Analyzers(guardconf.Static(&invariants.Set{}))
	b := registry.Analyzers(guardconf.Static(&invariants.Set{}))
	for i := range a {
		assert.NotSame(t, a[i], b[i])
		assert.NotSame(t, a[i].Requires[0], b[i].Requires[0], "%s shares its guardconf analyzer", a[i].Name)
	}
}
