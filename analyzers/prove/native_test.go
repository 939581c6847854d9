package prove

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/kinds/call"
	"github.com/guardlint/guardlint/analyzers/kinds/owns"
	"github.com/guardlint/guardlint/analyzers/kinds/requires"
	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// treesitterTestdata is the tree-sitter front end's annotated testdata.
const treesitterTestdata = "../treesitter/testdata"

// nativeLangs are the invariants files of the tree-sitter testdata, one
// per language (rust_idioms: Rust's guards bound by a pattern), each with
// a folder of its name.
var nativeLangs = []string{"c", "cpp", "cuda", "rust", "rust_idioms", "metal"}

// holding derives, from an invariants file of the tree-sitter testdata,
// the invariants that hold on it: the file mixes targets that hold with
// reverts the front end must report. Each function invariant keeps the
// targets that have no finding on the unmutated code; each field
// invariant takes the functions that write the field today as writers
// too. An invariant that still does not hold (a helper that cannot be
// verified, a glob that matches nothing) is left out. Nothing is chosen
// by hand, so a target added to the testdata is proved too.
func holding(t *testing.T, file string) *invariants.Set {
	t.Helper()
	set, err := registry.Load(file)
	require.NoError(t, err)
	base := driver.NativeFiles(set, nil, 0)
	out := &invariants.Set{Files: set.Files}
	for _, inv := range set.Invariants {
		src, err := treesitter.LoadSource(inv, nil)
		if err != nil {
			continue // fails closed: a missing glob, a pattern that does not parse
		}
		files, err := src.Mentioning(mentioned(inv)...)
		require.NoError(t, err)
		var funcs []*treesitter.Function
		for _, f := range files {
			funcs = append(funcs, f.Funcs...)
		}
		var fs []core.Finding
		for _, f := range base {
			if f.ID == inv.ID {
				fs = append(fs, f)
			}
		}
		d := *inv
		if r, ok := inv.Rule.(*requires.Rule); ok {
			// The calls of the operations are judged where they are made:
			// the invariant keeps, under within, the functions that call
			// one and hold no finding.
			w := *r
			w.Within = nil
			for _, fn := range funcs {
				if callsAny(fn, inv.Functions) && unique(funcs, fn) && (len(r.Within) == 0 || isAny(fn, r.Within)) &&
					syntax.FirstBad(fn.Func.Node) == nil && len(defsWith([]*treesitter.Function{fn}, fs)) == 0 {
					w.Within = append(w.Within, invariants.Name{Raw: fn.Name(), Scoped: fn.Func.Path})
				}
			}
			if len(w.Within) == 0 {
				continue
			}
			d.Rule = &w
		} else if inv.Field != nil {
			r := *inv.Rule.(*owns.Rule)
			r.Writers = slices.Clone(r.Writers)
			for _, fn := range defsWith(funcs, fs) {
				r.Writers = append(r.Writers, invariants.Name{Raw: fn.Name(), Scoped: fn.Func.Path})
			}
			d.Rule = &r
		} else {
			d.Functions = nil
			for _, n := range inv.Functions {
				if holds(funcs, inv, n, fs) {
					d.Functions = append(d.Functions, n)
				}
			}
			if len(d.Functions) == 0 {
				continue
			}
		}
		one := &invariants.Set{Files: set.Files, Invariants: []*invariants.Invariant{&d}}
		if len(driver.NativeFiles(one, nil, 0)) > 0 {
			continue
		}
		out.Invariants = append(out.Invariants, &d)
	}
	return out
}

// callsAny reports whether a function makes a live call of one of the
// functions, matched by name as the requires rule matches them.
func callsAny(fn *treesitter.Function, ns []invariants.Name) bool {
	for _, c := range fn.Calls() {
		for _, n := range ns {
			if c.Live() && model.CallsName(c.Callee, n.Scoped) {
				return true
			}
		}
	}
	return false
}

// unique reports whether fn is the only definition of its qualified name
// among funcs, so that within can name it.
func unique(funcs []*treesitter.Function, fn *treesitter.Function) bool {
	n := 0
	for _, f := range funcs {
		if f.Func.Matches(fn.Func.Path) {
			n++
		}
	}
	return n == 1
}

