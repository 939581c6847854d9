package fix

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/patch"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/mod/modfile"
)

// Suggestion is the outcome of `guardlint suggest`.
type Suggestion struct {
	Change *Change
	// Dir is the directory the invariants are written for: their
	// `files` globs are relative to it.
	Dir string
	// Proven are the candidates that hold now and fire on the revert.
	Proven []*candidate
	// Rejected says, for every other candidate, why it is not printed.
	Rejected []string
	// Notes are what could not be looked at (a revert that does not
	// type-check leaves out what the fix removed).
	Notes []string
	// Left are the packages or directories that were not loaded, with
	// the reason.
	Left []string
	// Why says in one line why nothing is proposed, when nothing is.
	Why string
	// Facts are what the front ends read of the fix, which the kinds
	// propose from (Kind.Suggest through registry.Suggest).
	Facts *core.Change
	// hunks are the hunks the proven candidates come from (rank).
	hunks map[*candidate]*hunkRef
}

// Suggest proposes invariants from the diff of rev. The Go and the
// tree-sitter front ends read the facts of the fix (core.Change: added
// calls, locks and checks, removed calls and field writes) and the kinds
// turn them into proposals (registry.Suggest): an added call becomes
// `call`, an added lock `hold` and `requires`, a removed field write
// `owns`, a removed call `forbid`, an added check `order`. Each candidate
// is checked at the work tree, where it must hold, and against the
// revert in memory, where it must fire; only those are kept. dir is the
// directory of the invariants file they are meant for.
func Suggest(rev, dir string, opts Options) (*Suggestion, error) {
	start := time.Now()
	change, err := Read(opts.Dir, rev, opts.Paths)
	if err != nil {
		return nil, err
	}
	s := &Suggestion{Change: change, Dir: dir}
	r := &reverter{change: change, kept: func(string) bool { return false }}
	view, _, err := r.revert()
	if err != nil {
		return nil, fmt.Errorf("revert of %s: %w", rev, err)
	}
	after := &goSide{lines: map[string]map[int]bool{}}
	before := &goSide{lines: map[string]map[int]bool{}}
	var goDirs []string
	facts := &core.Change{}
	sources, tests, codeHunks, otherHunks := 0, 0, 0, 0
	for _, f := range change.Patch.Files {
		lang := sourceLang(f.Name())
		if lang == "" || f.IsBinary {
			continue
		}
		if testPath(f.Name()) && !opts.Tests {
			tests++
			continue
		}
		sources++
		abs := filepath.Join(change.Root, filepath.FromSlash(f.Name()))
		now, _ := os.ReadFile(abs)
		was, _ := view.ReadFile(filepath.Join(change.Root, filepath.FromSlash(f.OldName)))
		added, removed := map[int]bool{}, map[int]bool{}
		for _, h := range f.Hunks {
			changedLines(now, h, true, added)
			changedLines(was, h, false, removed)
			if classify(lang, f.Name(), now, h, true) == ClassCode || classify(lang, f.OldName, was, h, false) == ClassCode {
				codeHunks++
			} else {
				otherHunks++
			}
		}
		old := filepath.Join(change.Root, filepath.FromSlash(f.OldName))
		if lang == "go" {
			after.lines[abs], before.lines[old] = added, removed
			if d := filepath.Dir(abs); !slices.Contains(goDirs, d) && len(now) > 0 {
				goDirs = append(goDirs, d)
			}
			continue
		}
		glob, err := filepath.Rel(dir, abs)
		if err != nil {
			return nil, err
		}
		nativeFacts(invariants.Lang(lang), filepath.ToSlash(glob), f.Name(), opts.Tests, &nativeSide{path: abs, src: now, lines: added}, &nativeSide{path: old, src: was, lines: removed}, facts)
	}
	loaded := 0
	if len(goDirs) > 0 {
		now, err := loadGoModules(opts, change.Root, goDirs, nil)
		if err != nil {
			return nil, fmt.Errorf("loading the packages the change touches: %w", err)
		}
		after.pkgs, after.lives = now.pkgs, now.lives
		loaded = len(now.pkgs)
		for _, l := range now.left {
			s.Left = append(s.Left, "not loaded: "+l)
		}
		was, err := loadGoModules(opts, change.Root, goDirs, view)
		if err != nil || len(was.left) > len(now.left) {
			var why string
			if err != nil {
				why = firstLine(err.Error())
			} else {
				why = was.left[len(was.left)-1]
			}
			s.Notes = append(s.Notes, "the revert does not type-check, so what the fix removed (writes for owns, calls for forbid) is not looked at: "+why)
			before = nil
		} else {
			before.pkgs, before.lives = was.pkgs, was.lives
		}
		goFacts(after, before, facts)
	}
	s.Facts = facts
	var cands []*candidate
	for _, p := range registry.Suggest(facts) {
		cands = append(cands, &candidate{Proposal: p})
	}
	numbered(cands)
	progress(opts, fmt.Sprintf("%d candidates", len(cands)), start)
	if len(cands) == 0 {
		s.Why = nothingWhy(sources, tests, len(goDirs), loaded, s.Left)
		if sources > 0 && codeHunks == 0 && len(s.Left) == 0 {
			s.Why = fmt.Sprintf("the change touches no code: its %s in source files are comments, declarations or includes", plural(otherHunks, "hunk"))
		}
		return s, nil
	}
	if err := s.prove(cands, opts, view); err != nil {
		return nil, err
	}
	s.rank()
	if len(s.Proven) == 0 {
		s.Why = fmt.Sprintf("none of the %s holds now and fires on the revert (each is listed as left out, with the reason)", plural(len(cands), "candidate"))
	}
	progress(opts, "proven", start)
	return s, nil
}

