package core

// The facts a front end gives a rule kind's verdict. They speak of places
// in the source only through sites of the front end's own type S (Go's
// analysis.Range, the tree-sitter front end's syntax node), which the core
// passes back to the front end's Reporter: the kind decides and words its
// findings once, whatever the language, and the compiler checks that a
// verdict hands each front end its own sites back. A verdict is generic
// in S; the core never looks inside a site.

// Reporter receives a verdict's findings for one invariant, at sites of
// the front end that gathered the facts.
type Reporter[S Site] interface {
	// Report reports a finding of the invariant at a site.
	Report(at S, format string, args ...any)
	// Line returns the 1-based line of a site, for messages that name one.
	Line(at S) int
}

// Liveness says whether code runs when its function runs: the one notion
// of live code that every front end computes in its own way (go/cfg and
// constant folding for Go; the tree, the preprocessor and cfg attributes
// for the tree-sitter languages).
type Liveness struct {
	// Dead is "" when the code runs when its function runs, else why it
	// does not (or cannot be shown to), as a phrase: "in a branch under a
	// constant false condition".
	Dead string
	// Maybe is set for dead code that might still run all the same (a
	// literal stored for later, a goroutine, a lambda nobody calls here):
	// rules that require code do not count it, rules that prohibit code
	// do, since being unable to show that code runs is no proof that it
	// does not.
	Maybe bool
}

// Live reports whether the code runs when its function runs.
func (l Liveness) Live() bool { return l.Dead == "" }

// MayRun reports whether the code runs or might run: what a prohibition
// must count.
func (l Liveness) MayRun() bool { return l.Dead == "" || l.Maybe }

// Because returns the liveness of code inside this code that does not
// run for why: the outermost reason wins, since it is the one a reader
// fixes.
func (l Liveness) Because(why string) Liveness {
	if l.Dead != "" {
		return l
	}
	return Liveness{Dead: why}
}

// Occurrence is a call (or a reference to a function) that matches a
// rule's pattern, with whether it runs.
type Occurrence[S Site] struct {
	At S
	Liveness
}

// Exit is a point where a function returns: a return statement, or the
// end of its body when control falls off it.
type Exit[S Site] struct {
	At S
	// End marks the end of the body rather than a return statement.
	End bool
}

// Site constrains a front end's type of source places: comparable, so
// that a verdict can tell a site that is absent (the zero value) from one
// that is there.
type Site interface{ comparable }

// Present reports whether a site is there, not the zero value.
func Present[S Site](s S) bool {
	var zero S
	return s != zero
}
