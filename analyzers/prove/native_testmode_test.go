package prove

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nativeProject proves the invariants of a native project in testdata,
// keeping the invariants and reverts named, so that the builds the test
// command makes stay few.
func nativeProject(t *testing.T, project string, ids, ops []string) (*Report, string) {
	t.Helper()
	rep, _, dir := proveFile(t, filepath.Join("testdata", project), "guardlint.yaml", Options{Ops: ops})
	only(rep, ids...)
	for _, ir := range rep.Invariants {
		require.True(t, ir.Proved(), ir.Invariant.ID)
	}
	return rep, dir
}

// outcomes runs a test command over a report's mutants and indexes what
// it made of each, by invariant and revert.
func outcomes(t *testing.T, rep *Report, dir, command string) (map[string]Outcome, string) {
	t.Helper()
	tr, err := RunTests(rep, TestOptions{Command: command, Dir: dir, Timeout: 5 * time.Minute, Out: t.TempDir()}, nil)
	require.NoError(t, err)
	out := map[string]Outcome{}
	for _, r := range tr.Results {
		assert.Equal(t, Killed, r.Result.Verdict, r.Result.Mutant.Name)
		out[r.Result.Mutant.Invariant.ID+" "+r.Result.Mutant.Op] = r.Outcome
	}
	var buf bytes.Buffer
	tr.Print(&buf)
	return out, buf.String()
}

// TestNativeTestCargo runs cargo's tests of the crate in testdata on each
// revert: they catch the retain deleted or commented out, the compiler
// rejects the retain moved away from its encoder, and no test sees the
// device lock go, which only the invariant catches.
func TestNativeTestCargo(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo is not installed (CI installs it from Debian)")
	}
	rep, dir := nativeProject(t, "crate", []string{"rs-encoder-retained", "rs-submit-locked"},
		[]string{mutant.OpDelete, mutant.OpLineComment, mutant.OpMoved, mutant.OpLockDeleted})
	// The copy is the crate, not the Go module around it.
	got, printed := outcomes(t, rep, dir, `test -f "$GUARDLINT_MUTANT_DIR/Cargo.toml" || exit 3
cargo build --tests -q --offline || exit 125
cargo test -q --offline`)
	assert.Equal(t, map[string]Outcome{
		"rs-encoder-retained delete":       Detected,
		"rs-encoder-retained line-comment": Detected,
		"rs-encoder-retained moved":        NotBuilt,
		"rs-submit-locked lock-deleted":    Missed,
		"rs-submit-locked line-comment":    Missed,
		"rs-submit-locked moved":           NotBuilt, // self is not in scope there
	}, got)
	assert.True(t, hasLine(printed, "rs-submit-locked", "Queue::submit", "lock-deleted", "killed", "missed"), printed)
	assert.Contains(t, printed, "2 caught by both, 2 by the invariant only, 0 by the command only, 0 by neither; 2 not built")
}

// TestNativeTestMake runs the C++ project's tests, built by make and g++,
// on each revert: they catch the retain deleted, the compiler rejects it
// moved, and no test sees the registry's lock go.
func TestNativeTestMake(t *testing.T) {
	for _, tool := range []string{"make", "g++"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (CI installs it from Debian)", tool)
		}
	}
	rep, dir := nativeProject(t, "cppproj", []string{"cpp-encoder-retained", "cpp-add-locked"},
		[]string{mutant.OpDelete, mutant.OpMoved, mutant.OpLockDeleted})
	got, printed := outcomes(t, rep, dir, `test -f "$GUARDLINT_MUTANT_DIR/Makefile" || exit 3
make -s build/tests >/dev/null 2>&1 || exit 125
./build/tests`)
	assert.Equal(t, map[string]Outcome{
		"cpp-encoder-retained delete": Detected,
		"cpp-encoder-retained moved":  NotBuilt,
		"cpp-add-locked lock-deleted": Missed,
		"cpp-add-locked moved":        NotBuilt,
	}, got)
	assert.True(t, hasLine(printed, "cpp-add-locked", "Registry::add", "lock-deleted", "killed", "missed"), printed)
}

// TestNativeWeakInvariantsSurvive proves invariants of the native
// projects that name the call by its name only: the retain or release
// called on another value satisfies them, so that revert survives, and
// the run is not proved.
func TestNativeWeakInvariantsSurvive(t *testing.T) {
	for _, project := range []string{"crate", "cppproj"} {
		rep, _, dir := proveFile(t, filepath.Join("testdata", project), "weak.yaml", Options{})
		assert.False(t, rep.Proved(), project)
		require.Len(t, rep.Invariants, 2)
		for _, ir := range rep.Invariants {
			assert.Empty(t, ir.Failing, "%s %s holds on the unmutated code", project, ir.Invariant.ID)
			var survived []string
			for _, r := range ir.Results {
				if r.Verdict == Survived {
					survived = append(survived, r.Mutant.Op)
				}
			}
			assert.Equal(t, []string{mutant.OpWrongRecv}, survived, "%s %s", project, ir.Invariant.ID)
		}
		var out bytes.Buffer
		rep.Print(&out, dir)
		assert.Contains(t, out.String(), "-retained-by-name", project)
		assert.True(t, hasLine(out.String(), "survived", "retained-by-name", "wrong-receiver: ", "did not fire"), out.String())
	}
}

// TestNativeProjectsProve proves every invariant of the native projects:
// one of each kind checked in its language, every revert killed.
func TestNativeProjectsProve(t *testing.T) {
	for _, project := range []string{"crate", "cppproj"} {
		dir, err := filepath.Abs(filepath.Join("testdata", project))
		require.NoError(t, err)
		set, err := registry.Load(filepath.Join(dir, "guardlint.yaml"))
		require.NoError(t, err)
		rep, err := Run(set, Options{Dir: dir})
		require.NoError(t, err)
		assert.True(t, rep.Proved(), project)
		kinds := map[string]bool{}
		for _, ir := range rep.Invariants {
			assert.True(t, ir.Proved(), "%s %s", project, ir.Invariant.ID)
			kinds[string(ir.Invariant.Kind())] = true
		}
		lang := rep.Invariants[0].Invariant.Lang
		for _, k := range registry.Kinds {
			if slices.Contains(k.Langs, lang) {
				assert.True(t, kinds[string(k.Name)], "%s has no %s invariant", project, k.Name)
			}
		}
	}
	// -show prints a native mutant's function as the mutant has it.
	dir, err := filepath.Abs(filepath.Join("testdata", "crate"))
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	code := Main([]string{"-C", dir, "-show", "rs-submit-locked.Queue.submit.let-underscore"}, &stdout, &stderr, noEnv)
	assert.Equal(t, exitProved, code, stderr.String())
	assert.True(t, strings.HasPrefix(stdout.String(), "rs-submit-locked.Queue.submit.let-underscore: killed lib.rs:"), stdout.String())
	assert.Contains(t, stdout.String(), "src/lib.rs:")
	assert.Contains(t, stdout.String(), "let _ = self.device.lock().unwrap();")
}
