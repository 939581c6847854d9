package rustlang

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// stdConstructors are standard constructors that can run no code of the
// lock's owner and keep no reference into what it protects: String::from
// converts only standard string types and char, the others allocate.
// Once a guard is released, the borrow checker lets no reference into the
// data the lock protects live on, so a local passed to one of these after
// the release points to none of it.
var stdConstructors = map[string]bool{
	"String::from": true, "String::new": true, "String::with_capacity": true,
	"Vec::new": true, "Vec::with_capacity": true,
}

// stdCall describes a call of one of stdConstructors for core.CallValue:
// a function outside the lock's owner, whose arguments are judged by
// their values.
func stdCall(f *syntax.File, n *syntax.Node, l locals) core.Value {
	c := core.Call{Target: core.Elsewhere}
	for _, a := range n.Child("arguments").NamedChildren() {
		c.Args = append(c.Args, valueOf(f, a, l))
	}
	return core.CallValue(c)
}
