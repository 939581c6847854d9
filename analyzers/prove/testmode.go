package prove

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"
)

// TestOptions configure --test: a command run per mutant on a copy of the
// tree (see treeRoot).
type TestOptions struct {
	// Command is run through sh -c in the copy, in the directory that
	// corresponds to Dir. It sees GUARDLINT_MUTANT (the mutant's name, or
	// "baseline"), GUARDLINT_MUTANT_OUT (Out) and GUARDLINT_MUTANT_DIR
	// (the copy's root), so that it can, for example, build a test
	// binary per mutant to run on another machine:
	//   go test -c -o "$GUARDLINT_MUTANT_OUT/$GUARDLINT_MUTANT.test" ./gpu_test
	// It exits 125 when it cannot build a mutant (exitNotBuilt):
	//   cargo build --tests -q || exit 125; cargo test -q
	Command string
	// Dir is where the run started.
	Dir string
	// Timeout limits each run of Command.
	Timeout time.Duration
	// Out is the directory given to Command; empty means a temporary one.
	Out string
	// Jobs is how many mutants are tested at once, each in its own copy.
	Jobs int
}

// Outcome is what the test command made of a mutant.
type Outcome string

// Outcomes.
const (
	Detected Outcome = "detected"  // the command failed
	Missed   Outcome = "missed"    // the command passed
	TimedOut Outcome = "timeout"   // the command ran past the limit (counted as detected)
	NotBuilt Outcome = "not-built" // the command exited with exitNotBuilt: the mutant does not build
)

// exitNotBuilt is the exit status by which the command says that it could
// not build the mutant, as for `git bisect run`: the mutant is then void
// for the command, neither detected nor missed. Go mutants that the
// prover runs through --test always type-check; C, C++, CUDA and Rust
// mutants are checked for syntax only, and a compiler may reject one
// (a statement moved away from the locals it uses), which must not count
// as a test that caught the revert.
const exitNotBuilt = 125

// TestResult is the command's outcome on one mutant.
type TestResult struct {
	Result  *Result
	Outcome Outcome
	Elapsed time.Duration
	// Tail is the end of the command's output when it failed.
	Tail string
}

// TestReport is the discrimination matrix of the functional guards.
type TestReport struct {
	Command  string
	Out      string
	Baseline time.Duration
	Copy     time.Duration
	Results  []*TestResult
	Elapsed  time.Duration
}

// RunTests runs the command on a copy of the tree for the unmutated
// code, which must pass, then for every mutant that is not void. The
// working tree is never written: each worker copies the tree once
// (tracked and untracked files that git does not ignore; everything but
// .git outside git), writes a mutant's files into its copy, runs the
// command and puts the original files back.
func RunTests(rep *Report, o TestOptions, log io.Writer) (*TestReport, error) {
	start := time.Now()
	root, err := treeRoot(rep, o.Dir)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(root, o.Dir)
	if err != nil {
		return nil, err
	}
	if o.Jobs <= 0 {
		o.Jobs = 1
	}
	if o.Out == "" {
		if o.Out, err = os.MkdirTemp("", "guardlint-mutants-"); err != nil {
			return nil, err
		}
		// A directory guardlint made goes on every way out (an error, an
		// interrupt, the end) unless the command wrote into it: then the
		// report names it and it is the user's.
		defer removeIfEmpty(o.Out)
	} else if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	if o.Out, err = filepath.Abs(o.Out); err != nil {
		return nil, err
	}
	files, err := moduleFiles(root)
	if err != nil {
		return nil, err
	}
	// An interrupt kills the running commands and stops the workers, so
	// that the copies are removed on the way out.
	stopped, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tr := &TestReport{Command: o.Command, Out: o.Out}
	copies := make([]string, o.Jobs)
	for i := range copies {
		t := time.Now()
		copies[i], err = copyModule(root, files)
		if copies[i] != "" {
			// Also a copy that failed half-way.
			defer os.RemoveAll(copies[i])
		}
		if err != nil {
			return nil, err
		}
		tr.Copy = time.Since(t)
	}
	t := time.Now()
	base := run(stopped, o, copies[0], rel, "baseline")
	tr.Baseline = time.Since(t)
	if base.Outcome != Missed {
		return nil, fmt.Errorf("--test command %s on the unmutated tree: %s\n%s", base.Outcome, o.Command, base.Tail)
	}
	for _, res := range rep.Mutants() {
		if res.Verdict != Void {
			tr.Results = append(tr.Results, &TestResult{Result: res})
		}
	}
	next := make(chan *TestResult)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for _, dir := range copies {
		wg.Go(func() {
			for r := range next {
				if stopped.Err() != nil {
					continue // interrupted: drain without running
				}
				restore, err := apply(root, dir, r.Result.Mutant)
				if err == nil {
					got := run(stopped, o, dir, rel, r.Result.Mutant.Name)
					r.Outcome, r.Elapsed, r.Tail = got.Outcome, got.Elapsed, got.Tail
					err = restore()
				}
				if err != nil {
					mu.Lock()
					first = errors.Join(first, err)
					mu.Unlock()
				}
				if log != nil {
					fmt.Fprintf(log, "guardlint prove --test: %-8s %s (%.1fs)\n", r.Outcome, r.Result.Mutant.Name, r.Elapsed.Seconds())
				}
			}
		})
	}
	for _, r := range tr.Results {
		next <- r
	}
	close(next)
	wg.Wait()
	tr.Elapsed = time.Since(start)
	if stopped.Err() != nil {
		return nil, errors.New("--test interrupted")
	}
	return tr, first
}

