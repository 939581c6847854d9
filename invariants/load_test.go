package invariants_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/kinds/call"
	"github.com/guardlint/guardlint/analyzers/kinds/hold"
	"github.com/guardlint/guardlint/analyzers/kinds/order"
	"github.com/guardlint/guardlint/analyzers/kinds/owns"
	"github.com/guardlint/guardlint/analyzers/kinds/requires"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadExamples(t *testing.T) {
	set, err := registry.Load("testdata/examples/all-kinds.yaml")
	require.NoError(t, err)
	require.Len(t, set.Invariants, 7)

	byID := map[string]*invariants.Invariant{}
	for _, inv := range set.Invariants {
		byID[inv.ID] = inv
	}
	retain := byID["encoder-retained"]
	require.NotNil(t, retain)
	assert.Equal(t, call.Name, retain.Kind())
	assert.Equal(t, "(*example.com/m/runtime.CommandBuffer).getOrCreateEncoder", retain.Functions[0].String())
	assert.Equal(t, "(*example.com/m/runtime.Encoder).retain", retain.Rule.(*call.Rule).To.String())
	assert.Equal(t, "https://example.com/issues/12", retain.Ref)
	assert.Equal(t, invariants.Pos{File: "testdata/examples/all-kinds.yaml", Line: 5, Col: 5}, retain.Pos)
	assert.Equal(t, 10, retain.Rule.(*call.Rule).To.Pos.Line)

	assert.True(t, byID["encoder-released-on-every-path"].Rule.(*call.Rule).EveryPath)

	eval := byID["eval-holds-evalMu"]
	assert.Equal(t, invariants.Exclusive, eval.Rule.(*hold.Rule).Mode)
	assert.Equal(t, "example.com/m/runtime.evalMu", eval.Rule.(*hold.Rule).Lock.String())
	assert.Len(t, eval.Functions, 2)
	assert.Equal(t, "example.com/m/runtime.lockEval", eval.Rule.(*hold.Rule).Via[0].String())

	lookup := byID["registry-lookup-read-locked"]
	assert.Equal(t, invariants.Shared, lookup.Rule.(*hold.Rule).Mode)
	assert.Equal(t, "example.com/m/runtime", lookup.Rule.(*hold.Rule).Lock.Pkg)
	assert.Equal(t, "encoderRegistry", lookup.Rule.(*hold.Rule).Lock.Ident)
	assert.Equal(t, "mu", lookup.Rule.(*hold.Rule).Lock.Member)

	owned := byID["active-encoder-owned"]
	assert.Equal(t, "(example.com/m/runtime.CommandBuffer).active", owned.Field.String())
	assert.Len(t, owned.Rule.(*owns.Rule).Writers, 2)

	bounds := byID["bounds-before-read"]
	assert.Equal(t, "example.com/m/kernels.checkBounds", bounds.Rule.(*order.Rule).First.String())
	assert.Equal(t, "(*example.com/m/kernels.Table).read", bounds.Rule.(*order.Rule).Then.String())
}

func TestLoadRequires(t *testing.T) {
	src := `version: 1
package: example.com/m/runtime
invariants:
  - id: encode-under-evalMu
    why: w
    functions: [encodeNode, (*Device).commandBufferLocked]
    requires:
      lock: evalMu
      acquire: [lockEval]
      release: [unlockEval]
  - id: registry-read
    why: w
    function: (*encoderRegistry).lookupLocked
    requires: {lock: (encoderRegistry).mu, mode: shared}
`
	f, _, err := invariants.Parse(registry.Specs(), "inv.yaml", []byte(src), "")
	require.NoError(t, err)
	require.Len(t, f.Invariants, 2)
	enc := f.Invariants[0]
	assert.Equal(t, requires.Name, enc.Kind())
	assert.Equal(t, "example.com/m/runtime.encodeNode", enc.Functions[0].String())
	assert.Equal(t, "(*example.com/m/runtime.Device).commandBufferLocked", enc.Functions[1].String())
	assert.Equal(t, "example.com/m/runtime.evalMu", enc.Rule.(*requires.Rule).Lock.String())
	assert.Equal(t, invariants.Exclusive, enc.Rule.(*requires.Rule).Mode)
	assert.Equal(t, "example.com/m/runtime.lockEval", enc.Rule.(*requires.Rule).Acquire[0].String())
	assert.Equal(t, "example.com/m/runtime.unlockEval", enc.Rule.(*requires.Rule).Release[0].String())
	assert.Equal(t, []string{"example.com/m/runtime"}, enc.Packages())
	reg := f.Invariants[1]
	assert.Equal(t, invariants.Shared, reg.Rule.(*requires.Rule).Mode)
	assert.Equal(t, "mu", reg.Rule.(*requires.Rule).Lock.Member)
}

