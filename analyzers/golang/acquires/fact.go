package acquires

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
)

// Takes is the fact of a function that takes one of the followed locks,
// itself or through the functions it calls, or that makes a call that
// cannot be followed (a function value, an interface method).
type Takes struct {
	// Locks holds, per lock, the first acquisition found: one that runs
	// when the function runs, and, when it comes from elsewhere, one that
	// may run (in a literal passed to a function that may call it).
	Locks []Take
	// Unresolved is the first call that cannot be followed, or nil.
	Unresolved *Call
}

// Take is one acquisition of a followed lock.
type Take struct {
	// Lock is the lock as invariants name it, in its canonical spelling
	// (invariants.Name.String).
	Lock string
	// Site is where the lock is taken (Lock or RLock).
	Site Site
	// Path is the call path from the function to the one that takes the
	// lock, both included.
	Path []string
	// Maybe: the acquisition is in a function literal passed to a
	// function that cannot be shown to call it; it may run during the
	// call.
	Maybe bool
	// Released are the followed locks that the function gives up, from
	// its entry, on every path before the acquisition (a caller's lock
	// dropped to take another without the reverse edge: "should be held
	// on entry but will be unlocked to prevent lock inversion"). The
	// caller's hold of them does not reach the acquisition.
	Released []string
}

// Call is a call that cannot be followed.
type Call struct {
	// What describes the call: "a call of the function value f", "a call
	// of the interface method (io.Writer).Write".
	What string
	Site Site
	// Path is the call path from the function to the one that makes the
	// call, both included.
	Path []string
}

// Site is a position in a source file, kept as values so that it crosses
// packages in a fact.
type Site struct {
	File      string
	Line, Col int
}

// siteOf returns the site of a position.
func siteOf(p token.Position) Site { return Site{File: p.Filename, Line: p.Line, Col: p.Column} }

// String formats the site as the base name of its file and its line:
// registry.go:26.
func (s Site) String() string { return fmt.Sprintf("%s:%d", filepath.Base(s.File), s.Line) }

// AFact marks Takes as an analysis fact.
func (*Takes) AFact() {}

func (t *Takes) String() string {
	var parts []string
	for _, k := range t.Locks {
		may := ""
		if k.Maybe {
			may = " (may)"
		}
		parts = append(parts, fmt.Sprintf("takes %s%s: %s", k.Lock, may, strings.Join(k.Path, " → ")))
	}
	if u := t.Unresolved; u != nil {
		parts = append(parts, fmt.Sprintf("makes %s: %s", u.What, strings.Join(u.Path, " → ")))
	}
	return strings.Join(parts, "; ")
}

// Take returns the acquisition of a lock: the one that runs when the
// function runs, or with maybe the first of any kind; nil when none.
func (t *Takes) Take(lock string, maybe bool) *Take {
	if t == nil {
		return nil
	}
	var got *Take
	for i := range t.Locks {
		k := &t.Locks[i]
		switch {
		case k.Lock != lock:
		case !k.Maybe:
			return k
		case maybe && got == nil:
			got = k
		}
	}
	return got
}

// empty reports whether the fact says nothing.
func (t *Takes) empty() bool { return len(t.Locks) == 0 && t.Unresolved == nil }

// merge adds what calling a function that has fact from does, through
// the call made at a function named name; maybe says that the call
// itself only may run. It reports whether t changed.
func (t *Takes) merge(from *Takes, name string, maybe bool, released []string) bool {
	changed := false
	for _, k := range from.Locks {
		changed = t.add(Take{Lock: k.Lock, Site: k.Site, Path: pathFrom(k.Path, name), Maybe: maybe || k.Maybe, Released: union(released, k.Released)}) || changed
	}
	if u := from.Unresolved; u != nil && t.Unresolved == nil {
		t.Unresolved = &Call{What: u.What, Site: u.Site, Path: pathFrom(u.Path, name)}
		changed = true
	}
	return changed
}

// add records an acquisition unless one as strong is known: of its lock
// and kind, giving up no more locks before it (the acquisition kept is
// the one its callers' locks reach the most of, and it changes only
// toward fewer released locks, so that summaries settle); a sure one
// also stands for one that may run.
func (t *Takes) add(k Take) bool {
	for i, have := range t.Locks {
		switch {
		case have.Lock != k.Lock:
		case have.Maybe == k.Maybe:
			if len(k.Released) < len(have.Released) && subset(k.Released, have.Released) {
				t.Locks[i] = k
				return true
			}
			return false
		case k.Maybe && subset(have.Released, k.Released):
			return false
		}
	}
	t.Locks = append(t.Locks, k)
	return true
}

// subset reports whether every name of a is in b.
func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// union returns the names of a and b, each once, sorted.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return slices.Clip(out)
}
