package prove

import (
	"bytes"
	"crypto/sha256"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/kinds/call"
	"github.com/guardlint/guardlint/analyzers/kinds/forbid"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mod is the module the tests prove invariants over.
var mod = filepath.Join("testdata", "mod")

// prove loads an invariants file of the test module and proves it.
func prove(t *testing.T, file string) *Report {
	t.Helper()
	rep, _, _ := proveFile(t, mod, file, Options{})
	return rep
}

// proveFile loads an invariants file of a test tree and proves it with
// opts in that tree; it returns the report, the invariants and the tree's
// absolute path.
func proveFile(t *testing.T, tree, file string, opts Options) (*Report, *invariants.Set, string) {
	t.Helper()
	dir, err := filepath.Abs(tree)
	require.NoError(t, err)
	set, err := registry.Load(filepath.Join(dir, file))
	require.NoError(t, err)
	opts.Dir = dir
	rep, err := Run(set, opts)
	require.NoError(t, err)
	return rep, set, dir
}

// byName indexes a report's results by mutant name.
func byName(rep *Report) map[string]*Result {
	out := map[string]*Result{}
	for _, r := range rep.Mutants() {
		out[r.Mutant.Name] = r
	}
	return out
}

func TestEveryKindKillsItsReverts(t *testing.T) {
	rep := prove(t, "guardlint.yaml")
	kinds := map[invariants.Kind]int{}
	for _, r := range rep.Mutants() {
		m := r.Mutant
		if r.Verdict == Killed {
			kinds[m.Invariant.Kind()]++
			assert.True(t, m.Site.Start > 0 && m.Site.End >= m.Site.Start, "%s: site %s", m.Name, m.Site)
		}
		assert.NotEqual(t, Survived, r.Verdict, "%s survived: %s", m.Name, r.Detail)
	}
	for _, k := range registry.Kinds {
		assert.Positive(t, kinds[k.Name], "no mutant of kind %s was killed", k.Name)
	}
	// The one mutant that cannot be built: no other type has the method.
	res := byName(rep)
	void := res["reset-ends-encoder.CommandBuffer.reset.wrong-receiver"]
	require.NotNil(t, void)
	assert.Equal(t, Void, void.Verdict)
	assert.Contains(t, void.Detail, "no other type")
	// And one that can: Buffer has a retain.
	wrong := res["encoder-retained.CommandBuffer.getOrCreateEncoder.wrong-receiver"]
	require.NotNil(t, wrong)
	assert.Equal(t, Killed, wrong.Verdict)
	assert.Contains(t, string(wrong.Mutant.Files[wrong.Mutant.Site.File]), "new(Buffer).retain()")
	// A requires invariant's reverts land in the entry points that take
	// the lock, found through the operations the file names and those a
	// //guardlint:requires comment names.
	for _, name := range []string{"dispatch-under-evalMu.Encode.lock-deleted", "dispatch-under-evalMu.Flush.another-lock"} {
		r := res[name]
		require.NotNil(t, r, name)
		assert.Equal(t, Killed, r.Verdict, name)
	}
	for _, ir := range rep.Invariants {
		assert.Empty(t, ir.Vacuous, ir.Invariant.ID)
		assert.Empty(t, ir.Failing, ir.Invariant.ID)
	}
}

func TestProvedInvariants(t *testing.T) {
	rep := prove(t, "proved.yaml")
	assert.True(t, rep.Proved())
	for _, ir := range rep.Invariants {
		assert.True(t, ir.Proved(), ir.Invariant.ID)
		assert.Positive(t, ir.Count(Killed), ir.Invariant.ID)
	}
}

// TestWeakInvariantsSurvive proves invariants that hold but cannot tell
// the load-bearing call from another call of the same function: each
// survives reverts of the call that matters.
func TestWeakInvariantsSurvive(t *testing.T) {
	rep := prove(t, "weak.yaml")
	assert.False(t, rep.Proved())
	require.Len(t, rep.Invariants, 2)
	for _, ir := range rep.Invariants {
		assert.Empty(t, ir.Failing, "%s holds on the unmutated code", ir.Invariant.ID)
		assert.Positive(t, ir.Count(Survived), ir.Invariant.ID)
		assert.False(t, ir.Proved(), ir.Invariant.ID)
	}
	res := byName(rep)
	for _, name := range []string{
		"load-first-checks-bounds.LoadFirst.first-delete_108",
		"close-ends-encoder.CommandBuffer.Close.delete_63",
	} {
		require.Contains(t, res, name)
		assert.Equal(t, Survived, res[name].Verdict, name)
	}
	var out bytes.Buffer
	rep.Print(&out, "")
	assert.Contains(t, out.String(), "survived  load-first-checks-bounds LoadFirst first-delete@108")
}

// TestVoidIsNeverAKill takes a revert the invariant catches and adds a
// type error: the invariant would still fire on it, but a mutant that
// does not compile is void.
func TestVoidIsNeverAKill(t *testing.T) {
	rep := prove(t, "proved.yaml")
	res := byName(rep)["encoder-retained.CommandBuffer.getOrCreateEncoder.delete"]
	require.NotNil(t, res)
	require.Equal(t, Killed, res.Verdict)

	for name, extra := range map[string]string{
		"type error":  "\nvar _ int = \"not an int\"\n",
		"parse error": "\nfunc {\n",
	} {
		m := *res.Mutant
		m.Files = map[string][]byte{}
		for f, data := range res.Mutant.Files {
			m.Files[f] = append(bytes.Clone(data), extra...)
		}
		for _, exact := range []bool{false, true} {
			r := &Result{Mutant: &m}
			dir, _ := filepath.Abs(mod)
			require.NoError(t, checkAll(rep.Set, []*Result{r}, Options{Dir: dir, Jobs: 1, Exact: exact}))
			assert.Equal(t, Void, r.Verdict, "%s (exact %v): %s", name, exact, r.Detail)
		}
	}
}

// TestVoidReasonIsOneLine gives a mutant a type error of several lines
// (go/types adds "have" and "want" lines to a wrong return): the reason
// keeps them, joined, and the report prints it as one line.
func TestVoidReasonIsOneLine(t *testing.T) {
	rep := prove(t, "proved.yaml")
	res := byName(rep)["encoder-retained.CommandBuffer.getOrCreateEncoder.delete"]
	require.NotNil(t, res)
	m := *res.Mutant
	m.Files = map[string][]byte{}
	for f, data := range res.Mutant.Files {
		m.Files[f] = append(bytes.Clone(data), "\nfunc guardlintVoidTest() { return 1 }\n"...)
	}
	dir, _ := filepath.Abs(mod)
	for _, exact := range []bool{false, true} {
		r := &Result{Mutant: &m}
		require.NoError(t, checkAll(rep.Set, []*Result{r}, Options{Dir: dir, Jobs: 1, Exact: exact}))
		require.Equal(t, Void, r.Verdict)
		assert.NotContains(t, r.Detail, "\n", "exact %v", exact)
		assert.Contains(t, r.Detail, "too many return values; have (number); want ()", "exact %v", exact)
	}
	var out bytes.Buffer
	r := &Result{Mutant: &m}
	require.NoError(t, checkAll(rep.Set, []*Result{r}, Options{Dir: dir, Jobs: 1}))
	(&Report{Set: rep.Set, Invariants: []*InvariantReport{{Invariant: m.Invariant, Results: []*Result{r}}}}).Print(&out, dir)
	require.Contains(t, out.String(), "have (number)")
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.Contains(line, "have (number)") {
			assert.True(t, strings.HasPrefix(line, "void "), "a stray line: %q", line)
		}
	}
}