// nothingWhy says in one line why a change gives no candidate.
func nothingWhy(sources, tests, goDirs, loaded int, left []string) string {
	switch {
	case sources == 0 && tests > 0:
		return fmt.Sprintf("the change touches no source file guardlint checks outside tests (%s of tests: -tests reads them)", plural(tests, "file"))
	case sources == 0:
		return "the change touches no source file guardlint checks (Go, C, C++, CUDA, Rust, Metal)"
	case goDirs > 0 && loaded == 0 && len(left) > 0:
		return "the Go packages the change touches did not load: " + strings.TrimPrefix(left[0], "not loaded: ")
	}
	return "the change adds no call, lock or check of its own code and removes none that a kind can state (comments, declarations, data, or calls of other code)"
}

// changedLines marks the lines of src that the hunk added (reverse: src
// is the fixed file) or removed (src is the file before the fix).
func changedLines(src []byte, h *patch.Hunk, added bool, into map[int]bool) {
	if len(src) == 0 {
		return
	}
	line := patch.Locate(src, h, added)
	if line == 0 {
		return
	}
	mark, skip := patch.Add, patch.Remove
	if !added {
		mark, skip = patch.Remove, patch.Add
	}
	for _, l := range h.Lines {
		switch l.Op {
		case skip:
			continue
		case mark:
			into[line] = true
		}
		line++
	}
}

// numbered gives each candidate a distinct id.
func numbered(cands []*candidate) {
	used := map[string]int{}
	for _, c := range cands {
		id := c.baseID()
		used[id]++
		if used[id] > 1 {
			id = fmt.Sprintf("%s-%d", id, used[id])
		}
		c.id = id
	}
}

// document is the candidates as one invariants file.
func document(cands []*candidate, ref string) []byte {
	var b strings.Builder
	b.WriteString("version: 1\ninvariants:\n")
	for _, c := range cands {
		b.WriteString(c.yaml(placeholderWhy, ref))
	}
	return []byte(b.String())
}

// placeholderWhy is what a suggested invariant says until someone says
// what breaks without it.
const placeholderWhy = "TODO: what breaks without this; printed with every finding"

