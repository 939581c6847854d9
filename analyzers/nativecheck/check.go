package nativecheck

import (
	"bytes"
	"fmt"
	"go/token"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/suppress"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Options tune a check.
type Options struct {
	// Workers is the number of files parsed at once; 0 means GOMAXPROCS.
	Workers int
	// Files, when set, is the view the sources are read through (a
	// revert, a patched tree) instead of the disk; globs are expanded
	// over it too.
	Files *overlay.Files
	// ParseBudget bounds each parse: tree-sitter may take this long, and
	// as long again per MiB of the file (syntax.Limit); 0 means
	// syntax.DefaultBudget. A file it does not finish is a finding.
	ParseBudget time.Duration
}

// target is one function name of one invariant, with what the invariant
// needs to check it.
type target struct {
	inv  *invariants.Invariant
	rule treesitter.FunctionRule
	name invariants.Name
	lang model.Language
	conf *model.Config
	// patterns are the tokens of the rule's patterns, and shapes what
	// each is (for a PatternUser).
	patterns [][]string
	shapes   []model.Shape
	// filter rejects files that cannot define the function unparsed.
	filter treesitter.Prefilter
	// helper marks a target that is a helper of the rule (treesitter.HelperRule):
	// each definition must pass CheckHelper, or the invariant cannot be
	// verified.
	helper bool
	// params are the parameter types the name selects overloads by, or
	// nil when it gives no parameter list.
	params [][]string
	// files, view and budget are where the target is looked for, to
	// say what the files define when it is not found (nearFunctions).
	files  []string
	view   *overlay.Files
	budget time.Duration
	// matches is filled by the workers, under mu.
	mu      sync.Mutex
	matches []match
}

// match is one definition of a target with the findings about it.
type match struct {
	pos      token.Position
	bad      string // why the definition cannot be verified, or ""
	findings []core.Finding
	// sig is the definition's name and parameter types, for messages
	// that list overloads: synchronize(Stream).
	sig string
	// other marks a definition of the name whose parameters are not the
	// ones the target names: listed, never checked.
	other bool
}

// fileJob is one file with the targets that look into it.
type fileJob struct {
	path    string
	lang    invariants.Lang
	targets []*target
	view    *overlay.Files // nil: the disk
}

// Check checks every invariant of the set whose lang is c, cpp, cuda or
// rust and returns the findings, sorted by position.
func Check(set *invariants.Set, opts Options) []core.Finding {
	var out []core.Finding
	var targets []*target
	jobs := map[string]*fileJob{}
	var order []string
	expanded := map[string][]string{}
	var owns []ownsJob
	var whole []filesJob
	// seen are the rules whose call patterns the files must mention.
	type seenJob struct {
		inv   *invariants.Invariant
		rule  treesitter.SeenCalls
		files []string
	}
	var seen []seenJob
	// matched is every file a glob matched, with its language, for the
	// suppression comments.
	matched := map[string]invariants.Lang{}
	for _, inv := range set.Invariants {
		if !inv.Lang.TreeSitter() {
			continue
		}
		lang := treesitter.LanguageOf(inv.Lang)
		var fr treesitter.FunctionRule
		switch r := inv.Rule.(type) {
		case treesitter.FieldRule:
			files, errs := treesitter.ExpandFiles(inv, expanded, opts.Files)
			out = append(out, errs...)
			for _, p := range files {
				matched[p] = inv.Lang
			}
			if len(files) > 0 {
				owns = append(owns, ownsJob{inv: inv, rule: r, files: files, view: opts.Files})
			}
			continue
		case treesitter.FilesRule:
			patterns, shapes, files, errs := treesitter.Prepare(inv, lang, r, r.Patterns(), expanded, opts.Files, matched)
			out = append(out, errs...)
			if len(files) > 0 {
				whole = append(whole, filesJob{inv: inv, rule: r, files: files, view: opts.Files, patterns: patterns, shapes: shapes})
			}
			continue
		case treesitter.FunctionRule:
			fr = r
		default:
			out = append(out, unverifiable(inv, inv.Pos, "a %s rule is not checked for lang %s", inv.Kind(), inv.Lang))
			continue
		}
		patterns, shapes, files, errs := treesitter.Prepare(inv, lang, fr, fr.Patterns(), expanded, opts.Files, matched)
		out = append(out, errs...)
		if len(files) == 0 {
			continue
		}
		if sr, ok := fr.(treesitter.SeenCalls); ok && len(errs) == 0 {
			seen = append(seen, seenJob{inv, sr, files})
		}
		names := append([]invariants.Name(nil), inv.Functions...)
		if hr, ok := fr.(treesitter.HelperRule); ok {
			names = append(names, hr.Helpers()...)
		}
		for i, n := range names {
			t := &target{inv: inv, rule: fr, name: n, lang: lang, conf: treesitter.ConfigOf(inv, fr, patterns), patterns: patterns, shapes: shapes, helper: i >= len(inv.Functions), files: files, view: opts.Files, budget: opts.ParseBudget}
			if n.Params != "" {
				var err error
				if t.params, err = lang.ParamPattern(n.Params); err != nil {
					out = append(out, unverifiable(inv, n.Pos, "%v", err))
					continue
				}
			}
			t.filter = treesitter.NewPrefilter(inv.Lang, n.Scoped)
			targets = append(targets, t)
			for _, p := range files {
				key := string(inv.Lang) + "\x00" + p
				j := jobs[key]
				if j == nil {
					j = &fileJob{path: p, lang: inv.Lang, view: opts.Files}
					jobs[key] = j
					order = append(order, key)
				}
				j.targets = append(j.targets, t)
			}
		}
	}
	marks := &marked{files: map[string]bool{}}
	run(jobs, order, opts, marks)
	for _, j := range owns {
		out = append(out, checkField(j.inv, j.rule, j.files, j.view, marks, opts.ParseBudget)...)
	}
	for _, j := range whole {
		out = append(out, checkFiles(j, marks, opts.ParseBudget)...)
	}
	for _, t := range targets {
		out = append(out, t.verdict()...)
	}
	for _, j := range seen {
		out = append(out, checkSeen(j.inv, j.rule, j.files, opts.Files)...)
	}
	for p := range matched {
		if !marks.files[p] {
			delete(matched, p) // read, and no directive in it
		}
	}
	dirs, errs := suppressions(matched, opts.Files, opts.ParseBudget)
	out = applySuppressions(set, out, dirs)
	for _, err := range errs {
		out = append(out, core.Finding{Message: fmt.Sprintf("cannot read suppressions: %v", err)})
	}
	core.Sort(out)
	return out
}

// marked collects the files that hold a suppression comment, noted while
// the workers read them, so that no file is read twice.
type marked struct {
	mu    sync.Mutex
	files map[string]bool
}

// note records path when src may hold a directive.
func (m *marked) note(path string, src []byte) {
	if bytes.Contains(src, []byte(suppress.Prefix)) {
		m.mu.Lock()
		m.files[path] = true
		m.mu.Unlock()
	}
}

// run checks the files on a pool of workers.
func run(jobs map[string]*fileJob, order []string, opts Options, marks *marked) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ch := make(chan *fileJob)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				checkFile(j, marks, opts.ParseBudget)
			}
		}()
	}
	for _, k := range order {
		ch <- jobs[k]
	}
	close(ch)
	wg.Wait()
}