func TestLoadIncludeAndDirectory(t *testing.T) {
	set, err := registry.Load("testdata/examples/includes.yaml")
	require.NoError(t, err)
	assert.Len(t, set.Files, 2)
	assert.Len(t, set.Invariants, 7)

	// A directory reads every YAML file once, includes included.
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n")
	writeFile(t, dir, "a.yaml", "version: 1\ninclude: [b.yaml]\n")
	writeFile(t, dir, "b.yaml", "version: 1\ninvariants:\n  - {id: x, why: w, function: ./p.F, call: {to: ./p.G}}\n")
	set, err = registry.Load(dir)
	require.NoError(t, err)
	require.Len(t, set.Invariants, 1)
	assert.Equal(t, "example.com/m/p.F", set.Invariants[0].Functions[0].String())
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // "line:col: message" fragments, in order
	}{
		{"malformed yaml", "version: 1\ninvariants:\n  - id: [x\n", []string{":3:9: malformed YAML: sequence end token ']' not found"}},
		{"tab indentation", "version: 1\n\tinvariants: []\n", []string{":2:1: malformed YAML: found character '\t' that cannot start any token"}},
		{"unterminated string", "version: 1\ninvariants:\n  - id: a\n    why: \"x\n", []string{":4:10: malformed YAML: could not find end character of double-quoted text"}},
		{"bad indentation", "version: 1\ninvariants:\n  - id: a\n    why: w\n   function: p.F\n", []string{":5:4: malformed YAML:"}},
		{"another tool's YAML", "services:\n  web: {image: x}\n", []string{":1:1: inv.yaml is not an invariants file: none of its keys is one of an invariants file"}},
		{"empty", "  \n", []string{":1:1: empty invariants file"}},
		{"not a mapping", "- 1\n", []string{":1:1: inv.yaml is not an invariants file: it holds a list, and an invariants file is a YAML mapping with `version: 1` and `invariants:`"}},
		{"missing version", "invariants:\n  - {id: a, why: w, function: p.F, call: {to: p.G}}\n", []string{":1:1: missing `version`"}},
		{"wrong version", "version: 2\ninvariants: []\n", []string{":1:10: unsupported version 2", ":2:13: invariants must not be empty"}},
		{"version not a number", "version: one\ninvariants: []\n", []string{":1:10: version must be an integer, not the string \"one\""}},
		{"unknown file key", "version: 1\nrules: []\n", []string{":2:1: invariants file: unknown key \"rules\"; did you mean \"runs\"?"}},
		{"misspelt file key is one error", "version: 1\npackag: p\ninvariants:\n  - {id: a, why: w, function: F, call: {to: G}}\n  - {id: b, why: w, function: H, call: {to: G}}\n", []string{":2:1: invariants file: unknown key \"packag\"; did you mean \"package\"?"}},
		{"key in the wrong case", "version: 1\ninvariants:\n  - {id: a, why: w, Function: p.F, call: {to: p.G}}\n", []string{":3:21: invariant: unknown key \"Function\"; did you mean \"function\"?"}},
		{"unknown invariant key", "version: 1\ninvariants:\n  - id: a\n    why: w\n    function: p.F\n    call: {to: p.G}\n    colour: red\n", []string{":7:5: invariant: unknown key \"colour\""}},
		{"unknown severity", "version: 1\ninvariants:\n  - id: a\n    why: w\n    function: p.F\n    call: {to: p.G}\n    severity: high\n", []string{":7:15: invariant a: severity \"high\": want error, warning, note"}},
		{"enabled not a bool", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, call: {to: p.G}, enabled: no way}\n", []string{":3:62: enabled must be true or false"}},
		{"unknown rule key", "version: 1\ninvariants:\n  - id: a\n    why: w\n    function: p.F\n    call: {to: p.G, everypath: true}\n", []string{":6:21: invariant a: call: unknown key \"everypath\""}},
		{"wrong type", "version: 1\ninvariants:\n  - id: a\n    why: w\n    function: [p.F]\n    call: {to: p.G}\n", []string{":5:15: function must be a string, not a list"}},
		{"bool expected", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, call: {to: p.G, every_path: yes please}}\n", []string{":3:64: call.every_path must be true or false"}},
		{"unknown rule kind", "version: 1\ninvariants:\n  - id: a\n    why: w\n    function: p.F\n    require: {to: p.G}\n", []string{":6:5: invariant: unknown key \"require\"; did you mean \"requires\"?"}},
		{"two rules", "version: 1\ninvariants:\n  - id: a\n    why: w\n    function: p.F\n    call: {to: p.G}\n    forbid: {call: p.H}\n", []string{":7:5: invariant a: more than one rule (call, forbid)"}},
		{"duplicate ids", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, call: {to: p.G}}\n  - {id: a, why: w, function: p.F, call: {to: p.H}}\n", []string{":4:5: duplicate id \"a\" (first declared at"}},
		{"name does not parse", "version: 1\ninvariants:\n  - {id: a, why: w, function: (*p.T.m, call: {to: p.G}}\n", []string{":3:31: function: name \"(*p.T.m\": missing ')'"}},
		{"name not an identifier", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F-1, call: {to: p.G}}\n", []string{":3:31: function: name \"p.F-1\": \"F-1\" is not an identifier"}},
		{"unqualified without package", "version: 1\ninvariants:\n  - {id: a, why: w, function: F, call: {to: p.G}}\n", []string{":3:31: function: name \"F\": unqualified name needs a `package` key"}},
		{"missing why", "version: 1\ninvariants:\n  - {id: a, function: p.F, call: {to: p.G}}\n", []string{":3:5: invariant a: missing `why`"}},
		{"empty why", "version: 1\ninvariants:\n  - {id: a, why: '  ', function: p.F, call: {to: p.G}}\n", []string{":3:18: why must not be empty"}},
		{"bad id", "version: 1\ninvariants:\n  - {id: 'a b', why: w, function: p.F, call: {to: p.G}}\n", []string{":3:10: id \"a b\": use letters"}},
		{"no target", "version: 1\ninvariants:\n  - {id: a, why: w, call: {to: p.G}}\n", []string{":3:5: invariant a: a call rule needs a `function` or `functions` target"}},
		{"owns without field", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, owns: {writers: [p.G]}}\n", []string{":3:5: invariant a: an owns rule needs a `field` target", ":3:21: invariant a: an owns rule targets a `field`"}},
		{"field is not a member", "version: 1\ninvariants:\n  - {id: a, why: w, field: p.F, owns: {writers: [p.G]}}\n", []string{":3:28: field \"p.F\": want pkg.Type.field"}},
		{"bad mode", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, hold: {lock: p.mu, mode: read}}\n", []string{":3:61: hold.mode \"read\": want exclusive or shared"}},
		{"unsupported lang", "version: 1\ninvariants:\n  - {id: a, why: w, lang: java, function: p.F, call: {to: p.G}}\n", []string{":3:27: invariant a: lang \"java\" is not supported (supported: go, c, cpp, cuda, rust, metal)"}},
		{"tree-sitter lang without files", "version: 1\ninvariants:\n  - {id: a, why: w, lang: rust, function: T::f, call: {to: g}}\n", []string{":3:5: invariant a: lang rust needs `files`"}},
		{"tree-sitter lang with package", "version: 1\ninvariants:\n  - {id: a, why: w, lang: cpp, package: ./p, files: a.cc, function: f, call: {to: g}}\n", []string{":3:32: invariant a: `package` is for Go"}},
		{"files on go", "version: 1\ninvariants:\n  - {id: a, why: w, files: a.go, function: p.F, call: {to: p.G}}\n", []string{":3:21: invariant a: `files` is for lang c, cpp, cuda, rust, metal; Go targets are found by package"}},
		{"scoped name", "version: 1\ninvariants:\n  - {id: a, why: w, lang: cpp, files: a.cc, function: 'A::b c', call: {to: g}}\n", []string{":3:55: function: name \"A::b c\": \"b c\" is not an identifier"}},
		{"go name in cpp", "version: 1\ninvariants:\n  - {id: a, why: w, lang: cpp, files: a.cc, function: (*p.T).m, call: {to: g}}\n", []string{":3:55: function: name \"(*p.T).m\": \"(*p.T).m\" is not an identifier"}},
		{"unbalanced pattern", "version: 1\ninvariants:\n  - {id: a, why: w, lang: rust, files: a.rs, function: f, call: {to: 'msg_send![a, b'}}\n", []string{":3:70: call.to: pattern \"msg_send![a, b\": unclosed '['"}},
		{"field not scoped", "version: 1\ninvariants:\n  - {id: a, why: w, lang: c, files: a.c, field: f, owns: {writers: [g]}}\n", []string{":3:49: field \"f\": want Type::field"}},
		{"go writer in rust", "version: 1\ninvariants:\n  - {id: a, why: w, lang: rust, files: a.rs, field: T::f, owns: {writers: [(*T).g]}}\n", []string{":3:76: owns.writers[0]: name \"(*T).g\""}},
		{"hold via not checked", "version: 1\ninvariants:\n  - {id: a, why: w, lang: c, files: a.c, function: f, hold: {lock: m, via: [h]}}\n", []string{":3:71: invariant a: hold.via is not checked for lang c"}},
		{"bad glob", "version: 1\ninvariants:\n  - {id: a, why: w, lang: c, files: 'src/[a.c', function: f, call: {to: g}}\n", []string{":3:37: files: glob \"src/[a.c\": syntax error in pattern"}},
		{"list define in c", "version: 1\ninvariants:\n  - {id: a, why: w, lang: c, files: a.c, defines: {X: [1, 2]}, function: f, call: {to: g}}\n", []string{":3:55: defines.X must be a string, number or boolean, not a list"}},
		{"bad all", "version: 1\ninvariants:\n  - {id: a, why: w, lang: c, files: a.c, all: 1, function: f, call: {to: g}}\n", []string{":3:47: all must be true or false"}},
		{"missing rule key", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, order: {first: p.G}}\n", []string{":3:43: invariant a: order: missing `then`"}},
		{"duplicate key", "version: 1\nversion: 1\ninvariants: []\n", []string{":2:1: invariants file: key \"version\" repeated (first at line 1)"}},
		{"alias", "version: 1\ninvariants:\n  - &x {id: a, why: w, function: p.F, call: {to: p.G}}\n  - *x\n", []string{":1:1: YAML anchors and aliases are not supported"}},
		{"two documents", "version: 1\ninvariants: []\n---\nversion: 1\n", []string{":3:1: more than one YAML document"}},
		{"requires without lock", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, requires: {mode: shared}}\n", []string{":3:46: invariant a: requires: missing `lock`"}},
		{"requires bad mode", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, requires: {lock: p.mu, mode: write}}\n", []string{":3:65: requires.mode \"write\": want exclusive or shared"}},
		{"requires on a field", "version: 1\ninvariants:\n  - {id: a, why: w, field: p.T.f, requires: {lock: p.mu}}\n", []string{":3:5: invariant a: a requires rule needs a `function` or `functions` target", ":3:21: invariant a: a requires rule targets functions, not a field"}},
		{"requires release for rust", "version: 1\ninvariants:\n  - {id: a, why: w, lang: rust, files: a.rs, function: f, requires: {lock: m, release: [u]}}\n", []string{":3:79: invariant a: requires.release is not checked for lang rust"}},
		{"requires within for go", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, requires: {lock: p.mu, within: [p.G]}}\n", []string{":3:59: invariant a: requires.within is checked for lang c, cpp, cuda, rust, metal, not for Go"}},
		{"alternatives for go", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, call: {to: [p.G, p.H]}}\n", []string{":3:47: invariant a: call.to: a list of alternatives is checked for lang c, cpp, cuda, rust, metal; for Go name one function"}},
		{"unclosed parameter list", "version: 1\ninvariants:\n  - {id: a, why: w, lang: cpp, files: a.cc, function: 'sync(Stream', call: {to: g}}\n", []string{":3:55: function: name \"sync(Stream\": unclosed parameter list"}},
		{"text after the parameters", "version: 1\ninvariants:\n  - {id: a, why: w, lang: cpp, files: a.cc, function: 'sync(a)b', call: {to: g}}\n", []string{":3:55: function: name \"sync(a)b\": want the parameter list last"}},
		{"erase on rust", "version: 1\ninvariants:\n  - {id: a, why: w, lang: rust, files: a.rs, erase: [X], function: f, call: {to: g}}\n", []string{":3:46: invariant a: `erase` is for the C family and Metal"}},
		{"erase a non-name", "version: 1\ninvariants:\n  - {id: a, why: w, lang: cpp, files: a.cc, erase: ['a b'], function: f, call: {to: g}}\n", []string{":3:53: erase[0]: \"a b\" is not a macro name"}},
		{"erase on go", "version: 1\ninvariants:\n  - {id: a, why: w, erase: [X], function: p.F, call: {to: p.G}}\n", []string{":3:21: invariant a: `erase` is for lang c, cpp, cuda, rust, metal"}},
		{"go runner in a native invariant", "version: 1\ninvariants:\n  - {id: a, why: w, lang: cpp, files: a.cc, runs: [(*p.T).m], function: f, call: {to: g}}\n", []string{":3:52: runs[0]: name \"(*p.T).m\""}},
		{"requires bad helper", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, requires: {lock: p.mu, acquire: [p.L-1]}}\n", []string{":3:69: requires.acquire[0]: name \"p.L-1\""}},
		{"lock_order with a target", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, lock_order: [p.a, p.b]}\n", []string{":3:21: invariant a: a lock_order rule takes no `function`: it names what it checks itself"}},
		{"lock_order of one lock", "version: 1\ninvariants:\n  - {id: a, why: w, lock_order: [p.a]}\n", []string{":3:33: invariant a: lock_order.locks: an order needs two locks or more (or one, with unlisted: last)"}},
		{"lock_order lock twice", "version: 1\ninvariants:\n  - {id: a, why: w, lock_order: [p.a, p.b, p.a]}\n", []string{":3:33: invariant a: lock_order.locks: p.a is listed twice"}},
		{"lock_order bad unlisted", "version: 1\ninvariants:\n  - {id: a, why: w, lock_order: {locks: [p.a, p.b], unlisted: first}}\n", []string{":3:63: invariant a: lock_order.unlisted \"first\": want ignore or last"}},
		{"lock_order bad name", "version: 1\ninvariants:\n  - {id: a, why: w, lock_order: [p.a, p.b-1]}\n", []string{":3:39: lock_order.locks[1]: name \"p.b-1\""}},
		{"excludes without lock", "version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, excludes: {}}\n", []string{":3:46: invariant a: excludes: missing `lock`"}},
		{"never_acquires for cpp", "version: 1\ninvariants:\n  - {id: a, why: w, lang: cpp, files: a.cc, function: f, never_acquires: {lock: m}}\n", []string{":3:58: invariant a: a never_acquires rule is not checked for lang cpp"}},
		{"relative without module", "version: 1\ninvariants:\n  - {id: a, why: w, function: ./p.F, call: {to: p.G}}\n", []string{":3:31: function: name \"./p.F\": package \"./p\" is relative to the module, but no go.mod"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := invariants.Parse(registry.Specs(), "inv.yaml", []byte(tc.src), "")
			require.Error(t, err)
			var list invariants.ErrorList
			require.True(t, errors.As(err, &list), "error %v is not an invariants.ErrorList", err)
			require.GreaterOrEqual(t, len(list), len(tc.want), "errors: %v", err)
			for i, want := range tc.want {
				assert.Contains(t, list[i].Error(), "inv.yaml"+want)
			}
		})
	}
}

