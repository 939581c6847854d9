package native

import (
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// guardClass is what the reverts that rewrite a C++ guard know of its
// class, by the last segment of its name, as the front end reads the
// built-in classes (model.GuardModes): the standard guards, Abseil's and
// gRPC's (absl::MutexLock, grpc_core::MutexLock), Qt's lockers and
// Chromium's base::AutoLock. A class the code declares (a
// SCOPED_LOCKABLE class) is not here; its reverts use what its
// annotations say (model.Guard.ReleasedBy).
type guardClass struct {
	// other is the class that locks the same mutex in the other mode
	// (other-mode), "" when the mutex has one.
	other string
	// oneModeIn are the namespaces where the class's mutex has one mode
	// although the class's name has another (grpc_core::Mutex has no
	// reader lock, absl::Mutex has).
	oneModeIn []string
	// release gives the mutex up before the scope ends (unlocked-early),
	// besides the releases the front end reads (model.GuardReleases,
	// model.Guard.ReleasedBy); forget gives the guard up without
	// unlocking (guard-forgotten).
	release, forget string
	// releasable is the class a guard without release is rewritten to
	// first, one that has it, as a real revert would.
	releasable string
	// mutex is the class of the mutex it locks, in the guard's own
	// namespace (another-lock declares one); "" for the standard guards,
	// whose template argument or the standard mutex is used.
	mutex string
}

var guardClasses = map[string]guardClass{
	"lock_guard":  {other: "shared_lock", releasable: "unique_lock"},
	"scoped_lock": {other: "shared_lock", releasable: "unique_lock"},
	"unique_lock": {other: "shared_lock", release: "unlock", forget: "release"},
	"shared_lock": {other: "unique_lock", release: "unlock", forget: "release"},

	"MutexLock":           {other: "ReaderMutexLock", oneModeIn: []string{"grpc_core"}, releasable: "ReleasableMutexLock", mutex: "Mutex"},
	"WriterMutexLock":     {other: "ReaderMutexLock", mutex: "Mutex"},
	"ReaderMutexLock":     {other: "WriterMutexLock", mutex: "Mutex"},
	"ReleasableMutexLock": {other: "ReaderMutexLock", oneModeIn: []string{"grpc_core"}, mutex: "Mutex"},
	"SpinLockHolder":      {mutex: "SpinLock"},

	"QMutexLocker": {release: "unlock", mutex: "QMutex"},
	"QWriteLocker": {other: "QReadLocker", release: "unlock", mutex: "QReadWriteLock"},
	"QReadLocker":  {other: "QWriteLocker", release: "unlock", mutex: "QReadWriteLock"},
	"AutoLock":     {mutex: "Lock"},
}

// class returns what the reverts know of the guard's class, and whether
// it is a built-in one.
func (p guardDecl) class(f *syntax.File) (guardClass, bool) {
	c, ok := guardClasses[p.word.text(f)]
	return c, ok
}

// otherClass is the class other-mode rewrites the guard's class to, or
// why there is none.
func (p guardDecl) otherClass(f *syntax.File) (string, string) {
	word := p.word.text(f)
	c, ok := p.class(f)
	switch {
	case !ok:
		return "", "the other mode of " + word + ", a class the code declares, is not known"
	case c.other == "" || slices.Contains(c.oneModeIn, strings.TrimSuffix(p.ns, "::")):
		return "", p.ns + word + "'s mutex has one mode"
	}
	return c.other, ""
}

// otherMutex is the class another-lock declares its mutex with, or why
// there is none: the template argument, the standard mutex of the mode,
// or the built-in class's mutex in its namespace (absl::Mutex for
// absl::MutexLock).
func (p guardDecl) otherMutex(f *syntax.File, shared bool) (string, string) {
	if p.mutexType != "" {
		return p.mutexType, ""
	}
	c, ok := p.class(f)
	switch {
	case !ok:
		return "", "the mutex class of " + p.word.text(f) + ", a class the code declares, is not known"
	case c.mutex != "":
		return p.ns + c.mutex, ""
	case shared:
		return "std::shared_mutex", ""
	}
	return "std::mutex", ""
}

// releaseCall is the statement that gives the guard's mutex up early
// (unlocked-early) or the guard up without unlocking (guard-forgotten),
// after rewriting the guard's class to one that can (lock_guard to
// unique_lock, absl::MutexLock to absl::ReleasableMutexLock), or why no
// such statement exists.
func (c *Code) releaseCall(e *Edits, g guardAt, op string) (string, string) {
	f := g.fn.File
	parts, why := guardParts(f, g.stmt)
	if why != "" {
		return "", why
	}
	gd := g.stmt.Guard
	word := parts.word.text(f)
	forget := op == mutant.OpGuardForgotten
	// method is the call a class gives its mutex up with: the table's,
	// then the front end's (a declared class's annotated release, a
	// built-in one's).
	method := func(class string) string {
		switch {
		case forget:
			return guardClasses[class].forget
		case guardClasses[class].release != "":
			return guardClasses[class].release
		case class == word && len(gd.ReleasedBy) > 0:
			return gd.ReleasedBy[0]
		case len(model.GuardReleases[class]) > 0:
			return model.GuardReleases[class][0]
		}
		return ""
	}
	class := word
	if r := guardClasses[word].releasable; method(word) == "" && r != "" && method(r) != "" {
		if len(gd.Lock) > 1 {
			if forget {
				return "", "a std::scoped_lock of several mutexes has no release"
			}
			return "", "a std::scoped_lock of several mutexes cannot unlock early"
		}
		e.ReplaceNode(f, parts.word.node, r)
		class = r
	}
	if m := method(class); m != "" {
		return gd.Name + "." + m + "();", ""
	}
	if forget {
		return "", parts.ns + word + " cannot give its mutex up without unlocking it"
	}
	return "", parts.ns + word + " cannot give its mutex up before its scope ends"
}
