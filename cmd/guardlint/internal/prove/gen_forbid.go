package prove

import (
	"fmt"
	"go/ast"
	"strconv"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// Reverts of a forbidden call: the call comes back into the target, in
// every form that runs or might run.
const (
	opCallAtEntry    = "call-at-entry"  // the call as the first statement
	opCallOnBranch   = "call-on-branch" // if cond { call }
	opDeferredCall   = "deferred-call"  // defer call
	opStoredClosure  = "stored-closure" // _ = func() { call }
	opGoroutineCall  = "goroutine"      // go call
	forbidImportName = "guardlintforbid"
)

// forbidOps are the reverts of a forbidden call.
var forbidOps = []string{opCallAtEntry, opCallOnBranch, opDeferredCall, opStoredClosure, opGoroutineCall}

// forbidMutants puts the forbidden call back into every target.
func (p *goPackage) forbidMutants(inv *invariants.Invariant) []*Mutant {
	if _, err := p.scope.Func(inv.Forbid.Call); err != nil {
		return nil // unverifiable: the baseline run reports it
	}
	var out []*Mutant
	for _, d := range p.targets(inv) {
		for _, op := range forbidOps {
			out = append(out, p.forbidMutant(inv, d, op))
		}
	}
	return out
}

// forbidMutant builds one reintroduction of the forbidden call.
func (p *goPackage) forbidMutant(inv *invariants.Invariant, d *ast.FuncDecl, op string) *Mutant {
	e := newEdits(p)
	call, void := p.forbiddenCall(e, d, inv.Forbid.Call)
	if void == "" {
		stmt := ""
		switch op {
		case opCallAtEntry:
			stmt = call
		case opCallOnBranch:
			stmt = "if " + condVar + " { " + call + " }"
			e.decl("var %s bool", condVar)
		case opDeferredCall:
			stmt = "defer " + call
		case opStoredClosure:
			stmt = "_ = func() { " + call + " }"
		case opGoroutineCall:
			stmt = "go " + call
		}
		e.insert(d.Body.Lbrace+1, "\n\t"+stmt)
	}
	return newMutant(inv, p, d, op, e, void)
}

// forbiddenCall writes a call of the forbidden function that compiles in
// the target: its receiver and arguments are variables of the right types
// declared in the mutant's own file; a function of another package is
// imported into the target's file under a name of its own.
func (p *goPackage) forbiddenCall(e *edits, d *ast.FuncDecl, name invariants.Name) (string, string) {
	fn, _ := p.scope.Func(name)
	sig := fn.Signature()
	var callee string
	switch {
	case sig.Recv() != nil:
		typ, err := e.typeString(sig.Recv().Type())
		if err != nil {
			return "", err.Error()
		}
		e.decl("var guardlintRecv %s", typ)
		callee = "guardlintRecv." + fn.Name()
	case fn.Pkg() == p.pkg.Types:
		callee = fn.Name()
	case !fn.Exported():
		return "", fmt.Sprintf("%s is not exported from its package", name.Short())
	default:
		f := p.fileOf[d]
		e.insert(f.Name.End(), "\n\nimport "+forbidImportName+" "+strconv.Quote(fn.Pkg().Path())+"\n")
		callee = forbidImportName + "." + fn.Name()
	}
	var args []string
	params := sig.Params()
	for i := 0; i < params.Len(); i++ {
		typ, err := e.typeString(params.At(i).Type())
		if err != nil {
			return "", err.Error()
		}
		arg := fmt.Sprintf("guardlintArg%d", i)
		e.decl("var %s %s", arg, typ)
		if sig.Variadic() && i == params.Len()-1 {
			arg += "..."
		}
		args = append(args, arg)
	}
	return callee + "(" + strings.Join(args, ", ") + ")", ""
}