// TestMisspeltKeyIsOneError checks that an unknown key stops its mapping
// from being decoded: a misspelt package key does not go on to make every
// unqualified name of the file an error, nor a misspelt rule key the
// invariant's "no rule".
func TestMisspeltKeyIsOneError(t *testing.T) {
	for _, src := range []string{
		"version: 1\npackag: p\ninvariants:\n  - {id: a, why: w, function: F, call: {to: G}}\n  - {id: b, why: w, function: H, call: {to: G}}\n",
		"version: 1\ninvariants:\n  - {id: a, why: w, function: p.F, cal: {to: p.G}}\n",
	} {
		_, _, err := invariants.Parse(registry.Specs(), "inv.yaml", []byte(src), "")
		var list invariants.ErrorList
		require.True(t, errors.As(err, &list), src)
		assert.Len(t, list, 1, "%v", err)
		assert.Contains(t, err.Error(), "did you mean")
	}
}

func TestLoadTreeSitterExample(t *testing.T) {
	set, err := registry.Load("testdata/examples/treesitter.yaml")
	require.NoError(t, err)
	byID := map[string]*invariants.Invariant{}
	for _, inv := range set.Invariants {
		byID[inv.ID] = inv
	}
	rs := byID["encoder-retained-rs"]
	require.NotNil(t, rs)
	assert.Equal(t, invariants.LangRust, rs.Lang)
	assert.Equal(t, []invariants.Glob{{Pattern: "src/**/*.rs", Pos: invariants.Pos{File: "testdata/examples/treesitter.yaml", Line: 6, Col: 12}}}, rs.Files)
	assert.Equal(t, []string{"CommandBuffer", "get_or_create_encoder"}, rs.Functions[0].Scoped)
	assert.Equal(t, "msg_send![encoder, retain]", rs.Rule.(*call.Rule).To.String())
	assert.Empty(t, rs.Packages(), "tree-sitter targets name files, not packages")

	cpp := byID["eval-holds-lock-cpp"]
	assert.True(t, cpp.All)
	assert.Len(t, cpp.Files, 2)
	assert.Equal(t, []string{"mlx", "core", "eval_impl"}, cpp.Functions[0].Scoped)
	assert.Equal(t, []invariants.Define{
		{Name: "MLX_METAL", Values: []string{"1"}, Pos: invariants.Pos{File: "testdata/examples/treesitter.yaml", Line: 17, Col: 15}},
		{Name: "NDEBUG", Values: []string{""}, Pos: invariants.Pos{File: "testdata/examples/treesitter.yaml", Line: 17, Col: 29}},
	}, cpp.Defines)
	assert.Equal(t, "eval_mutex", cpp.Rule.(*hold.Rule).Lock.Raw)

	reg := byID["registry-read-locked-rs"]
	assert.Equal(t, invariants.Shared, reg.Rule.(*hold.Rule).Mode)
	assert.Equal(t, []string{"metal", "cuda"}, reg.Defines[0].Values)
	assert.Equal(t, "feature", reg.Defines[0].Name)
}

