package cfamily

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// Explicit lock calls: C has no guard objects, and C++ code calls a
// mutex's own lock and unlock too. A lock call holds its mutex from the
// call to the end of the branch it is called in, except after an unlock
// of the same mutex that can reach the point, like a guard's release:
// each lock call is a guard whose scope is that branch (lockScope) and
// whose name is the mutex's. Past the branch the mutex may be held, but
// only on the paths that went through it: `if (c) { pthread_mutex_lock(&mu); }`
// does not hold mu after the if.

// lockCalls adds the body's explicit lock calls to the guards and their
// unlock calls to the releases; a lock or unlock method called on a
// guard (`lk.unlock()`) is the guard's and not a mutex's.
func lockCalls(f *syntax.File, body *syntax.Node, h *model.Hold, calls []model.Call, conf *model.Config) {
	guards := map[string]bool{}
	for _, g := range h.All {
		if g.Name != "" {
			guards[g.Name] = true
		}
	}
	ops := map[*syntax.Node]bool{}
	for _, c := range calls {
		if !c.Live() {
			continue
		}
		lock, mode, isLock, ok := explicitLock(f, &c, guards, conf)
		// A lock function (pthread_mutex_lock) returns a status; a lock
		// method returns nothing, a try-lock method whether it locked.
		status, try := len(c.Callee) == 1, false
		if !ok {
			lock, mode, status, ok = tryLock(f, &c, guards)
			isLock, try = ok, ok
		}
		if !ok {
			continue
		}
		ops[c.Node] = true
		key := "lock " + strings.Join(lock, " ")
		if !isLock {
			h.Releases = append(h.Releases, model.Release{Node: c.Node, Guard: key})
			continue
		}
		if status || try {
			if g, ok := condLock(f, &c, lock, mode, status, key); ok {
				h.All = append(h.All, g)
				continue
			}
		}
		if try {
			h.All = append(h.All, &model.Guard{Node: c.Node, Name: key, Lock: [][]string{lock}, Mode: mode, LockCall: true, Liveness: c.Liveness,
				NotHeld: "it tries the lock, and no if or loop around it tests whether it took it"})
			continue
		}
		h.All = append(h.All, &model.Guard{Node: c.Node, Name: key, Lock: [][]string{lock}, Mode: mode, Takes: true, Scope: lockScope(c.Node, body), LockCall: true, Liveness: c.Liveness})
	}
	lockStatements(f, body, h, ops)
}

// lockScope returns the code over which the lock call at call holds its
// mutex on every path: up to the end of the innermost branch around it
// (the consequence or alternative of an if, a loop's body, a case of a
// switch, a try block or its handler), or of the body. A plain block
// is no branch: a mutex stays locked past its brace. Neither is the
// body of a do-while loop, which runs at least once.
func lockScope(call, body *syntax.Node) *syntax.Node {
	for n := call; n != body && n.Parent != nil; n = n.Parent {
		p := n.Parent
		switch p.Kind {
		case "if_statement":
			if n == p.Child("consequence") {
				return n
			}
		case "else_clause", "catch_clause":
			if n.Named {
				return n
			}
		case "for_statement", "for_range_loop", "while_statement", "try_statement":
			if n == p.Child("body") {
				return n
			}
		case "case_statement":
			return p
		}
	}
	return body
}

// explicitLock recognises a lock call (isLock) or an unlock call of a
// mutex and returns the mutex's tokens.
func explicitLock(f *syntax.File, c *model.Call, guards map[string]bool, conf *model.Config) (lock []string, mode invariants.LockMode, isLock, ok bool) {
	callee := c.Callee
	if len(callee) == 0 {
		return nil, "", false, false
	}
	name := callee[len(callee)-1]
	if len(callee) >= 3 && (callee[len(callee)-2] == "." || callee[len(callee)-2] == "->") {
		recv := unparenRecv(callee[:len(callee)-2])
		if len(c.Tokens) != len(callee)+2 || (len(recv) == 1 && guards[recv[0]]) {
			return nil, "", false, false // arguments, or a guard's own method
		}
		if m, ok := conf.LockMethod(name); ok {
			return recv, m, true, true
		}
		return recv, "", false, conf.UnlockMethod(name)
	}
	m, isLockFunc := conf.LockFunc(name)
	if len(callee) != 1 || (!isLockFunc && !conf.UnlockFunc(name)) {
		return nil, "", false, false
	}
	arg, ok := lockFuncArg(f, c)
	if !ok {
		return nil, "", false, false
	}
	return arg, m, isLockFunc, true
}

// lockFuncArg is the mutex a lock function's call names
// (`pthread_mutex_lock(&m)`, `mtx_lock(m)`): the tokens of its one
// argument, a leading `&` dropped, since a lock is named by its object or
// its address alike; ok is false for another number of arguments.
func lockFuncArg(f *syntax.File, c *model.Call) ([]string, bool) {
	args := c.Node.Child("arguments").NamedChildren()
	if len(args) != 1 {
		return nil, false
	}
	arg := f.Tokens(args[0])
	if len(arg) > 1 && arg[0] == "&" {
		arg = arg[1:]
	}
	return arg, true
}