// checkFile parses one file, when its bytes can hold a target, and checks
// every target defined in it.
func checkFile(j *fileJob, marks *marked, budget time.Duration) {
	src, err := treesitter.ReadSource(j.view, j.path)
	marks.note(j.path, src)
	if err != nil {
		for _, t := range j.targets {
			t.add(match{pos: token.Position{Filename: j.path}, bad: fmt.Sprintf("cannot read %s: %v", j.path, err)})
		}
		return
	}
	var wanted []*target
	for _, t := range j.targets {
		if t.filter.Match(src) {
			wanted = append(wanted, t)
		}
	}
	if len(wanted) == 0 {
		return
	}
	// A file is parsed once per set of erased macros, and its functions,
	// which depend on the defines, are indexed once per configuration.
	parsed := map[string]*syntax.File{}
	failed := map[string]error{}
	index := map[string][]*model.Func{}
	for _, t := range wanted {
		ek := eraseKey(t.inv)
		f, ok := parsed[ek]
		if !ok && failed[ek] == nil {
			// A parse that does not finish in its budget, or a file that
			// is not text, is reported like an unreadable file: at the
			// invariant, as a file it cannot verify.
			if f, err = treesitter.Parse(t.inv, j.path, src, budget); err != nil {
				failed[ek] = err
			} else {
				parsed[ek] = f
			}
		}
		if err := failed[ek]; err != nil {
			t.add(match{pos: token.Position{Filename: j.path}, bad: err.Error()})
			continue
		}
		key := ek + "\x00" + defineKey(t.conf)
		fns, ok := index[key]
		if !ok {
			fns = t.lang.Functions(f, t.conf)
			index[key] = fns
		}
		for _, fn := range fns {
			if fn.Matches(t.name.Scoped) {
				t.add(t.check(f, fn))
			}
		}
	}
}