// removeIfEmpty removes dir when it holds nothing.
func removeIfEmpty(dir string) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
		os.Remove(dir)
	}
}

// run runs the command once in a copy, until the limit passes or parent
// is done.
func run(parent context.Context, o TestOptions, copyDir, rel, name string) *TestResult {
	ctx, cancel := context.WithTimeout(parent, o.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", o.Command)
	cmd.Dir = filepath.Join(copyDir, rel)
	cmd.Env = append(os.Environ(),
		"GUARDLINT_MUTANT="+name,
		"GUARDLINT_MUTANT_OUT="+o.Out,
		"GUARDLINT_MUTANT_DIR="+copyDir,
	)
	// The command's own children (go test runs test binaries) are killed
	// with it when the limit passes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r := &TestResult{Elapsed: time.Since(start), Outcome: Missed}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.Outcome = TimedOut
	case errors.As(err, &exit) && exit.ExitCode() == exitNotBuilt:
		r.Outcome = NotBuilt
	case err != nil:
		r.Outcome = Detected
	}
	if r.Outcome != Missed {
		r.Tail = tail(out.String(), 2000)
	}
	return r
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// Print writes the discrimination matrix: for each mutant, whether the
// invariant killed it and whether the command detected it, then how the
// reverts split between the two, and what it cost.
func (t *TestReport) Print(w io.Writer) {
	fmt.Fprintf(w, "\n--test %s\n", t.Command)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  invariant\ttarget\trevert\tinvariant\ttest\n")
	var both, invOnly, testOnly, neither, unbuilt int
	for _, r := range t.Results {
		m := r.Result.Mutant
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", m.Invariant.ID, m.Target, m.Op, r.Result.Verdict, r.Outcome)
		killed, caught := r.Result.Verdict == Killed, r.Outcome != Missed
		switch {
		case r.Outcome == NotBuilt:
			unbuilt++
		case killed && caught:
			both++
		case killed:
			invOnly++
		case caught:
			testOnly++
		default:
			neither++
		}
	}
	tw.Flush()
	var total time.Duration
	for _, r := range t.Results {
		total += r.Elapsed
	}
	mean := time.Duration(0)
	if len(t.Results) > 0 {
		mean = total / time.Duration(len(t.Results))
	}
	fmt.Fprintf(w, "\n%d mutants: %d caught by both, %d by the invariant only, %d by the command only, %d by neither",
		len(t.Results), both, invOnly, testOnly, neither)
	if unbuilt > 0 {
		fmt.Fprintf(w, "; %d not built (exit %d)", unbuilt, exitNotBuilt)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "cost: copy %.1fs, baseline %.1fs, %.1fs per mutant on average, %.1fs in all; outputs in %s\n",
		t.Copy.Seconds(), t.Baseline.Seconds(), mean.Seconds(), t.Elapsed.Seconds(), t.Out)
}