// isAny reports whether fn is one of the named functions.
func isAny(fn *treesitter.Function, ns []invariants.Name) bool {
	for _, n := range ns {
		if fn.Is(n) {
			return true
		}
	}
	return false
}

// holds reports whether a target of an invariant holds on the unmutated
// code: it is found, once unless the invariant says all, it parses, and no
// finding of the invariant lies in its definitions or at its name in the
// invariants file.
func holds(funcs []*treesitter.Function, inv *invariants.Invariant, n invariants.Name, fs []core.Finding) bool {
	var defs []*treesitter.Function
	for _, fn := range funcs {
		if fn.Matches(n) {
			defs = append(defs, fn)
		}
	}
	if len(defs) == 0 || len(defs) > 1 && !inv.All {
		return false
	}
	for _, f := range fs {
		if f.Pos.Filename == inv.File.Path && f.Pos.Line == n.Pos.Line {
			return false
		}
	}
	for _, fn := range defs {
		if syntax.FirstBad(fn.Func.Node) != nil || len(defsWith(defs, fs)) > 0 {
			return false
		}
	}
	return true
}

// mentioned lists the names whose files hold what an invariant concerns:
// its targets' and the field's last names.
func mentioned(inv *invariants.Invariant) []string {
	var out []string
	for _, n := range inv.Functions {
		out = append(out, strings.TrimPrefix(n.Scoped[len(n.Scoped)-1], "~"))
	}
	if inv.Field != nil {
		out = append(out, inv.Field.Scoped[len(inv.Field.Scoped)-1])
	}
	return out
}

// defsWith returns the definitions that hold a finding.
func defsWith(defs []*treesitter.Function, fs []core.Finding) []*treesitter.Function {
	var out []*treesitter.Function
	for _, fn := range defs {
		start, end := fn.File.Position(fn.Func.Node.Start).Line, fn.File.Position(fn.Func.Node.End).Line
		for _, f := range fs {
			if f.Pos.Filename == fn.File.Path && start <= f.Pos.Line && f.Pos.Line <= end {
				out = append(out, fn)
				break
			}
		}
	}
	return out
}

// vacuousTestdata are the invariants of the tree-sitter testdata that
// hold and guard nothing: the Metal forbid invariants forbid calls that no
// kernel of the files makes, which the report says instead of proving
// them.
var vacuousTestdata = map[string]bool{"tile-no-device-barrier": true, "fence-offset": true}

// TestNativeTestdataProves proves, for every language of the tree-sitter
// testdata, the invariants that hold there (see holding): every target
// gets every revert its kind and language have, and none survives.
func TestNativeTestdataProves(t *testing.T) {
	dir, err := filepath.Abs(treesitterTestdata)
	require.NoError(t, err)
	for _, lang := range nativeLangs {
		t.Run(lang, func(t *testing.T) {
			set := holding(t, filepath.Join(dir, lang+".yaml"))
			require.NotEmpty(t, set.Invariants)
			rep, err := Run(set, Options{Dir: dir})
			require.NoError(t, err)
			var out strings.Builder
			rep.Print(&out, dir)
			t.Log("\n" + out.String())
			for _, ir := range rep.Invariants {
				assert.Empty(t, ir.Failing, ir.Invariant.ID)
				assert.Empty(t, ir.Skipped, ir.Invariant.ID)
				assert.Zero(t, ir.Count(Survived), ir.Invariant.ID)
				if vacuousTestdata[ir.Invariant.ID] {
					assert.NotEmpty(t, ir.Vacuous, ir.Invariant.ID)
					continue
				}
				assert.Empty(t, ir.Vacuous, ir.Invariant.ID)
				assert.True(t, ir.Proved(), ir.Invariant.ID)
			}
			assert.Equal(t, lang != "metal", rep.Proved())
			// Every target has every revert its kind makes in its
			// language, each once (or once per site).
			ops := map[string]map[string][]string{} // invariant -> target -> ops
			for _, r := range rep.Mutants() {
				m := r.Mutant
				if ops[m.Invariant.ID] == nil {
					ops[m.Invariant.ID] = map[string][]string{}
				}
				op, site, _ := strings.Cut(m.Op, "@")
				target := m.Target + "@" + site
				ops[m.Invariant.ID][target] = append(ops[m.Invariant.ID][target], op)
			}
			for _, ir := range rep.Invariants {
				want := ir.Invariant.Rule.(native.Rule).NativeOps(native.DialectOf(ir.Invariant.Lang))
				require.NotEmpty(t, ops[ir.Invariant.ID], ir.Invariant.ID)
				for target, got := range ops[ir.Invariant.ID] {
					assert.Equal(t, want, got, "%s %s", ir.Invariant.ID, target)
				}
			}
		})
	}
}

