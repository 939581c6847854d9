package cfamily

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// stdFormatters are standard functions whose every overload takes an
// arithmetic value and returns a new string: they run no code of the
// lock's owner, and no argument they take can point into what it
// protects.
var stdFormatters = map[string]bool{"std::to_string": true, "std::to_wstring": true}

// stdCall describes a call for core.CallValue: one of stdFormatters is a
// function outside the lock's owner, judged by its arguments' values;
// any other call is work, as the front end cannot tell whose it is.
func stdCall(f *syntax.File, n *syntax.Node, l locals) core.Value {
	fn := n.Child("function")
	args := n.Child("arguments")
	if fn == nil || args == nil || !stdFormatters[strings.Join(f.Tokens(fn), "")] {
		return core.Computed
	}
	c := core.Call{Target: core.Elsewhere}
	for _, a := range args.NamedChildren() {
		c.Args = append(c.Args, valueOf(f, a, l))
	}
	return core.CallValue(c)
}