// eraseKey identifies the macros an invariant erases, so that a file is
// parsed once per set of them.
func eraseKey(inv *invariants.Invariant) string { return strings.Join(inv.Erase, ",") }

// defineKey identifies a configuration, so that a file is indexed once per
// set of defines.
func defineKey(c *model.Config) string {
	var b strings.Builder
	for _, d := range c.Defines {
		fmt.Fprintf(&b, "%s=%q;", d.Name, d.Values)
	}
	return b.String()
}

// add records a definition of the target; workers call it concurrently.
func (t *target) add(m match) {
	t.mu.Lock()
	t.matches = append(t.matches, m)
	t.mu.Unlock()
}

// helperVerdict checks every definition of a helper: each must parse and
// pass the rule's CheckHelper, or the invariant that relies on it cannot
// be verified.
func (t *target) helperVerdict(found []match) []core.Finding {
	for _, m := range found {
		if m.bad != "" {
			return []core.Finding{unverifiable(t.inv, t.name.Pos, "helper %s", m.bad)}
		}
	}
	return nil
}

// verdict turns the matches of a target into findings: none found, found
// more than once, or a definition that cannot be verified are findings of
// their own.
func (t *target) verdict() []core.Finding {
	sort.Slice(t.matches, func(i, j int) bool {
		a, b := t.matches[i].pos, t.matches[j].pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Line < b.Line
	})
	var found, others []match
	var unreadable []string
	for _, m := range t.matches {
		switch {
		case m.pos.Line == 0:
			unreadable = append(unreadable, m.bad)
		case m.other:
			others = append(others, m)
		default:
			found = append(found, m)
		}
	}
	inv := t.inv
	if len(unreadable) > 0 {
		return []core.Finding{unverifiable(inv, t.name.Pos, "%s", strings.Join(unreadable, "; "))}
	}
	what := "function"
	if t.helper {
		what = "helper"
	}
	if len(found) == 0 && len(others) > 0 {
		return []core.Finding{unverifiable(inv, t.name.Pos, "%s %s not found in %s; the definitions of %s take other parameters: %s", what, t.name.Raw, treesitter.GlobList(inv), t.name.Scoped[len(t.name.Scoped)-1], candidates(others))}
	}
	if len(found) == 0 {
		return []core.Finding{unverifiable(inv, t.name.Pos, "%s %s not found in %s%s", what, t.name.Raw, treesitter.GlobList(inv), nearFunctions(inv, t.lang, t.conf, t.name, t.files, t.view, t.budget))}
	}
	if t.helper {
		return t.helperVerdict(found)
	}
	if len(found) > 1 && !inv.All {
		return []core.Finding{unverifiable(inv, t.name.Pos, "function %s is defined %d times (%s); name it more precisely, by its scope or its parameters, or set `all: true`", t.name.Raw, len(found), candidates(found))}
	}
	var out []core.Finding
	for _, m := range found {
		if m.bad != "" {
			out = append(out, unverifiable(inv, t.name.Pos, "%s", m.bad))
			continue
		}
		out = append(out, m.findings...)
	}
	return out
}

// candidates lists definitions for messages: their names with their
// parameter types, the spelling that selects one, and where they are.
func candidates(ms []match) string {
	var at []string
	for _, m := range ms {
		at = append(at, fmt.Sprintf("%s at %s:%d", m.sig, m.pos.Filename, m.pos.Line))
	}
	return strings.Join(at, ", ")
}

// unverifiable is a finding at a position in the invariants file.
func unverifiable(inv *invariants.Invariant, at invariants.Pos, format string, args ...any) core.Finding {
	return core.Unverifiable(inv, at, format, args...)
}
