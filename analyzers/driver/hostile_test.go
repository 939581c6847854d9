package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Hostile Go inputs in a package an invariant names: each run ends, with
// a normal result or a clear error. Figures: docs/reliability.md.

// runModule writes a module with package p holding src and the
// invariants, and runs guardlint over it.
func runModule(tb testing.TB, src []byte, yaml string) (*Result, error) {
	dir := tb.TempDir()
	require.NoError(tb, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/hostile\n\ngo 1.22\n"), 0o644))
	require.NoError(tb, os.MkdirAll(filepath.Join(dir, "p"), 0o755))
	require.NoError(tb, os.WriteFile(filepath.Join(dir, "p", "p.go"), src, 0o644))
	cfg := filepath.Join(dir, "guardlint.yaml")
	require.NoError(tb, os.WriteFile(cfg, []byte(yaml), 0o644))
	set, err := registry.Load(cfg)
	require.NoError(tb, err)
	return Run(set, Options{Dir: dir})
}

const deepYAML = "version: 1\ninvariants:\n  - {id: deep, why: w, function: ./p.Deep, call: {to: ./p.work}}\n"

// deepGo is a package whose function Deep nests its call of work depth
// levels deep in one of three shapes.
func deepGo(shape string, depth int) []byte {
	var body string
	switch shape {
	case "braces":
		body = strings.Repeat("{", depth) + "work()" + strings.Repeat("}", depth)
	case "parentheses":
		body = "_ = " + strings.Repeat("(", depth) + "work()" + strings.Repeat(")", depth)
	case "if chain":
		body = strings.Repeat("if ok {", depth) + "work()" + strings.Repeat("}", depth)
	}
	return []byte("package p\n\nvar ok bool\n\nfunc work() int { return 0 }\n\nfunc Deep() {\n" + body + "\n}\n")
}

func TestGoNesting100000Deep(t *testing.T) {
	// go/parser refuses the file; guardlint says so before it asks the
	// go command to compile it, which takes minutes at this depth. The
	// file has a type error too, which only that compile would report:
	// the error names the nesting alone.
	for _, shape := range []string{"braces", "parentheses", "if chain"} {
		t.Run(shape, func(t *testing.T) {
			src := append(deepGo(shape, 100_000), "\nfunc Other() { undefinedThing() }\n"...)
			_, err := runModule(t, src, deepYAML)
			require.Error(t, err)
			assert.Regexp(t, `^guardlint checks only code that type-checks:\n.*/p/p.go:8:\d+: exceeded max nesting depth$`, err.Error())
		})
	}
}

func TestGoScopesDeeperThanTheParserTakes(t *testing.T) {
	_, err := runModule(t, deepGo("if chain", 1500), deepYAML)
	require.Error(t, err)
	assert.Regexp(t, `p/p.go:8:\d+: exceeded max scope depth during object resolution$`, err.Error())
}

func TestGoNestingTheParserTakes(t *testing.T) {
	// Parentheses open no scope: 99,990 of them parse, and the analyzers
	// walk the expression to find the call.
	if testing.Short() {
		t.Skip("type-checks an expression 99,990 levels deep; skipped with -short")
	}
	res, err := runModule(t, deepGo("parentheses", 99_990), deepYAML)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// bigGo is about size bytes of Go: a method that holds its lock over a
// body of 100,000 statements, then plain functions.
func bigGo(size int) []byte {
	var b strings.Builder
	b.Grow(size + 1024)
	b.WriteString("package p\n\nimport \"sync\"\n\ntype T struct {\n\tmu sync.Mutex\n\tn  int\n}\n\nfunc work(i int) int { return i }\n\n")
	b.WriteString("func (t *T) Locked() {\n\tt.mu.Lock()\n\tdefer t.mu.Unlock()\n")
	for i := 0; i < 100_000; i++ {
		fmt.Fprintf(&b, "\tt.n += work(%d)\n", i)
	}
	b.WriteString("}\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "func filler%d(t *T, a, b int) int {\n\tif a > b {\n\t\treturn work(a) + t.n\n\t}\n\tfor i := 0; i < b; i++ {\n\t\ta += work(i)\n\t}\n\treturn a\n}\n\n", i)
	}
	return []byte(b.String())
}

const bigYAML = `version: 1
invariants:
  - {id: locked, why: w, function: (*./p.T).Locked, hold: {lock: (./p.T).mu}}
  - {id: calls, why: w, function: (*./p.T).Locked, call: {to: ./p.work, every_path: true}}
`

func TestA20MBGoFile(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compiles and type-checks 20 MB of Go (minutes, gigabytes); skipped with -short and under the race detector, and run by .ci/run without it")
	}
	res, err := runModule(t, bigGo(20<<20), bigYAML)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}
