package invariants_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(invariants.Schema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("schema.json", doc))
	s, err := c.Compile("schema.json")
	require.NoError(t, err)
	return s
}

// yamlToJSON converts a YAML document to the JSON value the schema sees.
func yamlToJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	require.NoError(t, yaml.Unmarshal(data, &v))
	b, err := json.Marshal(v)
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	require.NoError(t, err)
	return inst
}

// exampleFiles lists every invariants file the project ships: the
// examples here, and the repository's own invariants beside this package.
func exampleFiles(t *testing.T) []string {
	var files []string
	for _, pattern := range []string{"testdata/examples/*.yaml", "*.yaml", "../guardlint.yaml", "../docs/examples/*.yaml", "../bench/*/guardlint.yaml", "../bench/*/*/guardlint.yaml", "../analyzers/*/testdata/*.yaml", "../analyzers/*/*/testdata/*.yaml", "../analyzers/golang/resolve/testdata/dotted/*.yaml"} {
		m, err := filepath.Glob(pattern)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	return files
}

func TestSchemaAcceptsEveryExample(t *testing.T) {
	s := compileSchema(t)
	for _, f := range exampleFiles(t) {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			_, _, err = invariants.Parse(registry.Specs(), f, data, "example.com/m")
			require.NoError(t, err, "the loader must accept every shipped example")
			assert.NoError(t, s.Validate(yamlToJSON(t, data)))
		})
	}
}

// TestSchemaAgreesWithLoader checks that input the loader rejects for its
// shape is rejected by the schema too, so editors flag what guardlint will.
func TestSchemaAgreesWithLoader(t *testing.T) {
	s := compileSchema(t)
	for name, src := range map[string]string{
		"unknown file key":        "version: 1\nrules: []\ninvariants: [{id: a, why: w, function: p.F, call: {to: p.G}}]\n",
		"unknown invariant key":   "version: 1\ninvariants: [{id: a, why: w, function: p.F, call: {to: p.G}, colour: red}]\n",
		"unknown rule key":        "version: 1\ninvariants: [{id: a, why: w, function: p.F, call: {to: p.G, everypath: true}}]\n",
		"wrong type":              "version: 1\ninvariants: [{id: a, why: w, function: [p.F], call: {to: p.G}}]\n",
		"no rule":                 "version: 1\ninvariants: [{id: a, why: w, function: p.F}]\n",
		"two rules":               "version: 1\ninvariants: [{id: a, why: w, function: p.F, call: {to: p.G}, forbid: {call: p.H}}]\n",
		"missing why":             "version: 1\ninvariants: [{id: a, function: p.F, call: {to: p.G}}]\n",
		"bad mode":                "version: 1\ninvariants: [{id: a, why: w, function: p.F, hold: {lock: p.mu, mode: read}}]\n",
		"unsupported lang":        "version: 1\ninvariants: [{id: a, why: w, lang: java, function: p.F, call: {to: p.G}}]\n",
		"rust without files":      "version: 1\ninvariants: [{id: a, why: w, lang: rust, function: T::f, call: {to: g}}]\n",
		"go name in cpp":          "version: 1\ninvariants: [{id: a, why: w, lang: cpp, files: a.cc, function: (*p.T).m, call: {to: g}}]\n",
		"files on go":             "version: 1\ninvariants: [{id: a, why: w, files: a.go, function: p.F, call: {to: p.G}}]\n",
		"package on rust":         "version: 1\ninvariants: [{id: a, why: w, lang: rust, package: ./p, files: a.rs, function: f, call: {to: g}}]\n",
		"unscoped field in c":     "version: 1\ninvariants: [{id: a, why: w, lang: c, files: a.c, field: f, owns: {writers: [g]}}]\n",
		"hold via on c":           "version: 1\ninvariants: [{id: a, why: w, lang: c, files: a.c, function: f, hold: {lock: m, via: [h]}}]\n",
		"list define in cpp":      "version: 1\ninvariants: [{id: a, why: w, lang: cpp, files: a.cc, defines: {X: [1]}, function: f, call: {to: g}}]\n",
		"owns with function":      "version: 1\ninvariants: [{id: a, why: w, function: p.F, owns: {writers: [p.G]}}]\n",
		"lock_order with target":  "version: 1\ninvariants: [{id: a, why: w, function: p.F, lock_order: [p.a, p.b]}]\n",
		"lock_order bad option":   "version: 1\ninvariants: [{id: a, why: w, lock_order: {locks: [p.a, p.b], unlisted: first}}]\n",
		"never_acquires for c":    "version: 1\ninvariants: [{id: a, why: w, lang: c, files: a.c, function: f, never_acquires: {lock: m}}]\n",
		"function and functions":  "version: 1\ninvariants: [{id: a, why: w, function: p.F, functions: [p.G], call: {to: p.G}}]\n",
		"name with spaces":        "version: 1\ninvariants: [{id: a, why: w, function: p.F G, call: {to: p.G}}]\n",
		"type params, no member":  "version: 1\ninvariants: [{id: a, why: w, function: 'p.Map[K]', call: {to: p.G}}]\n",
		"bad type param":          "version: 1\ninvariants: [{id: a, why: w, function: '(*p.Map[K, 1]).Get', call: {to: p.G}}]\n",
		"requires bad mode":       "version: 1\ninvariants: [{id: a, why: w, function: p.F, requires: {lock: p.mu, mode: write}}]\n",
		"requires without lock":   "version: 1\ninvariants: [{id: a, why: w, function: p.F, requires: {acquire: [p.L]}}]\n",
		"requires on a field":     "version: 1\ninvariants: [{id: a, why: w, field: p.T.f, requires: {lock: p.mu}}]\n",
		"requires release for c":  "version: 1\ninvariants: [{id: a, why: w, lang: c, files: a.c, function: f, requires: {lock: m, release: [u]}}]\n",
		"requires within for go":  "version: 1\ninvariants: [{id: a, why: w, function: p.F, requires: {lock: p.mu, within: [p.G]}}]\n",
		"alternatives for go":     "version: 1\ninvariants: [{id: a, why: w, function: p.F, call: {to: [p.G, p.H]}}]\n",
		"erase on rust":           "version: 1\ninvariants: [{id: a, why: w, lang: rust, files: a.rs, erase: [X], function: f, call: {to: g}}]\n",
		"erase on go":             "version: 1\ninvariants: [{id: a, why: w, erase: [X], function: p.F, call: {to: p.G}}]\n",
		"go runner in cpp":        "version: 1\ninvariants: [{id: a, why: w, lang: cpp, files: a.cc, runs: [p.F], function: f, call: {to: g}}]\n",
		"wrong version":           "version: 2\ninvariants: [{id: a, why: w, function: p.F, call: {to: p.G}}]\n",
		"guards on go":            "version: 1\ninvariants: [{id: a, why: w, function: p.F, call: {to: p.G}, guards: [{type: G}]}]\n",
		"unknown guard key":       "version: 1\ninvariants: [{id: a, why: w, lang: cpp, files: a.cc, function: f, hold: {lock: m}, guards: [{type: G, mod: shared}]}]\n",
		"lock call with receiver": "version: 1\ninvariants: [{id: a, why: w, lang: cpp, files: a.cc, function: f, hold: {lock: m}, lock_calls: {exclusive: [mu.Lock]}}]\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := invariants.Parse(registry.Specs(), "inv.yaml", []byte(src), "")
			require.Error(t, err, "loader")
			assert.Error(t, s.Validate(yamlToJSON(t, []byte(src))), "schema")
		})
	}
}
