// Package prove proves guardlint's invariants by mutation. For each
// invariant it reverts the guarded code in memory, the ways reverts
// really happen (the call deleted, commented out, put under if false,
// after a return, moved into another function; the lock taken late, on one
// branch, in a nested scope; the owned field written elsewhere; the
// forbidden call back), and checks that the invariant fires at the
// mutated function for each revert. A mutant that does not parse or
// type-check is void and never counts as a kill.
//
// Mutants are generated per language and rule kind, as text edits held
// in memory and never written to the working tree: for Go at the
// positions go/types gives the guarded site (analyzers/golang/mutate), for C,
// C++, CUDA and Rust at the syntax nodes the tree-sitter front end
// reports (analyzers/treesitter/native). A language without a generator
// fails the run: its invariants are not proved.
package prove

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/invariants"
)

// Options say what to prove.
type Options struct {
	// Dir is the directory patterns are relative to.
	Dir string
	// Patterns select the packages, as for the standalone command.
	Patterns []string
	// Jobs is how many mutants are checked at once; 0 means GOMAXPROCS.
	Jobs int
	// Exact checks every mutant through driver.Run with an overlay
	// instead of re-checking only the mutated package: the reference
	// behaviour, about a second per mutant.
	Exact bool
	// Ops, when set, keeps only the mutants of these reverts (their Op
	// without the @line of a site).
	Ops []string
	// BuildFlags are passed to the go command that lists and loads the
	// packages (-tags).
	BuildFlags []string
	// Verbose receives progress, when set.
	Verbose io.Writer
	// Progress receives a line, rewritten in place, of the mutants
	// checked so far, the time elapsed and an estimate of the time
	// left; set it only to a terminal (IsTerminal).
	Progress io.Writer
	// patched is the sources with the set's patch chains applied, which
	// native mutants are laid over; set by Run.
	patched *overlay.Files
}

// Verdict is what became of a mutant.
type Verdict string

// Verdicts.
const (
	Killed   Verdict = "killed"   // the invariant fired at the mutated site
	Survived Verdict = "survived" // it did not: the invariant misses this revert
	Void     Verdict = "void"     // the mutant does not parse or compile, or cannot be built
)

// Result is the verdict on one mutant.
type Result struct {
	Mutant  *mutant.Mutant
	Verdict Verdict
	// Detail is where the invariant fired, why it survived, or why it
	// is void.
	Detail string
}

// InvariantReport is what the prover found for one invariant.
type InvariantReport struct {
	Invariant *invariants.Invariant
	// Failing are the invariant's findings on the unmutated code: an
	// invariant that does not hold (or cannot be verified) is not proved.
	Failing []core.Finding
	// Vacuous lists the reasons the invariant holds without constraining
	// any code.
	Vacuous []string
	// Skipped says why the invariant was not mutated at all.
	Skipped string
	Results []*Result
}

// Count returns how many of the invariant's mutants got verdict v.
func (r *InvariantReport) Count(v Verdict) int {
	n := 0
	for _, res := range r.Results {
		if res.Verdict == v {
			n++
		}
	}
	return n
}

// Proved reports whether the invariant holds, is not vacuous, and every
// mutant that could be built was killed, with at least one killed.
func (r *InvariantReport) Proved() bool {
	return len(r.Failing) == 0 && len(r.Vacuous) == 0 && r.Skipped == "" &&
		r.Count(Survived) == 0 && r.Count(Killed) > 0
}

// Report is the outcome of a run.
type Report struct {
	// Set is the invariants proved.
	Set        *invariants.Set
	Invariants []*InvariantReport
	Elapsed    time.Duration
}

// Proved reports whether every invariant proved itself.
func (r *Report) Proved() bool {
	for _, ir := range r.Invariants {
		if !ir.Proved() {
			return false
		}
	}
	return true
}

// Mutants returns every result, in report order.
func (r *Report) Mutants() []*Result {
	var out []*Result
	for _, ir := range r.Invariants {
		out = append(out, ir.Results...)
	}
	return out
}