// TestVacuousInvariants proves two forbids that hold whatever the code
// does: one names a method that appears only in a comment, the other a
// function of another package that the package never calls. Their
// mutants are killed (the forbidden call put back is caught), but a
// vacuous invariant is not proved.
func TestVacuousInvariants(t *testing.T) {
	rep := prove(t, "vacuous.yaml")
	require.Len(t, rep.Invariants, 2)
	want := []string{
		"(*p.Buffer).retain appears only in comments of package p",
		"sync.OnceFunc matches nothing: no code of package p uses it",
	}
	for i, ir := range rep.Invariants {
		assert.Equal(t, []string{want[i]}, ir.Vacuous, ir.Invariant.ID)
		assert.Equal(t, len(forbid.Ops), ir.Count(Killed), ir.Invariant.ID)
		assert.False(t, ir.Proved(), ir.Invariant.ID)
	}
	assert.False(t, rep.Proved())
	// The function of another package is called through an import of its
	// own in the guarded file.
	m := byName(rep)["eval-makes-no-once-funcs.Eval.call-at-entry"].Mutant
	assert.Contains(t, string(m.Files[m.Site.File]), "import guardlintforbid \"sync\"")
}

// TestFastMatchesExact checks the in-memory re-check of one package
// against driver.Run with the mutant as an overlay, which loads
// everything again, for the mutants of a call and a hold invariant.
func TestFastMatchesExact(t *testing.T) {
	if testing.Short() {
		t.Skip("a full load per mutant")
	}
	dir, err := filepath.Abs(mod)
	require.NoError(t, err)
	set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
	require.NoError(t, err)
	fast, err := Run(set, Options{Dir: dir})
	require.NoError(t, err)
	var sample []*Result
	for _, r := range fast.Mutants() {
		if id := r.Mutant.Invariant.ID; id == "encoder-retained" || id == "eval-locked" {
			s := &Result{Mutant: r.Mutant}
			if r.Mutant.Void != "" {
				s.Verdict, s.Detail = Void, r.Mutant.Void
			}
			sample = append(sample, s)
		}
	}
	require.NoError(t, checkAll(set, sample, Options{Dir: dir, Exact: true}))
	want := byName(fast)
	for _, r := range sample {
		assert.Equal(t, want[r.Mutant.Name].Verdict, r.Verdict, "%s: fast %s, exact %s", r.Mutant.Name, want[r.Mutant.Name].Detail, r.Detail)
	}
	assert.Len(t, sample, len(call.Ops)+len(mutant.HoldOps))
}

