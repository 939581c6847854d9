package forbid

import (
	"fmt"
	"go/ast"
	"strconv"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/mutant"
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

// Ops are the reverts of a forbidden call.
var Ops = []string{opCallAtEntry, opCallOnBranch, opDeferredCall, opStoredClosure, opGoroutineCall}

// forbidMutants puts the forbidden call back into every target.
func (r *Rule) Mutants(p *mutate.Package, inv *invariants.Invariant) []*mutant.Mutant {
	if _, err := p.Scope.Func(r.Call); err != nil {
		return nil // unverifiable: the baseline run reports it
	}
	var out []*mutant.Mutant
	for _, d := range p.Targets(inv) {
		for _, op := range Ops {
			out = append(out, forbidMutant(p, inv, d, op))
		}
	}
	return out
}

// forbidMutant builds one reintroduction of the forbidden call.
func forbidMutant(p *mutate.Package, inv *invariants.Invariant, d *ast.FuncDecl, op string) *mutant.Mutant {
	e := mutate.NewEdits(p)
	call, void := forbiddenCall(p, e, d, ruleOf(inv).Call)
	if void == "" {
		stmt := ""
		switch op {
		case opCallAtEntry:
			stmt = call
		case opCallOnBranch:
			stmt = "if " + mutate.CondVar + " { " + call + " }"
			e.Decl("var %s bool", mutate.CondVar)
		case opDeferredCall:
			stmt = "defer " + call
		case opStoredClosure:
			stmt = "_ = func() { " + call + " }"
		case opGoroutineCall:
			stmt = "go " + call
		}
		e.Insert(d.Body.Lbrace+1, "\n\t"+stmt)
	}
	return mutate.NewMutant(inv, p, d, op, e, void)
}

// forbiddenCall writes a call of the forbidden function that compiles in
// the target: its receiver and arguments are variables of the right types
// declared in the mutant's own file; a function of another package is
// imported into the target's file under a name of its own.
func forbiddenCall(p *mutate.Package, e *mutate.Edits, d *ast.FuncDecl, name invariants.Name) (string, string) {
	fn, _ := p.Scope.Func(name)
	sig := fn.Signature()
	var callee string
	switch {
	case sig.Recv() != nil:
		typ, err := e.TypeString(sig.Recv().Type())
		if err != nil {
			return "", err.Error()
		}
		e.Decl("var guardlintRecv %s", typ)
		callee = "guardlintRecv." + fn.Name()
	case fn.Pkg() == p.Pkg.Types:
		callee = fn.Name()
	case !fn.Exported():
		return "", fmt.Sprintf("%s is not exported from its package", name.Short())
	default:
		f := p.FileOf[d]
		e.Insert(f.Name.End(), "\n\nimport "+forbidImportName+" "+strconv.Quote(fn.Pkg().Path())+"\n")
		callee = forbidImportName + "." + fn.Name()
	}
	var args []string
	params := sig.Params()
	for i := 0; i < params.Len(); i++ {
		typ, err := e.TypeString(params.At(i).Type())
		if err != nil {
			return "", err.Error()
		}
		arg := fmt.Sprintf("guardlintArg%d", i)
		e.Decl("var %s %s", arg, typ)
		if sig.Variadic() && i == params.Len()-1 {
			arg += "..."
		}
		args = append(args, arg)
	}
	return callee + "(" + strings.Join(args, ", ") + ")", ""
}

// Vacuity implements mutate.Rule: a forbidden call that no code of the
// package makes anywhere, even dead, guards nothing yet.
func (r *Rule) Vacuity(p *mutate.Package, _ *invariants.Invariant) []string {
	return p.Vacuous(r.Call)
}
