package registry_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/mutate"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite invariants/schema.json from the kinds")

const schemaFile = "../../invariants/schema.json"

// TestSchemaIsCurrent checks that invariants/schema.json is what the
// kinds' fragments make (go test ./analyzers/registry -run Schema -update
// rewrites it).
func TestSchemaIsCurrent(t *testing.T) {
	want, err := registry.Schema()
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile(schemaFile, want, 0o644))
	}
	got, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "invariants/schema.json is stale: run go test ./analyzers/registry -run Schema -update")
}

// TestEveryKindIsComplete walks every registered kind and checks that it
// has every facet its languages need, a schema entry and a section in
// docs/invariants.md: what adding a kind must not forget.
func TestEveryKindIsComplete(t *testing.T) {
	schema, err := registry.Schema()
	require.NoError(t, err)
	var tree struct {
		Defs struct {
			Invariant struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"invariant"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(schema, &tree))
	doc, err := os.ReadFile("../../docs/invariants.md")
	require.NoError(t, err)
	seen := map[invariants.Kind]bool{}
	for _, k := range registry.Kinds {
		t.Run(string(k.Name), func(t *testing.T) {
			assert.False(t, seen[k.Name], "registered twice")
			seen[k.Name] = true
			require.NotNil(t, k.Decode)
			assert.NotEmpty(t, k.Keys)
			require.NotEmpty(t, k.Langs)
			assert.Contains(t, tree.Defs.Invariant.Properties, string(k.Name), "no schema entry")
			assert.Regexp(t, regexp.MustCompile(`(?m)^### `+regexp.QuoteMeta(string(k.Name))+`$`), string(doc), "no section in docs/invariants.md")
			if slices.Contains(k.Langs, invariants.LangGo) {
				assert.NotNil(t, k.Analyzer, "checked for Go without a Go analyzer")
			}
			for _, lang := range k.Langs {
				family := lang
				if lang.TreeSitter() {
					family = invariants.LangCPP
				}
				src, ok := k.Examples[family]
				require.True(t, ok, "no example for lang %s", family)
				inv := decode(t, lang, src)
				rule, ok := inv.Rule.(core.Rule)
				require.True(t, ok, "%T does not implement core.Rule", inv.Rule)
				assert.NotEqual(t, "invariant "+inv.ID, rule.Summary(inv), "no one-line description")
				assert.Equal(t, k.Name, rule.Kind())
				if lang.TreeSitter() {
					_, fn := inv.Rule.(treesitter.FunctionRule)
					_, field := inv.Rule.(treesitter.FieldRule)
					_, files := inv.Rule.(treesitter.FilesRule)
					assert.True(t, fn || field || files, "checked for %s without a tree-sitter facet", lang)
				} else {
					_, ok := inv.Rule.(mutate.Rule)
					assert.True(t, ok, "checked for Go without mutant generators")
				}
			}
		})
	}
}

// decode loads the example invariant of a kind for a language: the
// example's target and rule, with an id, a why and the language's keys.
func decode(t *testing.T, lang invariants.Lang, example string) *invariants.Invariant {
	t.Helper()
	keys := "id: example, why: w, lang: " + string(lang)
	if lang.TreeSitter() {
		keys += ", files: a.cc"
	}
	src := fmt.Sprintf("version: 1\ninvariants:\n  - {%s, %s}\n", keys, strings.TrimSuffix(strings.TrimPrefix(example, "{"), "}"))
	f, _, err := invariants.Parse(registry.Specs(), "example.yaml", []byte(src), "")
	require.NoError(t, err, src)
	require.Len(t, f.Invariants, 1)
	return f.Invariants[0]
}
