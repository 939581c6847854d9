package treesitter

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Callees resolves calls between the functions of a FilesRule's files: a
// free call by name (`f()` calls every function of the files named f), a
// qualified call (`ns::f()`, `Foo::f()`, `Self::f()`) the functions whose
// path ends with its qualifiers and name, and a method call (`x.f()`,
// `p->f()`, `self.f()`) the methods named f of its receiver's type, its
// bases and derived classes (receivers.go). A method call whose
// receiver's type is not known is not followed: From says so, for the
// kinds to say where that may hide an edge.
type Callees struct {
	byName map[string][]*Function
	types  *typeIndex
}

// NewCallees indexes functions by their own name and reads the types
// their files declare.
func NewCallees(fns []*Function) *Callees { return newCallees(fns, false) }

// NewCalleesWithHeaders is NewCallees with the types of every parsed file
// of the job, the headers that only declare classes too (typeFiles).
func NewCalleesWithHeaders(fns []*Function) *Callees { return newCallees(fns, true) }

func newCallees(fns []*Function, headers bool) *Callees {
	out := &Callees{byName: map[string][]*Function{}, types: newTypeIndex(fns, headers)}
	for _, fn := range fns {
		name := fn.Func.Path[len(fn.Func.Path)-1]
		out.byName[name] = append(out.byName[name], fn)
	}
	return out
}

// Named returns every function of the files that has a call's name: what
// a call on a receiver of unknown type may call.
func (cs *Callees) Named(c *model.Call) []*Function {
	if len(c.Callee) == 0 {
		return nil
	}
	return cs.byName[c.Callee[len(c.Callee)-1]]
}

// From returns the functions of the files that a call made in fn may
// call; unknown is true for a method call whose receiver's type is not
// known, which is not followed.
func (cs *Callees) From(fn *Function, c *model.Call) (out []*Function, unknown bool) {
	named := cs.Named(c)
	if len(named) == 0 || c.Node == nil {
		return nil, false
	}
	if recv, arrow, ok := cs.types.receiverOf(fn, c); ok {
		rc := cs.types.exprClass(fn, recv, arrow, c.Node, generics(fn), 0)
		if !rc.known {
			return nil, true
		}
		out, ok := cs.types.dispatch(rc.classes, name(named[0]))
		if !ok {
			return nil, true
		}
		return out, false
	}
	if q := qualifiers(fn, c.Node.Child("function")); len(q) > 0 {
		scoped := append(append([]string(nil), q...), name(named[0]))
		for _, g := range named {
			if g.Func.Matches(scoped) {
				out = append(out, g)
			}
		}
		return out, false
	}
	// A free call in a method may call a method of its class, through
	// `this`: it is that method when the class has or inherits one, else
	// a function of that name that is no method of a class of the files.
	if own := cs.types.named(callerScope(fn)); own.known && cs.types.declared(callerScope(fn)) {
		if out, ok := cs.types.dispatch(own.classes, name(named[0])); len(out) > 0 {
			if !ok {
				return nil, true
			}
			return out, false
		}
	}
	for _, g := range named {
		if p := g.Func.Path; len(p) == 1 || !cs.types.declared(p[:len(p)-1]) {
			out = append(out, g)
		}
	}
	return out, false
}

// name is a function's own name.
func name(fn *Function) string { return fn.Func.Path[len(fn.Func.Path)-1] }

// qualifiers are the scope segments a qualified callee names (`ns::Foo`
// of `ns::Foo::f`, template arguments aside); Rust's `Self` is the
// caller's impl type, and `self`, `super` and `crate` are dropped with
// what comes before them. Nil for an unqualified callee.
func qualifiers(fn *Function, callee *syntax.Node) []string {
	f := fn.File
	var segs []string
	n := callee
	for n != nil && (n.Kind == "qualified_identifier" || n.Kind == "scoped_identifier") {
		scope := n.Child("scope")
		if n.Kind == "scoped_identifier" {
			scope = n.Child("path")
		}
		if scope != nil {
			segs = append(segs, scopeSegs(f, scope)...)
		}
		n = n.Child("name")
	}
	for i := len(segs) - 1; i >= 0; i-- {
		switch segs[i] {
		case "Self":
			segs[i] = callerClass(fn)
		case "self", "super", "crate":
			return segs[i+1:]
		}
	}
	return segs
}

// scopeSegs are the names of a scope, outermost first, without template
// or generic arguments.
func scopeSegs(f *syntax.File, n *syntax.Node) []string {
	switch n.Kind {
	case "qualified_identifier", "scoped_identifier", "scoped_type_identifier":
		var out []string
		scope := n.Child("scope")
		if scope == nil {
			scope = n.Child("path")
		}
		if scope != nil {
			out = scopeSegs(f, scope)
		}
		if name := n.Child("name"); name != nil {
			out = append(out, scopeSegs(f, name)...)
		}
		return out
	case "template_type", "generic_type":
		name := n.Child("name")
		if name == nil {
			name = n.Child("type")
		}
		if name != nil {
			return scopeSegs(f, name)
		}
		return nil
	}
	return []string{f.Text(n)}
}

// Unfollowed gathers the calls a kind did not follow, for want of their
// receiver's type, where following them by name would have found what
// the kind looks for: the kind says so once per invariant, naming the
// first such call and how many there are.
type Unfollowed struct {
	first string
	n     int
}

// Add records one call of fn not followed, and what a function of its
// name would have shown (`ns::Cache::find takes mu_`).
func (u *Unfollowed) Add(fn *Function, c *model.Call, what string) {
	u.n++
	if u.first == "" {
		pos := fn.File.Position(c.Node.Start)
		u.first = fmt.Sprintf("%s calls %s at %s:%d, and %s", fn.Name(), strings.Join(c.Callee, ""), filepath.Base(pos.Filename), pos.Line, what)
	}
}

// String is the kind's sentence, "" when every call was followed.
func (u *Unfollowed) String() string {
	const why = "not followed, for want of the receiver's type or of which override runs (receivers are typed by the declarations of the files: this or self, a member, a local or a parameter with its type)"
	switch u.n {
	case 0:
		return ""
	case 1:
		return "a call that may lead where the invariant forbids is " + why + ": " + u.first
	}
	return fmt.Sprintf("%d calls that may lead where the invariant forbids are %s; the first: %s", u.n, why, u.first)
}

// Fixpoint passes summaries from callees to their callers, as the Go
// front end's calls.Fixpoint does over a package: it calls step for
// every function, in order, round after round, until a round in which no
// step reports a change. A step reads what its function's callees
// (Callees.From) have gathered and adds to its function's summary;
// summaries must only grow, so that the iteration ends, and the last
// round changes nothing, so what it found is final.
//
// requires does not use it: it judges each caller of a function that
// needs the lock once, reporting as it goes, within one file, which is a
// walk over callers rather than a summary that grows.
func Fixpoint(fns []*Function, step func(fn *Function) bool) {
	for changed := true; changed; {
		changed = false
		for _, fn := range fns {
			if step(fn) {
				changed = true
			}
		}
	}
}
