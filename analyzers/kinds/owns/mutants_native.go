//go:build cgo

package owns

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/mutant"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/native"
)

// opMutatorCall is a revert that C++ and Rust have beside Go's: a
// mutating method called on the field (`active.reset()`,
// `self.active.take()`).
const opMutatorCall = "mutator-call"

// nativeOwnsOps are the reverts of an owned field in C, C++, CUDA and
// Rust. C has no methods and no lambdas (no mutator-call, closure-write);
// only Rust's struct literal names a field outside a constructor.
var nativeOwnsOps = []string{opSelfAssign, opMovedWrite, opAddress, opMutatorCall, opClosureW, opComposite}

// NativeMutants implements native.Rule: a write of the field in a
// function that is not a writer, preferably a method of the field's type
// that calls a writer: inlining the writer there (reset setting active
// to null itself) is the revert the invariant exists for.
func (r *Rule) NativeMutants(c *native.Code) []*mutant.Mutant {
	scoped := c.Inv.Field.Scoped
	typ, field := scoped[len(scoped)-2], scoped[len(scoped)-1]
	// The code that can write the field, or call a writer, is in the files
	// that mention one of them, as the rule reads them.
	words := []string{field}
	for _, w := range r.Writers {
		words = append(words, strings.TrimPrefix(w.Scoped[len(w.Scoped)-1], "~"))
	}
	fns, err := c.Mentioning(words...)
	if err != nil {
		return []*mutant.Mutant{mutant.VoidMutant(c.Inv, c.Inv.Field.Raw, "locate", err.Error())}
	}
	host := r.nativeHost(c, fns, typ)
	if host == nil {
		return []*mutant.Mutant{mutant.VoidMutant(c.Inv, c.Inv.Field.Raw, "locate", "no function of "+c.Globs()+" outside the writers")}
	}
	d := c.Dialect()
	x, _ := c.FieldOf(host, typ, field)
	// A writer's write of a value that means the same anywhere, when
	// there is one: the write a revert moves.
	var moved *native.Stmt
	var movedIn *treesitter.Function
	value := x
	for _, fn := range fns {
		if !r.isWriter(fn) {
			continue
		}
		if s, v, ok := c.WriteStmt(fn, typ, field); ok {
			moved, movedIn, value = &s, fn, v
			break
		}
	}
	var out []*mutant.Mutant
	for _, op := range r.NativeOps(d) {
		e := c.NewEdits()
		stmt, void := "", ""
		switch op {
		case opSelfAssign:
			stmt = x + " = " + x + ";"
		case opMovedWrite:
			if moved == nil {
				void = "no write in a writer whose value can be moved"
				break
			}
			e.Delete(c, movedIn, *moved)
			stmt = x + " = " + value + ";"
		case opAddress:
			stmt = "(void)&" + x + ";"
			if d.Rust() {
				stmt = "let _ = &mut " + x + ";"
			}
		case opMutatorCall:
			stmt = x + ".reset();"
			if d.Rust() {
				stmt = "let _ = " + x + ".take();"
			}
		case opClosureW:
			stmt = d.Closure(x + " = " + value + ";")
		case opComposite:
			stmt = fmt.Sprintf("let _ = %s { %s: %s, ..Default::default() };", typ, field, value)
		}
		if void == "" {
			e.AtEntry(host, stmt)
		}
		out = append(out, c.Mutant(host, op, e, void))
	}
	return out
}

// NativeOps implements native.Rule: C has no methods and no lambdas, and
// only Rust's struct literal names a field outside a constructor.
func (r *Rule) NativeOps(d native.Dialect) []string {
	var out []string
	for _, op := range nativeOwnsOps {
		switch {
		case (op == opMutatorCall || op == opClosureW) && !d.Lambdas():
		case op == opComposite && !d.Rust():
		default:
			out = append(out, op)
		}
	}
	return out
}

// nativeHost picks the function that receives the write: a method of typ
// with a receiver that calls a writer, else any method of typ with a
// receiver, else any function of the files that calls a writer, else any
// function that is not a writer.
func (r *Rule) nativeHost(c *native.Code, fns []*treesitter.Function, typ string) *treesitter.Function {
	var best *treesitter.Function
	bestRank := 0
	for _, fn := range fns {
		if r.isWriter(fn) {
			continue
		}
		rank := 1
		if _, method := c.FieldOf(fn, typ, ""); method {
			rank += 2
		}
		if r.callsWriter(fn) {
			rank++
		}
		if rank > bestRank {
			best, bestRank = fn, rank
		}
	}
	return best
}

// isWriter reports whether a definition is one of the writers.
func (r *Rule) isWriter(fn *treesitter.Function) bool {
	for _, w := range r.Writers {
		if fn.Matches(w) {
			return true
		}
	}
	return false
}

// callsWriter reports whether a function calls one of the writers, by
// its name.
func (r *Rule) callsWriter(fn *treesitter.Function) bool {
	for _, call := range fn.Calls() {
		for _, w := range r.Writers {
			if call.Live() && model.MatchTail(call.Callee, []string{w.Scoped[len(w.Scoped)-1]}) {
				return true
			}
		}
	}
	return false
}

// NativeVacuity implements native.Rule: a field that no code of the
// files writes, where it runs or might run, is guarded against nothing.
func (r *Rule) NativeVacuity(c *native.Code) []string {
	scoped := c.Inv.Field.Scoped
	typ, field := scoped[len(scoped)-2], scoped[len(scoped)-1]
	fns, err := c.Mentioning(field)
	if err != nil {
		return nil // a file that cannot be read fails the baseline run
	}
	dead := ""
	for _, fn := range fns {
		for _, w := range fn.Writes(typ, field) {
			if w.MayRun() {
				return nil
			}
			if dead == "" {
				dead = w.Dead
			}
		}
	}
	return c.Vacuous(c.Inv.Field.Raw, field, dead)
}