// TestWorkingTreeUntouched checks that proving, with and without --test,
// writes nothing into the module.
func TestWorkingTreeUntouched(t *testing.T) {
	before := treeHash(t, mod)
	rep := prove(t, "guardlint.yaml")
	assert.Equal(t, before, treeHash(t, mod))
	dir, _ := filepath.Abs(mod)
	only(rep, "encoder-retained")
	_, err := RunTests(rep, TestOptions{Command: "true", Dir: dir, Timeout: timeout, Out: t.TempDir()}, nil)
	require.NoError(t, err)
	assert.Equal(t, before, treeHash(t, mod))
}

// treeHash hashes every file under dir with its name.
func treeHash(t *testing.T, dir string) [32]byte {
	h := sha256.New()
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		h.Write([]byte(path + "\x00"))
		h.Write(data)
		return err
	}))
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// only keeps the invariants of a report with the given ids.
func only(rep *Report, ids ...string) {
	var keep []*InvariantReport
	for _, ir := range rep.Invariants {
		for _, id := range ids {
			if ir.Invariant.ID == id {
				keep = append(keep, ir)
			}
		}
	}
	rep.Invariants = keep
}

// hasLine reports whether text has a line with all the words, in order.
func hasLine(text string, words ...string) bool {
	for _, l := range strings.Split(text, "\n") {
		rest, ok := l, true
		for _, w := range words {
			i := strings.Index(rest, w)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(w):]
		}
		if ok {
			return true
		}
	}
	return false
}

