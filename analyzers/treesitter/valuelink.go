package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// What a lock rule may ask of a value's type, beyond a call's receiver:
// the class a name has at a point, and whether a local stands for a value
// reached from another one through memory (guarded_by's near match).

// NameClasses returns the paths of the classes a name's value has at a
// point of fn, read as a receiver's type is (`this` or `self`, a local or
// a parameter by its declaration, a member of the caller's class, a
// pointer or a smart pointer as what it points to); known is false when
// the front end cannot tell.
func (cs *Callees) NameClasses(fn *Function, name string, at *syntax.Node) (paths [][]string, known bool) {
	var rc receiverClass
	switch name {
	case "this", "self":
		rc = cs.types.named(callerScope(fn))
	default:
		if d, ok := cs.types.localType(fn, name, at); ok {
			rc = cs.types.declClass(fn, d, true, generics(fn))
		} else if fn.File.Lang != "rust" {
			if own := cs.types.named(callerScope(fn)); own.known {
				rc = cs.types.memberClass(own, name, true, generics(fn))
			}
		}
	}
	for _, c := range rc.classes {
		paths = append(paths, c.path)
	}
	return paths, rc.known && len(paths) > 0
}

// LinkOf says of a local of fn that is bound once, at its declaration, to
// a member or an element of another value (`Arena* arena =
// a->header.arena;`, `Level* l = levels_[0];`) and never assigned again,
// which classes hold that member: the class of `a->header`, or for an
// element the class whose member the container is. ok is false for any
// other name, or when those classes cannot be told.
func (cs *Callees) LinkOf(fn *Function, name string, at *syntax.Node) (holders [][]string, ok bool) {
	if name == "this" || name == "self" {
		return nil, false
	}
	var decl *localAt
	for _, l := range cs.types.localsOf(fn)[name] {
		if l.start < at.Start && l.scope.Contains(at) {
			decl = &l
		}
	}
	if decl == nil || decl.decl.value == nil || assigned(fn, name) {
		return nil, false
	}
	e := stripCasts(fn.File, decl.decl.value)
	if e.Kind == "subscript_expression" {
		// An element: held by what holds its container.
		e = stripCasts(fn.File, e.Child("argument"))
	}
	if e.Kind != "field_expression" {
		return nil, false
	}
	base, arrow := e.Child("argument"), fn.File.Text(e.Child("operator")) == "->"
	if fn.File.Lang == "rust" {
		base, arrow = e.Child("value"), false
	}
	rc := cs.types.exprClass(fn, base, arrow, at, generics(fn), 0)
	for _, c := range rc.classes {
		holders = append(holders, c.path)
	}
	return holders, rc.known && len(holders) > 0
}

// stripCasts returns the expression under parentheses and casts.
func stripCasts(f *syntax.File, e *syntax.Node) *syntax.Node {
	for e != nil {
		switch e.Kind {
		case "parenthesized_expression":
			if kids := e.NamedChildren(); len(kids) == 1 {
				e = kids[0]
				continue
			}
		case "cast_expression":
			e = e.Child("value")
			continue
		case "call_expression":
			// static_cast<T*>(x) and the other named casts.
			fun, args := e.Child("function"), e.Child("arguments")
			if fun != nil && fun.Kind == "template_function" && model.NamedCasts[f.Text(fun.Child("name"))] && args != nil {
				if kids := args.NamedChildren(); len(kids) == 1 {
					e = kids[0]
					continue
				}
			}
		}
		return e
	}
	return e
}

// assigned reports whether fn assigns a name anywhere after declaring it
// (`x = ..`, `x += ..`, `++x`) or takes its address, through which it may
// be assigned.
func assigned(fn *Function, name string) bool {
	f := fn.File
	found := false
	syntax.Walk(fn.Func.Body, func(n *syntax.Node) bool {
		if found {
			return false
		}
		var target *syntax.Node
		switch n.Kind {
		case "assignment_expression", "compound_assignment_expr":
			target = n.Child("left")
		case "update_expression":
			target = n.Child("argument")
		case "pointer_expression":
			if f.Text(n.Child("operator")) == "&" {
				target = n.Child("argument")
			}
		}
		if target != nil && target.Kind == "identifier" && f.Text(target) == name {
			found = true
		}
		return true
	})
	return found
}
