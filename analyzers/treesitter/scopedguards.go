package treesitter

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// The guard classes a C++ code base writes for itself, declared by
// Clang's thread-safety annotations (model.ScopedGuard): abseil's
// low_level_alloc locks its arena with
//
//	class ABSL_SCOPED_LOCKABLE ArenaLock {
//	  explicit ArenaLock(Arena* arena) ABSL_EXCLUSIVE_LOCK_FUNCTION(arena->mu);
//	  void Leave() ABSL_UNLOCK_FUNCTION();
//	};
//
// They are read, as the other contracts are (lockreq.go), from the bytes
// before the invariant's macros are erased, in every file of the job
// (headers of declarations too), and every lock rule's front end then
// reads a local of the class as a guard of the constructor's lock.

// scopedMarker matches the annotation of a scoped guard class, in the
// spellings real code uses: SCOPED_LOCKABLE with or without ABSL_, the
// attribute it expands to, and Clang's newer SCOPED_CAPABILITY.
var scopedMarker = regexp.MustCompile(`\b(?:ABSL_)?SCOPED_LOCKABLE\b|\bscoped_lockable\b|\bSCOPED_CAPABILITY\b|\bscoped_capability\b`)

// acquireMacro matches an annotation that a function acquires a lock, up
// to its opening parenthesis.
var acquireMacro = regexp.MustCompile(`\b(?:ABSL_)?(EXCLUSIVE_LOCK_FUNCTION|SHARED_LOCK_FUNCTION|ACQUIRE|ACQUIRE_SHARED|exclusive_lock_function|shared_lock_function|acquire_capability|acquire_shared_capability)\s*\(`)

// releaseMacro matches an annotation that a function releases a lock.
var releaseMacro = regexp.MustCompile(`\b(?:ABSL_)?(UNLOCK_FUNCTION|SHARED_UNLOCK_FUNCTION|RELEASE|RELEASE_SHARED|RELEASE_GENERIC|unlock_function|release_capability|release_shared_capability|release_generic_capability)\s*\(`)

// scopedGuards returns the scoped guard classes of fn's job: read once
// from the job's files, or from fn's own file for a function made without
// them (a rule over functions), where a file without the annotation is
// not walked.
func (fn *Function) scopedGuards() []model.ScopedGuard {
	if fn.types != nil {
		fn.types.scopedOnce.Do(func() { fn.types.scoped = readScopedGuards(fn, fn.types.files) })
		return fn.types.scoped
	}
	if fn.File.Lang != "cpp" && fn.File.Lang != "cuda" {
		return nil
	}
	return readScopedGuards(fn, []*syntax.File{fn.File})
}

// lockConf is fn's configuration with the scoped guard classes of its
// job, for the front end's guards.
func (fn *Function) lockConf() *model.Config {
	s := fn.scopedGuards()
	if len(s) == 0 {
		return fn.conf
	}
	c := model.Config{}
	if fn.conf != nil {
		c = *fn.conf
	}
	c.ScopedGuards = s
	return &c
}

// readScopedGuards reads the classes annotated as scoped guards in files,
// each with its annotated constructors and release methods; a class with
// no constructor annotated as acquiring a lock is none.
func readScopedGuards(fn *Function, files []*syntax.File) []model.ScopedGuard {
	var out []model.ScopedGuard
	for _, f := range files {
		if f.Lang != "cpp" && f.Lang != "cuda" {
			continue
		}
		raw := fn.types.rawOf(f)
		if !scopedMarker.Match(raw) {
			continue
		}
		syntax.Walk(f.Root, func(n *syntax.Node) bool {
			if n.Kind == "compound_statement" {
				return false
			}
			if n.Kind != "class_specifier" && n.Kind != "struct_specifier" {
				return true
			}
			body := n.Child("body")
			name := className(f, n)
			if body == nil || name == "" || !scopedMarker.Match(raw[n.Start:body.Start]) {
				return true
			}
			if s := readScopedClass(fn, f, raw, name, body); len(s.Ctors) > 0 {
				out = append(out, s)
			}
			return true
		})
	}
	return out
}

// readScopedClass reads the annotated members of a scoped guard class's
// body.
func readScopedClass(fn *Function, f *syntax.File, raw []byte, class string, body *syntax.Node) model.ScopedGuard {
	s := model.ScopedGuard{Class: class}
	acc, _ := fn.lang.(model.Accessor)
	for _, m := range body.NamedChildren() {
		name := declaredFunction(f, m)
		if name == "" || acc == nil {
			continue
		}
		end := m.End
		if b := m.Child("body"); b != nil {
			end = b.Start
		}
		span := raw[m.Start:end]
		if releaseMacro.Match(span) {
			s.Releases = append(s.Releases, name)
		}
		if name != class {
			continue
		}
		ctor := model.ScopedCtor{Params: acc.ParamNames(f, &model.Func{Node: m}), Mode: invariants.Exclusive}
		macroLocks(fn, span, acquireMacro, func(toks []string, at []int) {
			if bytes.Contains(bytes.ToLower(span[at[2]:at[3]]), []byte("shared")) {
				ctor.Mode = invariants.Shared
			}
			ctor.Locks = append(ctor.Locks, toks)
		})
		if len(ctor.Locks) > 0 {
			s.Ctors = append(s.Ctors, ctor)
		}
	}
	return s
}

// scopedCache is the part of typeFiles that holds the scoped guards.
type scopedCache struct {
	scopedOnce sync.Once
	scoped     []model.ScopedGuard
}
