package fix

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/patch"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repository returns the root of this repository and its invariants,
// skipping the test when the commits it reverts are not in the clone (a
// shallow clone: .ci/run fetches the history first).
func repository(t *testing.T, commits ...string) (string, *invariants.Set) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the revert tests read this repository's history with git")
	}
	if out, err := git(root, "rev-parse", "--is-shallow-repository"); err != nil {
		t.Skipf("%s is not a git work tree (%v): the revert tests read this repository's history", root, err)
	} else if strings.TrimSpace(out) == "true" {
		t.Skip("this clone is shallow: the revert tests need the history (git fetch --unshallow)")
	}
	for _, c := range commits {
		if _, err := git(root, "cat-file", "-e", c+"^{commit}"); err != nil {
			t.Skipf("commit %s is not in this clone: the revert tests need main's history (git fetch origin main)", c)
		}
	}
	set, err := registry.Load(filepath.Join(root, "guardlint.yaml"))
	require.NoError(t, err)
	return root, set
}

// The fixes of the runtime's history whose revert the invariants must
// catch. The retain, the registry's lock and the evaluation lock arrived
// with the runtime itself (0c6a029) rather than as fixes of their own, so
// these are the fix commits the history has: the streams that register
// without the evaluation lock (the registry's lock and Stream.Eval's
// evalMu, which the lock-order invariant that evalMu is not taken again
// names too), the CPU lane lock, and the closed-device paths of Wait and
// endActiveEncoder. The last two are reverted in the file that holds the
// fix: their other files (a comment of device.go, the CUDA backend) were
// changed since and do not reverse-apply. The first is reverted in its
// code and the registry's test: the streams' test it added counted a
// command buffer's completion events, which command buffers no longer
// own, and its docs were rewritten since.
var fixes = []struct {
	rev   string
	paths []string
	by    []string
}{
	{"ccdf0d3", []string{"runtime/backend.go", "runtime/device.go", "runtime/devices_test.go", "runtime/eval.go", "runtime/registry.go", "runtime/stream.go"}, []string{"eval-holds-evalMu", "evalMu-not-reentered", "registry-writes-write-locked"}},
	{"e3d990f", []string{"runtime/backend_cpu.go"}, []string{"cpu-enqueue-pushes", "cpu-lane-closed-by-stop", "cpu-lane-push-locked"}},
	{"86fcbce", []string{"runtime/commandbuffer.go"}, []string{"end-encoder-checks-device", "wait-checks-device-first", "wait-on-closed-device-resets"}},
}

func TestRevertsOfFixesAreCaught(t *testing.T) {
	root, set := repository(t, "ccdf0d3", "e3d990f", "86fcbce")
	for _, fx := range fixes {
		t.Run(fx.rev, func(t *testing.T) {
			rep, err := Prove(set, fx.rev, Options{Dir: root, Paths: fx.paths})
			requireApplies(t, fx.rev, err)
			require.Empty(t, rep.Failing)
			assert.Equal(t, Caught, rep.Verdict, "%v", findingLines(rep.Findings, root))
			assert.Equal(t, fx.by, rep.Catchers())
			var out bytes.Buffer
			rep.Print(&out, root)
			assert.Contains(t, out.String(), "caught by "+plural(len(fx.by), "invariant")+": "+strings.Join(fx.by, ", "))
			for _, h := range rep.Hunks {
				assert.NotEqual(t, Uncovered, h.Verdict, "%s:%s is uncovered", h.File, hunkRange(h.Hunk))
			}
			assert.True(t, rep.OK(false), out.String())
			for _, s := range rep.Skipped {
				if s.File == "invariants/runtime.yaml" {
					assert.Equal(t, whyInvariants, s.Why, "the invariants file is never reverted")
				}
			}
		})
	}
}

// Commits that change no guarded behaviour: a comment, a benchmark of the
// CUDA driver calls, the tests' helpers (reverted in the code it moved,
// not in the README line it touched). Their reverts pass, and prove
// --revert says so.
func TestRevertsOfUnguardedChangesPass(t *testing.T) {
	root, set := repository(t, "7b3be16", "887e223", "51edae9")
	for _, c := range []struct {
		rev   string
		paths []string
	}{
		{"7b3be16", nil},
		{"887e223", nil},
		{"51edae9", []string{"gpu_test/goroutines_test.go", "gpu_test/helpers_test.go", "gpu_test/kernelpaths_test.go", "runtime/badinput_test.go", "runtime/bench_test.go", "runtime/concurrency_test.go", "runtime/helpers_test.go", "runtime/kernels_test.go", "runtime/paths_test.go"}},
	} {
		t.Run(c.rev, func(t *testing.T) {
			rep, err := Prove(set, c.rev, Options{Dir: root, Paths: c.paths, NoHunks: true})
			requireApplies(t, c.rev, err)
			assert.Equal(t, Missed, rep.Verdict, "%v", findingLines(rep.Findings, root))
			assert.False(t, rep.OK(true))
		})
	}
}

// requireApplies fails the test on an error, saying what to do when the
// revert no longer applies: the code the commit changed was rewritten
// since, at the file and hunk the error names.
func requireApplies(t *testing.T, rev string, err error) {
	t.Helper()
	if isApplyError(err) {
		t.Fatalf("the revert of %s no longer applies to the work tree: %v\nThe lines it changed were edited since: limit its paths to the files that still hold the change, or choose another commit (see docs/fixes.md)", rev, err)
	}
	require.NoError(t, err)
}

// A hunk removed alone that no invariant catches is reported, and fails
// the run unless uncovered hunks are allowed.
func TestUncoveredHunkOfAFix(t *testing.T) {
	root, set := repository(t, "e3d990f")
	// Without the invariant on enqueue, the hunk that routes enqueue
	// through push is covered by nothing.
	var kept []*invariants.Invariant
	for _, inv := range set.Invariants {
		if inv.ID != "cpu-enqueue-pushes" {
			kept = append(kept, inv)
		}
	}
	set = &invariants.Set{Files: set.Files, Invariants: kept}
	rep, err := Prove(set, "e3d990f", Options{Dir: root, Paths: []string{"runtime/backend_cpu.go"}})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
	require.Len(t, rep.Uncovered(), 1)
	assert.Equal(t, "runtime/backend_cpu.go", rep.Uncovered()[0].File)
	assert.Equal(t, "215 (+1 -2)", hunkRange(rep.Uncovered()[0].Hunk))
	assert.False(t, rep.OK(false))
	assert.True(t, rep.OK(true))
}

// A revert whose hunks do not reverse-apply any more fails with the file
// and hunk named, and never checks a half-reverted tree.
func TestRevertThatDoesNotApply(t *testing.T) {
	root, set := repository(t, "e3d990f")
	_, err := Prove(set, "e3d990f", Options{Dir: root, NoHunks: true})
	var he *patch.HunkError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, "runtime/device.go", he.File)
	assert.Equal(t, 1, he.Hunk.Index)
	assert.Contains(t, err.Error(), "runtime/device.go: hunk 1 (@@ -236,7 +236,8 @@, patch line 79) does not reverse-apply")
}