// prove keeps the candidates that hold on the work tree and fire on the
// revert, checked together where the file loads and one by one where it
// does not (one unresolvable name must not cost the others).
func (s *Suggestion) prove(cands []*candidate, opts Options, view *overlay.Files) error {
	path := filepath.Join(s.Dir, "guardlint-suggest.yaml") // never written
	module, err := moduleOf(s.Dir)
	if err != nil {
		return err
	}
	verdicts := map[string]string{}
	ok, err := s.proveSet(cands, path, module, opts, view, verdicts)
	if err != nil {
		return err
	}
	if !ok {
		for _, c := range cands {
			if _, err := s.proveSet([]*candidate{c}, path, module, opts, view, verdicts); err != nil {
				return err
			}
		}
	}
	for _, c := range cands {
		if v := verdicts[c.id]; v != "" {
			s.Rejected = append(s.Rejected, fmt.Sprintf("%s (%s %s, from %s): %s", c.id, c.Kind, c.Target(), c.At(), v))
			continue
		}
		s.Proven = append(s.Proven, c)
	}
	return nil
}

// proveSet checks candidates as one file. It returns false when the
// file as a whole cannot be checked (it does not load, or a name is
// ambiguous), after noting nothing; otherwise it fills verdicts with the
// reason of every candidate that fails.
func (s *Suggestion) proveSet(cands []*candidate, path, module string, opts Options, view *overlay.Files, verdicts map[string]string) (bool, error) {
	f, _, err := invariants.Parse(registry.Specs(), path, document(cands, s.Change.Commit), module)
	if err != nil {
		if len(cands) == 1 {
			verdicts[cands[0].id] = "does not load: " + firstLine(err.Error())
		}
		return false, nil
	}
	set := &invariants.Set{Files: []*invariants.File{f}, Invariants: f.Invariants}
	now, err := driver.Run(set, driver.Options{Dir: opts.Dir, Patterns: opts.Patterns, BuildFlags: opts.BuildFlags})
	if err != nil {
		if len(cands) == 1 {
			verdicts[cands[0].id] = "cannot be checked: " + firstLine(err.Error())
		}
		return false, nil
	}
	set = &invariants.Set{Files: []*invariants.File{f}, Invariants: f.Invariants}
	reverted, err := driver.Run(set, driver.Options{Dir: opts.Dir, Patterns: opts.Patterns, Files: view, BuildFlags: opts.BuildFlags})
	voidRevert := ""
	if err != nil {
		voidRevert = "the revert does not type-check: " + firstLine(err.Error())
	}
	for _, c := range cands {
		switch {
		case has(now.Findings, c.id):
			verdicts[c.id] = "does not hold now: " + first(now.Findings, c.id)
		case voidRevert != "":
			verdicts[c.id] = voidRevert
		case !has(reverted.Findings, c.id):
			verdicts[c.id] = "does not fire on the revert"
		default:
			c.nameOnly = nameOnly(reverted.Findings, c.id)
		}
	}
	return true, nil
}

// nameOnly reports whether every finding of the invariant is one that
// cannot verify (a function, field or lock it names is gone): the
// pre-fix code then fails it because the fix added a name, not on the
// merits of what the invariant states.
func nameOnly(fs []core.Finding, id string) bool {
	for _, f := range fs {
		if f.ID == id && !strings.Contains(f.Message, "cannot verify") {
			return false
		}
	}
	return true
}

func has(fs []core.Finding, id string) bool {
	return slices.ContainsFunc(fs, func(f core.Finding) bool { return f.ID == id })
}

func first(fs []core.Finding, id string) string {
	for _, f := range fs {
		if f.ID == id {
			return strings.TrimPrefix(f.Message, "invariant "+id+": ")
		}
	}
	return ""
}

// moduleOf returns the module path of the go.mod above dir, or "".
func moduleOf(dir string) (string, error) {
	root, err := invariants.ModuleRoot(dir)
	if err != nil || root == "" {
		return "", err
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	return modfile.ModulePath(data), nil
}