// TestNativeFastMatchesExact checks the check of a native mutant over the
// files it changes against the check over every file of the invariant's
// globs, for every mutant of the tree-sitter testdata.
func TestNativeFastMatchesExact(t *testing.T) {
	dir, err := filepath.Abs(treesitterTestdata)
	require.NoError(t, err)
	for _, lang := range nativeLangs {
		set := holding(t, filepath.Join(dir, lang+".yaml"))
		fast, err := Run(set, Options{Dir: dir})
		require.NoError(t, err)
		exact, err := Run(set, Options{Dir: dir, Exact: true})
		require.NoError(t, err)
		want := byName(exact)
		require.Len(t, fast.Mutants(), len(want))
		for _, r := range fast.Mutants() {
			require.Contains(t, want, r.Mutant.Name)
			assert.Equal(t, want[r.Mutant.Name].Verdict, r.Verdict, "%s: fast %s, exact %s", r.Mutant.Name, r.Detail, want[r.Mutant.Name].Detail)
		}
	}
}

// TestNativePatchChain proves invariants over an upstream tree and its
// required patches: the mutants revert the patched code, which exists
// only in memory, and every one is killed.
func TestNativePatchChain(t *testing.T) {
	rep, _, _ := proveFile(t, "../driver/testdata/chain", "guardlint.yaml", Options{})
	assert.True(t, rep.Proved())
	for _, ir := range rep.Invariants {
		assert.Positive(t, ir.Count(Killed), ir.Invariant.ID)
	}
	// The guard the second patch adds, reverted as a temporary: the rest
	// of the file is the patched one.
	m := byName(rep)["registry-locked.gpu.Registry.add.empty-critical-section"]
	require.NotNil(t, m)
	src := string(m.Mutant.Files[m.Mutant.Site.File])
	assert.Contains(t, src, "std::lock_guard<std::mutex>{mu_};\n  by_stream_[stream] = enc;")
	assert.Contains(t, src, "Encoder* Registry::lookup(int stream) {\n  std::lock_guard<std::mutex> lock(mu_);")
}

// TestNativeTestdataWeakPatterns proves the call invariants of the
// tree-sitter testdata again with their patterns cut to the callee's name
// (`enc->retain` becomes `retain`): a weak invariant written on purpose.
// Each revert that calls the method on another receiver now survives,
// and every other verdict stays as it was.
func TestNativeTestdataWeakPatterns(t *testing.T) {
	dir, err := filepath.Abs(treesitterTestdata)
	require.NoError(t, err)
	survivors := 0
	for _, lang := range nativeLangs {
		strong := holding(t, filepath.Join(dir, lang+".yaml"))
		weak := &invariants.Set{Files: strong.Files}
		for _, inv := range strong.Invariants {
			r, ok := inv.Rule.(*call.Rule)
			if !ok {
				continue
			}
			w := *r
			w.To.Raw = native.LastName(r.To.Raw)
			if w.To.Raw == r.To.Raw {
				continue // a name already
			}
			d := *inv
			d.Rule = &w
			weak.Invariants = append(weak.Invariants, &d)
		}
		if len(weak.Invariants) == 0 {
			continue
		}
		before, err := Run(strong, Options{Dir: dir})
		require.NoError(t, err)
		after, err := Run(weak, Options{Dir: dir})
		require.NoError(t, err)
		was := byName(before)
		for _, r := range after.Mutants() {
			old := was[r.Mutant.Name]
			require.NotNil(t, old, r.Mutant.Name)
			op, _, _ := strings.Cut(r.Mutant.Op, "@")
			if op == mutant.OpWrongRecv && old.Verdict == Killed {
				assert.Equal(t, Survived, r.Verdict, "%s: %s", r.Mutant.Name, r.Detail)
				survivors++
				continue
			}
			assert.Equal(t, old.Verdict, r.Verdict, "%s: %s", r.Mutant.Name, r.Detail)
		}
		assert.False(t, after.Proved(), lang)
	}
	assert.Positive(t, survivors)
	t.Logf("%d wrong-receiver reverts survive the patterns cut to a name", survivors)
}