// TestLoadNativeKeys checks what the tree-sitter languages read beside
// the Go keys: runners written with `::` at the file's top level and on
// the invariant, alternatives, erased macros, lang metal, and requires'
// within and acquire as scoped names.
func TestLoadNativeKeys(t *testing.T) {
	src := `version: 1
package: example.com/m/runtime
runs: [pool.Run, objc::rc::autoreleasepool]
invariants:
  - id: go-runs
    why: w
    function: F
    call: {to: G}
  - id: native-runs
    why: w
    lang: rust
    files: a.rs
    runs: [rayon::scope]
    function: T::f
    call: {to: [retain, NS::RetainPtr]}
  - id: shader
    why: w
    lang: metal
    files: k.metal
    erase: [STEEL_PRAGMA_UNROLL]
    function: copy
    order: {first: "index >= size", then: "dst[index]"}
  - id: map-read
    why: w
    lang: cpp
    files: a.cc
    function: global_encoders
    requires: {lock: map_mutex(), mode: shared, acquire: [lock_encoders], within: ["get_encoder(Stream)"]}
`
	f, _, err := invariants.Parse(registry.Specs(), "inv.yaml", []byte(src), "")
	require.NoError(t, err)
	require.Len(t, f.Invariants, 4)
	goRuns, native, shader, mapRead := f.Invariants[0], f.Invariants[1], f.Invariants[2], f.Invariants[3]
	require.Len(t, goRuns.Runs, 1)
	assert.Equal(t, "pool.Run", goRuns.Runs[0].String())
	require.Len(t, native.Runs, 2)
	assert.Equal(t, []string{"objc", "rc", "autoreleasepool"}, native.Runs[0].Scoped)
	assert.Equal(t, []string{"rayon", "scope"}, native.Runs[1].Scoped)
	c := native.Rule.(*call.Rule)
	assert.Equal(t, "retain", c.To.Raw)
	require.Len(t, c.Or, 1)
	assert.Equal(t, "NS::RetainPtr", c.Or[0].Raw)
	assert.Equal(t, invariants.LangMetal, shader.Lang)
	assert.True(t, shader.Lang.TreeSitter())
	assert.Equal(t, []string{"STEEL_PRAGMA_UNROLL"}, shader.Erase)
	req := mapRead.Rule.(*requires.Rule)
	assert.Equal(t, []string{"lock_encoders"}, req.Acquire[0].Scoped)
	assert.Equal(t, []string{"get_encoder"}, req.Within[0].Scoped)
	assert.Equal(t, "(Stream)", req.Within[0].Params)
	set := &invariants.Set{Invariants: f.Invariants}
	assert.Len(t, set.Runners(), 1, "the tree-sitter invariants' runners are not Go runners")
}

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		glob, name string
		want       bool
	}{
		{"src/*.rs", "src/a.rs", true},
		{"src/*.rs", "src/x/a.rs", false},
		{"src/**/*.rs", "src/a.rs", true},
		{"src/**/*.rs", "src/x/y/a.rs", true},
		{"src/**", "src/x/y/a.rs", true},
		{"**/mutex", "include/c++/12/mutex", true},
		{"src/**/*.rs", "lib/a.rs", false},
		{"a.c", "a.c", true},
		{"a.c", "b/a.c", false},
	} {
		assert.Equal(t, tc.want, invariants.MatchGlob(tc.glob, tc.name), "%s ~ %s", tc.glob, tc.name)
	}
}

