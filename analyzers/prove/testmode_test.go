package prove

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// timeout is the per-mutant limit of the tests' commands, far above what
// they need.
const timeout = time.Minute

// TestTextGuardDiscrimination runs the kind of guard guardlint replaces,
// a grep for the call's text, as the --test command: it detects the
// deleted call and misses the commented, disabled and quoted ones, which
// the invariant kills.
func TestTextGuardDiscrimination(t *testing.T) {
	rep := prove(t, "guardlint.yaml")
	only(rep, "encoder-retained")
	dir, _ := filepath.Abs(mod)
	out := t.TempDir()
	tr, err := RunTests(rep, TestOptions{
		Command: `echo "$GUARDLINT_MUTANT_DIR" > "$GUARDLINT_MUTANT_OUT/$GUARDLINT_MUTANT"; grep -q 'enc.retain()' p/p.go`,
		Dir:     dir,
		Timeout: timeout,
		Out:     out,
	}, nil)
	require.NoError(t, err)
	outcome := map[string]Outcome{}
	for _, r := range tr.Results {
		outcome[r.Result.Mutant.Op] = r.Outcome
		assert.Equal(t, Killed, r.Result.Verdict, r.Result.Mutant.Name)
		// The command ran in a copy, named by the environment.
		copyDir, err := os.ReadFile(filepath.Join(out, r.Result.Mutant.Name))
		require.NoError(t, err, r.Result.Mutant.Name)
		assert.NotEqual(t, dir, string(bytes.TrimSpace(copyDir)))
	}
	assert.Equal(t, Detected, outcome[mutant.OpDelete])
	assert.Equal(t, Detected, outcome[mutant.OpWrongRecv], "new(Buffer).retain() does not read enc.retain()")
	for _, op := range []string{mutant.OpLineComment, mutant.OpBlockComment, mutant.OpIfFalse, mutant.OpConstFalse, mutant.OpAfterReturn, mutant.OpMoved, mutant.OpClosure, mutant.OpString} {
		assert.Equal(t, Missed, outcome[op], op)
	}
	_, err = os.Stat(filepath.Join(out, "baseline"))
	assert.NoError(t, err, "the unmutated module runs first")
	var buf bytes.Buffer
	tr.Print(&buf)
	assert.True(t, hasLine(buf.String(), "encoder-retained", "block-comment", "killed", "missed"), buf.String())
	assert.Contains(t, buf.String(), "caught by both")
}

func TestTestTimeout(t *testing.T) {
	rep := prove(t, "guardlint.yaml")
	only(rep, "reset-does-not-release")
	dir, _ := filepath.Abs(mod)
	tr, err := RunTests(rep, TestOptions{
		Command: `[ "$GUARDLINT_MUTANT" = baseline ] || sleep 30`,
		Dir:     dir,
		Timeout: 300 * time.Millisecond,
		Jobs:    2,
		Out:     t.TempDir(),
	}, nil)
	require.NoError(t, err)
	require.NotEmpty(t, tr.Results)
	for _, r := range tr.Results {
		assert.Equal(t, TimedOut, r.Outcome, r.Result.Mutant.Name)
		// Not a speed figure: a run that waited for its children would
		// take the 30 s they sleep.
		assert.Less(t, r.Elapsed, 30*time.Second, "the command's children are killed at the limit")
	}
}

func TestTestBaselineMustPass(t *testing.T) {
	rep := prove(t, "proved.yaml")
	dir, _ := filepath.Abs(mod)
	_, err := RunTests(rep, TestOptions{Command: "exit 3", Dir: dir, Timeout: timeout, Out: t.TempDir()}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unmutated tree")
}

// TestTestNotBuilt checks the command's way to say that a mutant does
// not build: exit status 125 makes it neither detected nor missed.
func TestTestNotBuilt(t *testing.T) {
	rep := prove(t, "guardlint.yaml")
	only(rep, "encoder-retained")
	dir, _ := filepath.Abs(mod)
	tr, err := RunTests(rep, TestOptions{
		Command: `[ "$GUARDLINT_MUTANT" = baseline ] || exit 125`,
		Dir:     dir,
		Timeout: timeout,
		Out:     t.TempDir(),
	}, nil)
	require.NoError(t, err)
	require.NotEmpty(t, tr.Results)
	for _, r := range tr.Results {
		assert.Equal(t, NotBuilt, r.Outcome, r.Result.Mutant.Name)
	}
	var buf bytes.Buffer
	tr.Print(&buf)
	assert.Contains(t, buf.String(), "0 by the command only, 0 by neither; ")
	assert.Contains(t, buf.String(), " not built (exit 125)")
}

// TestTestLeavesNoTempDirs checks that --test removes every directory it
// made on each way out (a run, an unmutated tree that fails), and keeps
// the mutants' output directory only when the command wrote into it.
func TestTestLeavesNoTempDirs(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	rep := prove(t, "guardlint.yaml")
	only(rep, "encoder-retained")
	dir, _ := filepath.Abs(mod)
	left := func() []string {
		entries, err := os.ReadDir(tmp)
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}

	_, err := RunTests(rep, TestOptions{Command: "grep -q 'enc.retain()' p/p.go", Dir: dir, Timeout: timeout, Jobs: 2}, nil)
	require.NoError(t, err)
	assert.Empty(t, left(), "a run leaves nothing behind")

	_, err = RunTests(rep, TestOptions{Command: "exit 3", Dir: dir, Timeout: timeout}, nil)
	require.Error(t, err)
	assert.Empty(t, left(), "a failing unmutated tree leaves nothing behind")

	tr, err := RunTests(rep, TestOptions{Command: `touch "$GUARDLINT_MUTANT_OUT/$GUARDLINT_MUTANT"`, Dir: dir, Timeout: timeout}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Base(tr.Out)}, left(), "the output the command wrote is kept")
}
