package treesitter_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/nativecheck"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzTargetOf names the fuzz target of each language; its corpus is
// testdata/fuzz/<target>.
var fuzzTargetOf = map[invariants.Lang]string{
	invariants.LangC: "FuzzC", invariants.LangCPP: "FuzzCPP", invariants.LangCUDA: "FuzzCUDA", invariants.LangRust: "FuzzRust",
}

// corpusEntry decodes a fuzz corpus file of one []byte value.
func corpusEntry(t *testing.T, path string) []byte {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	header, value, ok := strings.Cut(strings.TrimSpace(string(data)), "\n")
	require.True(t, ok && header == "go test fuzz v1", "%s: not a fuzz corpus file", path)
	lit, ok := strings.CutPrefix(value, "[]byte(")
	require.True(t, ok && strings.HasSuffix(lit, ")"), "%s: not one []byte value", path)
	s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
	require.NoError(t, err, path)
	return []byte(s)
}

// TestFuzzCorpusThroughCheck runs every input kept in the fuzz corpus (the
// one found while fuzzing, and those the fuzzers find later) through
// Check, as the one file of invariants of every kind: the check returns,
// and a file that tree-sitter does not finish within the budget is
// reported as such, at the invariant. The budget is the default one, a
// hundred times what the slowest kept input takes on a loaded machine, so
// that the two parses (the oracle's and Check's) cannot fall on two sides
// of it because the machine is busy; the budget itself is tested in
// package syntax with the watchdog under the test's control.
func TestFuzzCorpusThroughCheck(t *testing.T) {
	const budget = core.DefaultParseBudget
	entries := 0
	for lang, target := range fuzzTargetOf {
		paths, err := filepath.Glob(filepath.Join("testdata/fuzz", target, "*"))
		require.NoError(t, err)
		for _, p := range paths {
			entries++
			src := corpusEntry(t, p)
			dir := t.TempDir()
			file := filepath.Join(dir, "input")
			require.NoError(t, os.WriteFile(file, src, 0o644))
			_, perr := syntax.ParseWithin(syntax.Lang(lang), file, src, budget)
			set := corpusInvariants(t, dir, lang, src)
			found := nativecheck.Check(set, nativecheck.Options{ParseBudget: budget})
			stopped := 0
			for _, f := range found {
				assert.NotEmpty(t, f.ID, "%s: %s", p, f.Message)
				if strings.Contains(f.Message, "cannot verify: the parser did not finish "+file) {
					stopped++
				}
			}
			if errors.Is(perr, syntax.ErrBudget) {
				assert.Positive(t, stopped, "%s: the parse runs out of its budget, and no finding says so: %v", p, found)
			} else {
				assert.Zero(t, stopped, "%s: %v", p, found)
			}
		}
	}
	assert.Positive(t, entries, "the fuzz corpus is empty")
}

// word is an identifier, as the prefilter sees one; defined finds the
// name of a function definition the way each language spells one, well
// enough to pick a target.
var (
	word    = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	defined = map[invariants.Lang]*regexp.Regexp{
		invariants.LangRust: regexp.MustCompile(`\bfn\s+([A-Za-z_][A-Za-z0-9_]*)`),
	}
	cDefined = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*\([^;{]*\)\s*\{`)
)

// corpusInvariants writes an invariants file with one invariant of each
// kind over the input and loads it. They name the first function the
// input seems to define (or its first word, or f), and the owns
// invariant's field is the first word, so that the file passes the
// prefilter and is parsed.
func corpusInvariants(t *testing.T, dir string, lang invariants.Lang, src []byte) *invariants.Set {
	name := "f"
	if w := word.Find(src); w != nil {
		name = string(w)
	}
	field := name
	re := defined[lang]
	if re == nil {
		re = cDefined
	}
	if m := re.FindSubmatch(src); m != nil {
		name = string(m[1])
	}
	write := func(name, field string) (*invariants.Set, error) {
		q := strconv.Quote(name)
		yaml := fmt.Sprintf(`version: 1
invariants:
  - {id: call, why: w, lang: %[1]s, files: input, all: true, function: %[2]s, call: {to: g, every_path: true}}
  - {id: hold, why: w, lang: %[1]s, files: input, all: true, function: %[2]s, hold: {lock: mu}}
  - {id: order, why: w, lang: %[1]s, files: input, all: true, function: %[2]s, order: {first: lock, then: read}}
  - {id: forbid, why: w, lang: %[1]s, files: input, all: true, function: %[2]s, forbid: {call: g}}
  - {id: owns, why: w, lang: %[1]s, files: input, field: %[3]s, owns: {writers: [%[2]s]}}
`, lang, q, strconv.Quote("T::"+field))
		path := filepath.Join(dir, "guardlint.yaml")
		require.NoError(t, os.WriteFile(path, []byte(yaml), 0o644))
		return registry.Load(path)
	}
	set, err := write(name, field)
	if err != nil { // a name the loader does not take as a function name
		set, err = write("f", "a")
	}
	require.NoError(t, err)
	return set
}
