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
	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
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

// suggestedKinds are the kinds `guardlint suggest` proposes from a fix
// (core.Kind.Suggest): a kind that can be read off what a fix adds or
// removes. excludes is, from a call a fix takes out from under a lock;
// the other lock kinds that compare several functions (lock_order,
// never_acquires) are not: a fix shows one side of them.
var suggestedKinds = []invariants.Kind{"call", "hold", "owns", "forbid", "order", "requires", "guarded_by", "excludes"}

// TestEveryKindIsComplete walks every registered kind and checks that it
// has every facet its languages need (for Go a Go analyzer and mutant
// generators, for C, C++, CUDA, Rust and Metal a tree-sitter check and
// native mutant generators), a schema entry, a section in
// docs/invariants.md and, for the kinds suggest proposes, a Suggest that
// proposes it for each of its languages: what adding a kind must not
// forget.
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
			if !slices.Contains(suggestedKinds, k.Name) {
				assert.Nil(t, k.Suggest, "proposed by suggest: list it in suggestedKinds")
			} else if assert.NotNil(t, k.Suggest, "suggest does not propose it (core.Kind.Suggest)") {
				for _, lang := range k.Langs {
					proposed := 0
					for _, p := range k.Suggest(fixFacts(lang)) {
						require.Equal(t, k.Name, p.Kind)
						inv := decodeProposal(t, &p)
						assert.Equal(t, k.Name, inv.Rule.Kind(), "proposal %s", p.YAML("p", "w", "r"))
						proposed++
					}
					assert.Positive(t, proposed, "nothing proposed for lang %s from a fix with one fact of each sort", lang)
				}
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
					_, ok := inv.Rule.(native.Rule)
					assert.True(t, ok, "checked for %s without native mutant generators", lang)
				} else {
					_, ok := inv.Rule.(mutate.Rule)
					assert.True(t, ok, "checked for Go without mutant generators")
				}
			}
		})
	}
}

// fixFacts is a fix with one fact of each sort in a language, named as
// the language's invariants name things.
func fixFacts(lang invariants.Lang) *core.Change {
	o := core.Origin{Lang: lang, Function: "p.F", File: "f.go", Line: 1}
	callee, lock, field, writer, helper := "p.g", "p.mu", "(p.T).f", "(*p.T).set", "p.h"
	if lang.TreeSitter() {
		o.Files, o.Function, o.File = "a.cc", "T::run", "a.cc"
		callee, lock, field, writer, helper = "enc->retain", "mu", "T::f", "T::set", "T::h"
	}
	removed := o
	removed.Removed = true
	return &core.Change{
		Calls:         []core.AddedCall{{Origin: o, Callee: callee}},
		Locks:         []core.AddedLock{{Origin: o, Lock: lock, Mode: invariants.Shared, Held: []string{helper}}},
		Checks:        []core.AddedCheck{{Origin: o, First: callee, Then: helper}},
		RemovedCalls:  []core.RemovedCall{{Origin: removed, Callee: callee}},
		RemovedWrites: []core.RemovedWrite{{Origin: removed, Field: field, Writers: []string{writer}}},
		Guarded:       []core.GuardedAccess{{Origin: o, Field: field, Lock: lock, Mode: invariants.Exclusive, Write: true}},
		Released:      []core.ReleasedCall{{Origin: o, Callee: helper, Lock: lock}},
	}
}

// decodeProposal loads a proposal as suggest prints it.
func decodeProposal(t *testing.T, p *core.Proposal) *invariants.Invariant {
	t.Helper()
	src := "version: 1\ninvariants:\n" + p.YAML("proposed", "w", "0123abc")
	f, _, err := invariants.Parse(registry.Specs(), "suggested.yaml", []byte(src), "")
	require.NoError(t, err, src)
	require.Len(t, f.Invariants, 1)
	return f.Invariants[0]
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
