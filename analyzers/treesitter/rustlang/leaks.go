package rustlang

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// forgetters give up the value they are passed without running its
// destructor: a guard passed to one never unlocks its lock. Box::leak
// counts when its argument is Box::new of the guard.
var forgetters = map[string]bool{
	"forget": true, "mem::forget": true, "std::mem::forget": true, "core::mem::forget": true,
	"ManuallyDrop::new": true, "mem::ManuallyDrop::new": true, "std::mem::ManuallyDrop::new": true, "core::mem::ManuallyDrop::new": true,
}

// boxNew are the spellings of Box::new.
var boxNew = map[string]bool{"Box::new": true, "std::boxed::Box::new": true, "alloc::boxed::Box::new": true}

// boxLeak are the spellings of Box::leak.
var boxLeak = map[string]bool{"Box::leak": true, "std::boxed::Box::leak": true, "alloc::boxed::Box::leak": true}

// leaks lists the live calls that forget a local by name: the guard it
// names stays locked.
func leaks(f *syntax.File, calls []model.Call) []model.Release {
	var out []model.Release
	for _, c := range calls {
		if !c.Live() || c.Node.Kind != "call_expression" {
			continue
		}
		// The longest spelling above is 7 tokens; a longer callee (a
		// chain of calls spans its whole receiver) is not joined, which
		// for every call of a chain cost the square of its length.
		if len(c.Callee) > 7 {
			continue
		}
		callee := strings.Join(c.Callee, "")
		arg := onlyArg(c.Node)
		switch {
		case arg == nil:
			continue
		case forgetters[callee]:
		case boxLeak[callee] && arg.Kind == "call_expression" && boxNew[strings.Join(f.Tokens(arg.Child("function")), "")]:
			arg = onlyArg(arg)
		default:
			continue
		}
		if arg != nil && arg.Kind == "identifier" {
			out = append(out, model.Release{Node: c.Node, Guard: f.Text(arg)})
		}
	}
	return out
}

// onlyArg returns the one argument of a call, or nil.
func onlyArg(call *syntax.Node) *syntax.Node {
	args := call.Child("arguments")
	if args == nil {
		return nil
	}
	kids := args.NamedChildren()
	if len(kids) != 1 {
		return nil
	}
	return kids[0]
}