// TestNativeLockKindsProve proves the requires, excludes and lock_order
// invariants of a C++, Rust and C device (testdata/locks): each gets every
// revert its kind makes, at every site, and each is killed (an explicit
// lock call taken on one branch too: it does not hold its mutex past the
// branch).
func TestNativeLockKindsProve(t *testing.T) {
	rep, set, dir := proveFile(t, "testdata/locks", "guardlint.yaml", Options{})
	var out strings.Builder
	rep.Print(&out, dir)
	t.Log("\n" + out.String())
	require.Len(t, rep.Invariants, len(set.Invariants))
	ops := map[string][]string{}
	for _, r := range rep.Mutants() {
		op, _, _ := strings.Cut(r.Mutant.Op, "@")
		switch {
		case r.Mutant.Void != "":
			// A revert the guard's spelling does not have: a block does
			// not release an explicit lock call, a mutex has no other mode.
			assert.Contains(t, []string{mutant.OpNestedScope, mutant.OpOtherMode}, op, "%s: %s", r.Mutant.Name, r.Mutant.Void)
		default:
			assert.Equal(t, Killed, r.Verdict, "%s: %s", r.Mutant.Name, r.Detail)
		}
		if !slices.Contains(ops[r.Mutant.Invariant.ID], op) {
			ops[r.Mutant.Invariant.ID] = append(ops[r.Mutant.Invariant.ID], op)
		}
	}
	for _, ir := range rep.Invariants {
		assert.Empty(t, ir.Failing, ir.Invariant.ID)
		assert.Empty(t, ir.Vacuous, ir.Invariant.ID)
		want := ir.Invariant.Rule.(native.Rule).NativeOps(native.DialectOf(ir.Invariant.Lang))
		assert.Equal(t, want, ops[ir.Invariant.ID], ir.Invariant.ID)
	}
	assert.True(t, rep.Proved())
}

// TestNativeFastReadsHeaders proves guarded_by's testdata with the fast
// check, which reads the mutated file and the invariant's headers:
// Ledger::AddLocked needs mu_ by an annotation in ledger.h, so the reverts
// of Ledger::Add's guard around its call are reported at that call only
// when the header is read (without it, 8 survive). Ledger::Clear, private,
// takes the lock itself: its reverts are reported at Reset, naming Clear
// (mutant.Site.Callee), their kill. Http::buffer_ is touched only in
// annotated helpers: its reverts are made at the callers that hold mu_,
// among them OnReadLater, defined in handshake.h, whose check reads every
// file (without that, its 9 survive: the header alone has no access), and
// where no caller is checked instead (MakeWaker, an override; Poll, by
// its assertion), the contract is deleted.
func TestNativeFastReadsHeaders(t *testing.T) {
	var stdout, stderr bytes.Buffer
	got := Main([]string{"-C", filepath.Join("..", "kinds", "guardedby", "testdata", "native"), "-config", "proved.yaml"}, &stdout, &stderr, noEnv)
	out := stdout.String()
	assert.Equal(t, exitProved, got, "%s%s", out, stderr.String())
	assert.Regexp(t, `ledger +Ledger::Add +K K K K K K K K - K - -\n`, out)
	assert.Regexp(t, `ledger +Ledger::Total +K K K K K K K K - - - -\n`, out)
	assert.Regexp(t, `ledger +Ledger::Clear +K K K K K K K K - K - -\n`, out)
	assert.Regexp(t, `handshake +Http::OnReadLater +K K K K K K K K - K - -\n`, out)
	assert.Regexp(t, `handshake +Http::Shutdown +K K K K K K K K - K - -\n`, out)
	assert.Regexp(t, `handshake +Http::OnWritten +K K K K K K K K - K - -\n`, out)
	assert.Regexp(t, `handshake +Http::MakeWaker +- - - - - - - - - - - K\n`, out)
	assert.Regexp(t, `handshake +Http::Poll +- - - - - - - - - - - K\n`, out)
}