// TestKillNeedsTheInvariantAtTheSite checks the kill rule: the mutated
// invariant itself, inside the mutated function's lines.
func TestKillNeedsTheInvariantAtTheSite(t *testing.T) {
	inv := &invariants.Invariant{ID: "a"}
	m := &mutant.Mutant{Invariant: inv, Site: mutant.Site{File: "/m/p.go", Func: "f", Start: 10, End: 20}}
	at := func(id, file string, line int) []core.Finding {
		return []core.Finding{{ID: id, Pos: token.Position{Filename: file, Line: line, Column: 1}}}
	}
	for _, tc := range []struct {
		name string
		fs   []core.Finding
		want Verdict
	}{
		{"inside", at("a", "/m/p.go", 15), Killed},
		{"first line", at("a", "/m/p.go", 10), Killed},
		{"last line", at("a", "/m/p.go", 20), Killed},
		{"another function", at("a", "/m/p.go", 21), Survived},
		{"another file", at("a", "/m/q.go", 15), Survived},
		{"the invariants file", at("a", "/m/guardlint.yaml", 15), Survived},
		{"another invariant", at("b", "/m/p.go", 15), Survived},
		{"nothing", nil, Survived},
	} {
		got, detail := verdict(m, tc.fs)
		assert.Equal(t, tc.want, got, "%s: %s", tc.name, detail)
	}
}

// TestDottedPaths proves the invariants of the resolver's sample module,
// whose names have dots in the last element of their package paths
// (codec.v2, nats.go, gopkg.in/yaml.v3) and type parameters: the prover
// reads them against the packages it loads, as the engine does, and finds
// and kills the reverts of every one.
func TestDottedPaths(t *testing.T) {
	rep, set, _ := proveFile(t, "../golang/resolve/testdata/dotted", "guardlint.yaml", Options{})
	assert.True(t, rep.Proved())
	require.Len(t, rep.Invariants, len(set.Invariants))
	for _, ir := range rep.Invariants {
		assert.Empty(t, ir.Skipped, ir.Invariant.ID)
		assert.Empty(t, ir.Vacuous, ir.Invariant.ID)
		assert.Positive(t, ir.Count(Killed), ir.Invariant.ID)
		assert.Zero(t, ir.Count(Survived), ir.Invariant.ID)
	}
	// Reset's write of the generic type's field, moved into Get: found
	// through the field of the instance Map[K, V] in Reset.
	moved := byName(rep)["map-written-by-put.Map.Get.moved-write"]
	require.NotNil(t, moved)
	assert.Equal(t, Killed, moved.Verdict, moved.Detail)
}

// TestInitialiserReverts proves invariants on calls in the initialiser of
// an if, a switch and a labelled for: every revert of the statement is
// built by hoisting the initialiser out of the header, compiles, and is
// killed; only the reverts that need a call statement (deferred,
// swapped) or another type with the method (wrong-receiver) are void.
func TestInitialiserReverts(t *testing.T) {
	rep := prove(t, "init.yaml")
	assert.True(t, rep.Proved())
	killed := 0
	for _, r := range rep.Mutants() {
		op, _, _ := strings.Cut(r.Mutant.Op, "@")
		switch op {
		case mutant.OpWrongRecv, "first-deferred", "first-swapped":
			assert.Equal(t, Void, r.Verdict, r.Mutant.Name)
		default:
			assert.Equal(t, Killed, r.Verdict, "%s: %s", r.Mutant.Name, r.Detail)
			killed++
		}
	}
	assert.Equal(t, 3*(len(call.Ops)-1)+3*9, killed)
	res := byName(rep)
	wait := res["checks-device.Device.Wait.delete"].Mutant
	assert.Contains(t, string(wait.Files[wait.Site.File]), "{\n\t\tvar err error\n\t\t\n\t\tif ; err != nil {")
	retire := res["checks-before-commit.Device.Retire.first-line-comment"].Mutant
	assert.Contains(t, string(retire.Files[retire.Site.File]), "\n{\n\t\tvar err error\n\t\t// err = d.check()\n\t\touter:\n\tfor ; err == nil")
	moved := res["checks-device.Device.State.moved"].Mutant
	assert.Contains(t, string(moved.Files[moved.Site.File]), "(d *Device) {\n\terr := d.check()\n\t_ = err\n}")
}