// Run proves the invariants of set over the packages of opts.
func Run(set *invariants.Set, opts Options) (*Report, error) {
	start := time.Now()
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"./..."}
	}
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.GOMAXPROCS(0)
	}
	listed, err := list(set, opts)
	if err != nil {
		return nil, err
	}
	// The baseline run and the load of the targets' packages are
	// independent; run them together.
	var (
		base    *driver.Result
		baseErr error
		wg      sync.WaitGroup
	)
	wg.Go(func() {
		base, baseErr = driver.Run(set, driver.Options{Dir: opts.Dir, Patterns: opts.Patterns, BuildFlags: opts.BuildFlags})
	})
	pkgs, err := load(set, listed, opts)
	wg.Wait()
	if baseErr != nil {
		return nil, baseErr
	}
	if err != nil {
		return nil, err
	}
	progress(opts, "baseline and load", start)

	rep := &Report{Set: set}
	generators := map[invariants.Lang]generator{invariants.LangGo: pkgs}
	// Native code is mutated and checked as the baseline saw it, with the
	// patch chains applied.
	patched := driver.PatchedView(set)
	for _, l := range invariants.Langs {
		if l.TreeSitter() {
			generators[l] = nativeCode{view: patched}
		}
	}
	var todo []*Result
	for _, inv := range set.Invariants {
		ir := &InvariantReport{Invariant: inv}
		rep.Invariants = append(rep.Invariants, ir)
		for _, f := range base.Findings {
			if f.ID == inv.ID {
				ir.Failing = append(ir.Failing, f)
			}
		}
		gen := generators[inv.Lang]
		if gen == nil {
			ir.Skipped = fmt.Sprintf("no mutant generator for lang %s", inv.Lang)
			continue
		}
		if len(ir.Failing) > 0 {
			ir.Skipped = "the invariant does not hold on the unmutated code"
			continue
		}
		var ms []*mutant.Mutant
		ms, ir.Vacuous = gen.mutants(inv)
		if len(opts.Ops) > 0 {
			ms = slices.DeleteFunc(ms, func(m *mutant.Mutant) bool {
				op, _, _ := strings.Cut(m.Op, "@")
				return !slices.Contains(opts.Ops, op)
			})
		}
		if len(ms) == 0 && len(ir.Vacuous) == 0 {
			ir.Skipped = "none of its packages is among the packages of this run"
			if inv.Lang.TreeSitter() {
				ir.Skipped = "no revert applies to it"
			}
		}
		for _, m := range ms {
			res := &Result{Mutant: m}
			if m.Void != "" {
				res.Verdict, res.Detail = Void, m.Void
			}
			ir.Results = append(ir.Results, res)
			todo = append(todo, res)
		}
	}
	progress(opts, fmt.Sprintf("generate %d mutants", len(todo)), start)
	opts.patched = patched
	if err := checkAll(set, todo, opts); err != nil {
		return nil, err
	}
	progress(opts, "check", start)
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// generator is a language's mutant generator. Go's is the packages
// loaded with go/packages; the tree-sitter languages' (nativeCode) parses
// each invariant's files, and its mutants are checked by parsing the
// files they change again, in memory.
type generator interface {
	// mutants returns the reverts of an invariant, and the reasons it is
	// vacuous.
	mutants(inv *invariants.Invariant) ([]*mutant.Mutant, []string)
}

// checkAll decides every mutant that is not void yet, opts.Jobs at a time.
func checkAll(set *invariants.Set, todo []*Result, opts Options) error {
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
		next  = make(chan *Result)
	)
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	suite := driver.NewSuite(set)
	defer collectLess()()
	pending := 0
	for _, res := range todo {
		if res.Verdict == "" {
			pending++
		}
	}
	meter := newMeter(opts.Progress, pending)
	for range jobs {
		wg.Go(func() {
			for res := range next {
				var fs []core.Finding
				var err error
				switch {
				case res.Mutant.Invariant.Lang.TreeSitter():
					fs = nativeFindings(res.Mutant, opts.patched, opts.Exact)
				case opts.Exact:
					fs, err = exactFindings(set, res.Mutant, opts)
				default:
					fs, err = findings(suite, res.Mutant.Package.(*mutate.Package), res.Mutant)
				}
				switch {
				case isVoid(err):
					res.Verdict, res.Detail = Void, voidReason(err)
				case err != nil:
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("mutant %s: %w", res.Mutant.Name, err)
					}
					mu.Unlock()
				default:
					res.Verdict, res.Detail = verdict(res.Mutant, fs)
				}
				meter.tick()
			}
		})
	}
	for _, res := range todo {
		if res.Verdict == "" {
			next <- res
		}
	}
	close(next)
	wg.Wait()
	return first
}

// collectLess raises the garbage collector's target for the check phase
// and returns what restores it. Each mutant's check allocates a package's
// worth of syntax and type information and drops it once the mutant is
// decided, while the heap that lives across mutants is the one load; at
// the default target (GOGC=100) collecting that garbage took about a
// fifth of the phase's CPU. 400 trades about 100 MB on this repository's
// invariants for it (docs/benchmarks.md). A GOGC the user sets is kept.
func collectLess() func() {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(old) }
}

// progress prints a phase's time when verbose.
func progress(opts Options, what string, start time.Time) {
	if opts.Verbose != nil {
		fmt.Fprintf(opts.Verbose, "guardlint prove: %-24s %7.0fms\n", what, float64(time.Since(start).Microseconds())/1000)
	}
}
