package fix

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/patch"
	"github.com/guardlint/guardlint/invariants"
)

// Options say what to check a revert against.
type Options struct {
	// Dir is the directory patterns are relative to, in the repository.
	Dir string
	// Patterns select the Go packages, as for the standalone command.
	Patterns []string
	// Paths limit the change to these pathspecs (relative to Dir).
	Paths []string
	// Jobs is how many reverted trees are checked at once; 0 means
	// GOMAXPROCS.
	Jobs int
	// NoHunks skips the check of each hunk alone: only the whole revert
	// is checked.
	NoHunks bool
	// BuildFlags are passed to the go command that lists and loads the
	// packages (-tags).
	BuildFlags []string
	// Tests makes suggest read the test files of Go packages and
	// propose from code in tests, benches and #[cfg(test)] too.
	Tests bool
	// Verbose receives progress, when set.
	Verbose io.Writer
}

// Verdict is what became of a revert or of a hunk's removal.
type Verdict string

// Verdicts.
const (
	// Caught: an invariant fires on the reverted tree.
	Caught Verdict = "caught"
	// Missed: the whole revert passes every invariant.
	Missed Verdict = "missed"
	// Uncovered: removing the hunk alone passes every invariant.
	Uncovered Verdict = "uncovered"
	// Void: the reverted tree does not type-check, so no invariant was
	// asked; the compiler catches it, guardlint proves nothing about it.
	Void Verdict = "void"
	// NoCode: the hunk adds only comments or blank lines.
	NoCode Verdict = "no code"
	// Declaration, Include, Test and Documentation: a hunk outside every
	// function body, of #include/use/import lines, of test code, or of
	// comments, whose removal alone no invariant notices; only a code
	// hunk is uncovered (classify).
	Declaration   Verdict = Verdict(ClassDeclaration)
	Include       Verdict = Verdict(ClassInclude)
	Test          Verdict = Verdict(ClassTest)
	Documentation Verdict = Verdict(ClassDocumentation)
)

// Report is the outcome of proving a revert.
type Report struct {
	Change *Change
	// Failing are the findings on the work tree itself: invariants that
	// fail before anything is reverted prove nothing about a revert.
	Failing []core.Finding
	Verdict Verdict
	// Findings are the findings on the reverted tree, or Detail says why
	// it is void.
	Findings []core.Finding
	Detail   string
	// Skipped are the files of the change that were not undone, or
	// whose hunks were not checked one by one.
	Skipped []Skip
	Hunks   []*HunkResult
	Elapsed time.Duration
}

// HunkResult is the verdict on removing one hunk of the change alone.
type HunkResult struct {
	File    string
	Hunk    *patch.Hunk
	Verdict Verdict
	// By are the ids of the invariants that fire, for Caught.
	By []string
	// Detail says why the hunk is void.
	Detail string
}

// Catchers returns the ids of the invariants that fire on the revert,
// sorted, with "" for an error of the run as a whole.
func (r *Report) Catchers() []string { return ids(r.Findings) }

// Uncovered returns the hunks whose removal no invariant catches.
func (r *Report) Uncovered() []*HunkResult {
	var out []*HunkResult
	for _, h := range r.Hunks {
		if h.Verdict == Uncovered {
			out = append(out, h)
		}
	}
	return out
}

// OK reports whether the revert is caught and, unless allowUncovered,
// every hunk the change added is caught on its own (or is void or adds
// no code).
func (r *Report) OK(allowUncovered bool) bool {
	if len(r.Failing) > 0 || r.Verdict != Caught {
		return false
	}
	return allowUncovered || len(r.Uncovered()) == 0
}

