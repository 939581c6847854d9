package cfamily

import (
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Lock calls as statements of a body, for hold: a lock call that is (or
// runs whenever) a statement of the body's outermost block holds its
// mutex from there on, as a guard declared there does, and a statement
// that only locks or unlocks a mutex does no work (core.LockOp): giving
// up another mutex touches nothing this one protects.
//
// A lock call whose result decides a branch (`if (!mu.try_lock())
// return false;`, `if (pthread_mutex_trylock(&mu) != 0) return EBUSY;`,
// `while (!mu.try_lock()) {}`) holds its mutex only where it took it: in
// the branch its success leads to, or after the if whose other branch
// leaves, or after the loop that waits for it. The same goes for a
// pthread_mutex_lock whose error is tested: its failure branch does not
// hold the mutex.

// condLock returns the guard of a lock call whose result is the
// condition (or the operand of a comparison or negation that is the
// condition) of an if, a while or a do-while, and whether it is one.
// status says the call returns 0 when it took the mutex (pthread, C11),
// else it returns true then (try_lock).
func condLock(f *syntax.File, c *model.Call, lock []string, mode invariants.LockMode, status bool, key string) (*model.Guard, bool) {
	// taken is the truth value of n that means the call took the mutex.
	taken := !status
	n := c.Node
	var st *syntax.Node
	for st == nil {
		p := n.Parent
		if p == nil {
			return nil, false
		}
		switch p.Kind {
		case "parenthesized_expression", "condition_clause":
		case "unary_expression":
			if f.Text(p.Child("operator")) != "!" {
				return nil, false
			}
			taken = !taken
		case "binary_expression":
			other := p.Child("right")
			if n == other {
				other = p.Child("left")
			}
			zero, ok := truth(f, other)
			op := f.Text(p.Child("operator"))
			if !ok || (op != "==" && op != "!=") {
				return nil, false
			}
			// `n == 0` is true when n is false, `n != 0` when n is true.
			if (op == "==") == zero {
				taken = !taken
			}
		case "if_statement", "while_statement", "do_statement":
			if n.Field != "condition" {
				return nil, false
			}
			st = p
		default:
			return nil, false
		}
		n = p
	}
	g := &model.Guard{Node: c.Node, Name: key, Lock: [][]string{lock}, Mode: mode, Takes: true, LockCall: true, Liveness: c.Liveness}
	switch {
	case st.Kind == "if_statement" && taken:
		g.Scope = st.Child("consequence")
	case st.Kind == "if_statement" && st.Child("alternative") != nil:
		g.Scope = st.Child("alternative")
	case st.Kind == "if_statement" && !abrupt(f, st.Child("consequence")):
		return nil, false
	case st.Kind == "if_statement", !taken:
		// The other branch leaves, or the loop waits until the call
		// takes the mutex: held after the statement.
		g.Node, g.Scope = st, enclosingBlock(st)
	default:
		// `while (mu.try_lock()) { .. }`: held in the body.
		g.Scope = st.Child("body")
	}
	return g, g.Scope != nil
}

// truth reports whether an operand compared with a lock call's result is
// a false constant (0, false, thrd_success, nullptr) or a true one (true),
// and whether it is either.
func truth(f *syntax.File, n *syntax.Node) (zero, ok bool) {
	if n == nil {
		return false, false
	}
	switch f.Text(n) {
	case "0", "false", "thrd_success", "NULL", "nullptr":
		return true, true
	case "true":
		return false, true
	}
	return false, false
}

// abrupt reports whether a statement never completes normally: its last
// statement returns, throws, jumps (goto, break, continue) or calls a
// function that never returns.
func abrupt(f *syntax.File, n *syntax.Node) bool {
	if n == nil {
		return false
	}
	if n.Kind == "compound_statement" {
		var last *syntax.Node
		for _, c := range n.NamedChildren() {
			if !syntax.IsComment(c) {
				last = c
			}
		}
		return last != nil && abrupt(f, last)
	}
	switch n.Kind {
	case "return_statement", "co_return_statement", "throw_statement", "goto_statement", "break_statement", "continue_statement":
		return true
	case "expression_statement":
		return terminates(f, n)
	}
	return false
}

// lockStatements marks the statements of the body's outermost block that
// take a mutex by an explicit lock call as guard statements, and those
// that only lock or unlock one (ops: the calls) as doing no work.
func lockStatements(f *syntax.File, body *syntax.Node, h *model.Hold, ops map[*syntax.Node]bool) {
	for i, s := range h.Top {
		if s.Kind == model.GuardStmt {
			continue
		}
		for _, g := range h.All {
			if g.LockCall && g.Live() && g.NotHeld == "" && g.Scope == body && (g.Node == s.Node || s.Node.Contains(g.Node)) && runsWith(g.Node, s.Node) {
				h.Top[i] = model.Stmt{Node: s.Node, Kind: model.GuardStmt, Guard: g}
				break
			}
		}
		if h.Top[i].Kind == model.Work && s.Node.Kind == "expression_statement" {
			if kids := s.Node.NamedChildren(); len(kids) == 1 && ops[unwrapVoid(kids[0])] {
				h.Top[i].Kind = model.NoWork
			}
		}
	}
}

// unwrapVoid strips parentheses and a cast (`(void)pthread_mutex_unlock(&mu)`)
// from an expression.
func unwrapVoid(n *syntax.Node) *syntax.Node {
	for n != nil {
		switch n.Kind {
		case "parenthesized_expression":
			kids := n.NamedChildren()
			if len(kids) != 1 {
				return n
			}
			n = kids[0]
		case "cast_expression":
			n = n.Child("value")
		default:
			return n
		}
	}
	return n
}

// runsWith reports whether n runs whenever the statement top that holds
// it runs: no edge on the way up enters a branch, a loop's body, a
// lambda or the right of && and ||.
func runsWith(n, top *syntax.Node) bool {
	for c := n; c != top && c.Parent != nil; c = c.Parent {
		p := c.Parent
		switch c.Field {
		case "consequence", "alternative", "body", "update":
			if p.Kind != "do_statement" {
				return false
			}
		case "right":
			if op := p.Child("operator"); op != nil && (op.Kind == "&&" || op.Kind == "||") {
				return false
			}
		}
		switch p.Kind {
		case "lambda_expression", "conditional_expression", "switch_statement", "case_statement":
			if c.Field != "condition" {
				return false
			}
		}
	}
	return true
}

// tryLock recognises a try-lock call, a method of the mutex without
// arguments (`mu.try_lock()`) or a function given its address
// (`pthread_mutex_trylock(&mu)`, status), and returns the mutex's tokens.
func tryLock(f *syntax.File, c *model.Call, guards map[string]bool) (lock []string, mode invariants.LockMode, status, ok bool) {
	callee := c.Callee
	if len(callee) == 0 {
		return nil, "", false, false
	}
	name := callee[len(callee)-1]
	if len(callee) >= 3 && (callee[len(callee)-2] == "." || callee[len(callee)-2] == "->") {
		recv := unparenRecv(callee[:len(callee)-2])
		m, isTry := model.TryLockMethod(name)
		if !isTry || len(c.Tokens) != len(callee)+2 || (len(recv) == 1 && guards[recv[0]]) {
			return nil, "", false, false // arguments, or a guard's own try_lock
		}
		return recv, m, false, true
	}
	m, isTry := model.TryLockFunc(name)
	if len(callee) != 1 || !isTry {
		return nil, "", false, false
	}
	arg, ok := lockFuncArg(f, c)
	if !ok {
		return nil, "", false, false
	}
	return arg, m, true, true
}

// unparenRecv strips the parentheses around a lock method's receiver:
// `(*mu).lock()` locks `*mu`.
func unparenRecv(recv []string) []string {
	for len(recv) > 2 && recv[0] == "(" && recv[len(recv)-1] == ")" {
		depth := 0
		for i, t := range recv {
			switch t {
			case "(":
				depth++
			case ")":
				depth--
			}
			if depth == 0 && i < len(recv)-1 {
				return recv // `(a).f(b)`: the parentheses close before the end
			}
		}
		recv = recv[1 : len(recv)-1]
	}
	return recv
}