func TestLoadMissingInclude(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.yaml", "version: 1\ninclude:\n  - nothing-*.yaml\n")
	_, err := registry.Load(filepath.Join(dir, "a.yaml"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a.yaml:3:5: include \"nothing-*.yaml\" matches no file")
}

func TestLoadDuplicateAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	inv := "version: 1\ninvariants:\n  - {id: same, why: w, function: p.F, call: {to: p.G}}\n"
	writeFile(t, dir, "a.yaml", inv)
	writeFile(t, dir, "b.yaml", inv)
	_, err := registry.Load(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "b.yaml:3:5: duplicate id \"same\" (first declared at ")
	assert.Contains(t, err.Error(), "a.yaml:3:5)")
}

func TestLoadMissingPaths(t *testing.T) {
	_, err := registry.Load()
	require.Error(t, err)
	_, err = registry.Load(filepath.Join(t.TempDir(), "absent.yaml"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "absent.yaml")
	_, err = registry.Load(t.TempDir())
	require.ErrorContains(t, err, "holds no .yaml or .yml file")
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
}

// TestNotAnInvariantsFile checks that naming a file of another format
// (-config Cargo.toml) says that it is no invariants file, at the place
// its parse fails or at its start.
func TestNotAnInvariantsFile(t *testing.T) {
	for name, src := range map[string]string{
		"Cargo.toml":   "[package]\nname = \"enc\"\nversion = \"0.1.0\"\n",
		"package.json": "[1, 2]\n",
		"setup.cfg":    "[metadata]\nname = x\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := invariants.Parse(registry.Specs(), name, []byte(src), "")
			require.Error(t, err)
			assert.Contains(t, err.Error(), name+" is not an invariants file")
			assert.NotContains(t, err.Error(), "must be a mapping")
		})
	}
}