// Prove reverts rev in memory over the work tree and checks the
// invariants of set on the result, then on the removal of each hunk the
// change added, alone. The invariants files of set are never reverted.
func Prove(set *invariants.Set, rev string, opts Options) (*Report, error) {
	if chain, i := patchOf(set, opts.Dir, rev); chain != nil {
		return provePatch(set, chain, i, opts)
	}
	start := time.Now()
	change, err := Read(opts.Dir, rev, opts.Paths)
	if err != nil {
		return nil, err
	}
	rep := &Report{Change: change}
	r := newReverter(change, set)
	if failing, err := baseline(rep, set, opts, start); err != nil {
		return nil, err
	} else if failing {
		return rep, nil
	}
	progress(opts, "baseline", start)
	view, skipped, err := r.revert()
	if err != nil {
		return nil, fmt.Errorf("revert of %s: %w", rev, err)
	}
	rep.Skipped = skipped
	rep.Verdict, rep.Findings, rep.Detail = check(set, opts, view)
	if rep.Verdict == "" {
		rep.Verdict = Missed
	}
	progress(opts, "revert", start)
	if opts.NoHunks {
		rep.Elapsed = time.Since(start)
		return rep, nil
	}
	rep.Hunks, rep.Skipped = hunks(r, rep.Skipped)
	var wg sync.WaitGroup
	next := make(chan *HunkResult)
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	var first error
	for range jobs {
		wg.Go(func() {
			for h := range next {
				if err := checkHunk(r, set, opts, h); err != nil {
					mu.Lock()
					first = cmpErr(first, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, h := range rep.Hunks {
		next <- h
	}
	close(next)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	progress(opts, fmt.Sprintf("%d hunks", len(rep.Hunks)), start)
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// newReverter returns a reverter that keeps the invariants files of set.
func newReverter(change *Change, set *invariants.Set) *reverter {
	kept := map[string]bool{}
	for _, f := range set.Files {
		abs, err := filepath.Abs(f.Path)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(change.Root, abs); err == nil {
			kept[filepath.ToSlash(rel)] = true
		}
	}
	return &reverter{change: change, kept: func(rel string) bool { return kept[rel] }}
}

// hunks lists the hunks of the change that add lines to a source file,
// and adds the files left out to skipped.
func hunks(r *reverter, skipped []Skip) ([]*HunkResult, []Skip) {
	var out []*HunkResult
	left := map[string]bool{}
	for _, s := range skipped {
		left[s.File] = true
	}
	for _, f := range r.change.Patch.Files {
		if left[f.Name()] || f.IsDelete {
			continue
		}
		if sourceLang(f.Name()) == "" || testPath(f.Name()) {
			why := whyNotSource
			if testPath(f.Name()) || filepath.Ext(f.Name()) == ".go" {
				why = whyTest
			}
			skipped = append(skipped, Skip{File: f.Name(), Why: why})
			continue
		}
		for _, h := range f.Hunks {
			if h.Added() > 0 {
				out = append(out, &HunkResult{File: f.Name(), Hunk: h})
			}
		}
	}
	return out, skipped
}

// checkHunk decides one hunk: its removal alone must make an invariant
// fire.
func checkHunk(r *reverter, set *invariants.Set, opts Options, h *HunkResult) error {
	var f *patch.File
	for _, pf := range r.change.Patch.Files {
		if pf.Name() == h.File {
			f = pf
		}
	}
	view, err := r.revertHunk(f, h.Hunk)
	if err != nil {
		if isApplyError(err) {
			h.Verdict, h.Detail = Void, err.Error()
			return nil
		}
		return err
	}
	abs := filepath.Join(r.change.Root, filepath.FromSlash(h.File))
	before, err := (*overlay.Files)(nil).ReadFile(abs)
	if err != nil {
		return err
	}
	after, err := view.ReadFile(abs)
	if err != nil {
		after = nil // the hunk was the whole file
	}
	if changed, _ := codeChanged(sourceLang(h.File), abs, before, after); !changed {
		h.Verdict = NoCode
		return nil
	}
	v, fs, detail := check(set, opts, view)
	switch v {
	case Caught:
		h.Verdict, h.By = Caught, ids(fs)
	case Void:
		h.Verdict, h.Detail = Void, detail
	default:
		// Only a code hunk can be uncovered: a declaration's, an
		// include's or a test's removal that no invariant notices is said
		// to be what it is (the compiler or the tests answer for it).
		h.Verdict = Uncovered
		if c := classify(sourceLang(h.File), h.File, before, h.Hunk, true); c != ClassCode {
			h.Verdict = Verdict(c)
		}
	}
	return nil
}

// baseline checks the invariants on the tree as it is. When any fails
// there is nothing to revert against: the report says which, and failing
// is true.
func baseline(rep *Report, set *invariants.Set, opts Options, start time.Time) (failing bool, err error) {
	base, err := runSet(set, opts, nil)
	if err != nil {
		return false, err
	}
	if len(base) > 0 {
		rep.Failing = base
		rep.Elapsed = time.Since(start)
		return true, nil
	}
	return false, nil
}

// runSet runs the invariants over a view of the work tree.
func runSet(set *invariants.Set, opts Options, view *overlay.Files) ([]core.Finding, error) {
	res, err := driver.Run(set, driver.Options{Dir: opts.Dir, Patterns: opts.Patterns, Files: view, BuildFlags: opts.BuildFlags})
	if err != nil {
		return nil, err
	}
	return res.Findings, nil
}

// check runs the invariants over a view of the work tree: Caught with
// the findings when any fires, Void with the reason when the view does
// not type-check, "" when every invariant holds.
func check(set *invariants.Set, opts Options, view *overlay.Files) (Verdict, []core.Finding, string) {
	res, err := driver.Run(set, driver.Options{Dir: opts.Dir, Patterns: opts.Patterns, Files: view, BuildFlags: opts.BuildFlags})
	if err != nil {
		return Void, nil, overlayNames(err.Error(), view, opts.Dir)
	}
	if len(res.Findings) == 0 {
		return "", nil, ""
	}
	return Caught, res.Findings, ""
}

// tempOverlay matches the names go/packages gives overlay files in its
// error messages: a temporary directory, a number, the file's own name.
var tempOverlay = regexp.MustCompile(`\S*gocommand-\d+/\d+-([^:\s]+\.go)`)

// overlayNames puts the overlay's own paths (relative to dir) back into
// a type-checking error in place of go/packages' temporary copies.
func overlayNames(msg string, view *overlay.Files, dir string) string {
	replaced, _ := view.Paths()
	return tempOverlay.ReplaceAllStringFunc(msg, func(m string) string {
		base := tempOverlay.FindStringSubmatch(m)[1]
		for _, p := range replaced {
			if filepath.Base(p) == base {
				return core.RelPath(dir, p)
			}
		}
		return m
	})
}

// ids returns the distinct invariant ids of findings, sorted.
func ids(fs []core.Finding) []string {
	var out []string
	for _, f := range fs {
		if !slices.Contains(out, f.ID) {
			out = append(out, f.ID)
		}
	}
	slices.Sort(out)
	return out
}

// progress prints a phase's time when verbose.
func progress(opts Options, what string, start time.Time) {
	if opts.Verbose != nil {
		fmt.Fprintf(opts.Verbose, "guardlint: %-16s %7.0fms\n", what, float64(time.Since(start).Microseconds())/1000)
	}
}
