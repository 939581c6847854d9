package main

// The after-unlock corpus (bench/realgo/afterunlock): functions that
// release their lock and then do only work that touches nothing it
// protects. Each version of the rule is written before its first run and
// not narrowed after seeing results; point 4 says why there is a second.
// `go run ./bench/realgo/gen -rule afterunlock` picks a function or
// method when
//
//  1. it is declared with a body in a non-test, non-generated file of a
//     package of the standard library ("std") or of the modules
//     github.com/hashicorp/golang-lru/v2, github.com/nats-io/nats.go,
//     github.com/patrickmn/go-cache, go.etcd.io/bbolt, golang.org/x/crypto
//     and golang.org/x/sys, and (the third version of the rule: the second
//     picked 32 functions, all of go-cache, fewer than the 60 the corpus
//     is meant to hold; points 2 to 6 are unchanged) of nine more modules
//     that guard maps and connections with mutexes:
//     github.com/sirupsen/logrus, go.uber.org/zap, github.com/gorilla/websocket,
//     github.com/fsnotify/fsnotify, github.com/eclipse/paho.mqtt.golang,
//     github.com/go-sql-driver/mysql, github.com/lib/pq,
//     github.com/allegro/bigcache/v3 and github.com/nsqio/go-nsq, every
//     package of each, at the versions bench/realgo/afterunlock/go.mod
//     selects; and (the fourth version: the third picked the same 32;
//     points 2 to 6 are unchanged) of fifteen more modules of servers,
//     clients and pools that lock around maps, connections and queues:
//     github.com/syndtr/goleveldb, github.com/miekg/dns,
//     github.com/gomodule/redigo, github.com/segmentio/kafka-go,
//     github.com/IBM/sarama, github.com/hashicorp/yamux,
//     github.com/valyala/fasthttp, github.com/panjf2000/ants/v2,
//     github.com/robfig/cron/v3, github.com/rabbitmq/amqp091-go,
//     github.com/jackc/puddle/v2, github.com/hashicorp/go-plugin,
//     github.com/gocql/gocql, github.com/hashicorp/go-hclog and
//     github.com/tidwall/buntdb, every package of each, at the versions
//     bench/realgo/afterunlock/go.mod selects;
//  2. its first statement is X.Lock() or X.RLock(), with X and the lock's
//     name as in point 2 of the main corpus rule (main.go);
//  3. every other call of a method of sync.Mutex or sync.RWMutex on X in
//     its body is a release, X.Unlock() (X.RUnlock() after RLock), written
//     as an expression statement; no defer statement calls one on X; no
//     function literal mentions X;
//  4. (the second rule: the first, which asked for a pure call after the
//     last release of the outermost block, picked no function of these
//     corpora) the statements that follow each release in its block are,
//     with everything they contain, only: expression statements that are
//     pure calls; returns whose results are quiet; if statements without
//     an init statement whose condition is quiet and whose branches hold
//     only such statements; assignments (= or :=) of quiet values to
//     identifiers of locals or to _; a release in a nested block is
//     followed by at least a return, the last of them;
//  5. those statements hold at least one pure call;
//  6. a quiet expression is a constant, nil, an identifier of a local
//     variable or parameter of the function, a pure call, or a unary
//     (other than <- and &), binary or parenthesised expression of quiet
//     expressions. A pure call calls a package-level function (not a
//     method, not a function value, not a builtin, not an explicitly
//     instantiated generic) declared in another package than the picked
//     function's, and each of its arguments is a constant, a pure call, a
//     conversion to a predeclared boolean, numeric or string type of such
//     an argument, a unary (other than <- and &), binary or parenthesised
//     expression of such arguments, or an identifier of a local variable
//     or parameter whose type is a predeclared boolean, numeric or string
//     type (or an alias of one).
//  7. (the fifth version of the rule: the fourth picked the same 32, short
//     of 60; points 1 to 6 are unchanged but for what this point adds to
//     point 6) a pure call may also call a method, not of an interface,
//     declared in another package than the picked function's, whose
//     receiver is an identifier of a local variable or parameter of the
//     function, and an argument of a pure call (the receiver included)
//     may also be an identifier of a local variable or parameter whose
//     type holds no pointer: a predeclared boolean, numeric or string
//     type, or an array or struct of such types, recursively, named or
//     not (`d.Seconds()` of a local time.Duration, `strconv.Quote(s)`,
//     `fmt.Sprint(p)` of a local struct of numbers). A receiver or
//     argument whose type is a named type of the picked function's
//     package with methods is not such an identifier (another package
//     may call them).
//
// Each picked function gets the hold invariant of the main corpus, which
// must pass: the work after the unlock touches nothing the lock protects.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// afterUnlockModules are the modules point 1 names.
var afterUnlockModules = []string{
	"github.com/hashicorp/golang-lru/v2",
	"github.com/nats-io/nats.go",
	"github.com/patrickmn/go-cache",
	"go.etcd.io/bbolt",
	"golang.org/x/crypto",
	"golang.org/x/sys",
	"github.com/sirupsen/logrus",
	"go.uber.org/zap",
	"github.com/gorilla/websocket",
	"github.com/fsnotify/fsnotify",
	"github.com/eclipse/paho.mqtt.golang",
	"github.com/go-sql-driver/mysql",
	"github.com/lib/pq",
	"github.com/allegro/bigcache/v3",
	"github.com/nsqio/go-nsq",
	"github.com/syndtr/goleveldb",
	"github.com/miekg/dns",
	"github.com/gomodule/redigo",
	"github.com/segmentio/kafka-go",
	"github.com/IBM/sarama",
	"github.com/hashicorp/yamux",
	"github.com/valyala/fasthttp",
	"github.com/panjf2000/ants/v2",
	"github.com/robfig/cron/v3",
	"github.com/rabbitmq/amqp091-go",
	"github.com/jackc/puddle/v2",
	"github.com/hashicorp/go-plugin",
	"github.com/gocql/gocql",
	"github.com/hashicorp/go-hclog",
	"github.com/tidwall/buntdb",
}

// afterUnlock applies points 2 to 6 to one declaration.
func afterUnlock(p *packages.Package, fd *ast.FuncDecl) (pick, bool) {
	info := p.TypesInfo
	first, ok := fd.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return pick{}, false
	}
	x, method, ok := mutexCall(info, first.X)
	if !ok || (method != "Lock" && method != "RLock") {
		return pick{}, false
	}
	lock, ok := lockName(p, fd, x)
	if !ok {
		return pick{}, false
	}
	release := "Unlock"
	if method == "RLock" {
		release = "RUnlock"
	}
	xs := render1(p.Fset, x)
	q := quiet{info: info, pkg: p.Types, fd: fd}
	isRelease := func(st ast.Stmt) bool {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return false
		}
		y, m, ok := mutexCall(info, es.X)
		return ok && m == release && render1(p.Fset, y) == xs
	}
	good, releases, calls := true, 0, 0
	var walk func(list []ast.Stmt, top bool)
	walk = func(list []ast.Stmt, top bool) {
		for i, st := range list {
			if top && i == 0 {
				continue
			}
			if isRelease(st) {
				releases++
				rest := list[i+1:]
				if !top && (len(rest) == 0 || !isReturnStmt(rest[len(rest)-1])) {
					good = false
				}
				for _, r := range rest {
					if !q.after(r, &calls) {
						good = false
					}
				}
				continue
			}
			ast.Inspect(st, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					if mentions(p.Fset, n, xs) {
						good = false
					}
					return false
				case *ast.DeferStmt:
					if y, _, ok := mutexCall(info, n.Call); ok && render1(p.Fset, y) == xs {
						good = false
					}
				case *ast.BlockStmt:
					walk(n.List, false)
					return false
				case *ast.CaseClause:
					walk(n.Body, false)
					return false
				case *ast.CommClause:
					walk(n.Body, false)
					return false
				case *ast.CallExpr:
					if y, _, ok := mutexCall(info, n); ok && render1(p.Fset, y) == xs {
						good = false // a lock method elsewhere, or in an expression
					}
				}
				return true
			})
		}
	}
	walk(fd.Body.List, true)
	if !good || releases == 0 || calls == 0 {
		return pick{}, false
	}
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return pick{}, false
	}
	return pick{fn: fn.FullName(), lock: lock, shared: method == "RLock", pkg: p.PkgPath}, true
}

// quiet judges expressions and statements by points 5 and 6.
type quiet struct {
	info *types.Info
	pkg  *types.Package
	fd   *ast.FuncDecl
}

// after reports whether a statement after S is one point 5 allows,
// counting its pure calls.
func (q quiet) after(st ast.Stmt, calls *int) bool {
	switch st := st.(type) {
	case *ast.ExprStmt:
		call, ok := ast.Unparen(st.X).(*ast.CallExpr)
		if !ok || !q.pureCall(call) {
			return false
		}
		*calls++
		return true
	case *ast.ReturnStmt:
		for _, r := range st.Results {
			if !q.expr(r, calls) {
				return false
			}
		}
		return true
	case *ast.IfStmt:
		if st.Init != nil || !q.expr(st.Cond, calls) {
			return false
		}
		for _, b := range st.Body.List {
			if !q.after(b, calls) {
				return false
			}
		}
		if st.Else != nil {
			return q.after(st.Else, calls)
		}
		return true
	case *ast.BlockStmt:
		for _, b := range st.List {
			if !q.after(b, calls) {
				return false
			}
		}
		return true
	case *ast.AssignStmt:
		if st.Tok != token.ASSIGN && st.Tok != token.DEFINE {
			return false
		}
		for _, l := range st.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || (id.Name != "_" && !q.local(id)) {
				return false
			}
		}
		for _, r := range st.Rhs {
			if !q.expr(r, calls) {
				return false
			}
		}
		return true
	}
	return false
}

// isReturnStmt reports whether st is a return.
func isReturnStmt(st ast.Stmt) bool {
	_, ok := st.(*ast.ReturnStmt)
	return ok
}

// expr reports whether e is a quiet expression, counting its pure calls.
func (q quiet) expr(e ast.Expr, calls *int) bool {
	if q.info.Types[e].Value != nil {
		return true
	}
	switch e := e.(type) {
	case *ast.Ident:
		if _, ok := q.info.Uses[e].(*types.Nil); ok {
			return true
		}
		return q.local(e)
	case *ast.ParenExpr:
		return q.expr(e.X, calls)
	case *ast.UnaryExpr:
		return e.Op != token.ARROW && e.Op != token.AND && q.expr(e.X, calls)
	case *ast.BinaryExpr:
		return q.expr(e.X, calls) && q.expr(e.Y, calls)
	case *ast.CallExpr:
		if q.pureCall(e) {
			*calls++
			return true
		}
	}
	return false
}

// pureCall reports whether a call is a pure call (point 6).
func (q quiet) pureCall(call *ast.CallExpr) bool {
	var id *ast.Ident
	method := false
	switch f := call.Fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		if sel := q.info.Selections[f]; sel != nil {
			// Point 7: a method of another package's type, called on a
			// local whose type holds no pointer.
			recv, ok := ast.Unparen(f.X).(*ast.Ident)
			if sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) || !ok || !q.local(recv) || !q.pointerFree(q.info.TypeOf(recv), map[types.Type]bool{}) {
				return false
			}
			method = true
		}
		id = f.Sel
	default:
		return false
	}
	fn, ok := q.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg() == q.pkg || (fn.Signature().Recv() != nil) != method {
		return false
	}
	for _, a := range call.Args {
		if !q.arg(a) {
			return false
		}
	}
	return true
}

// arg reports whether e is an argument a pure call may take (point 6).
func (q quiet) arg(e ast.Expr) bool {
	if q.info.Types[e].Value != nil {
		return true
	}
	switch e := e.(type) {
	case *ast.Ident:
		return q.local(e) && (basic(q.info.TypeOf(e)) || q.pointerFree(q.info.TypeOf(e), map[types.Type]bool{}))
	case *ast.ParenExpr:
		return q.arg(e.X)
	case *ast.UnaryExpr:
		return e.Op != token.ARROW && e.Op != token.AND && q.arg(e.X)
	case *ast.BinaryExpr:
		return q.arg(e.X) && q.arg(e.Y)
	case *ast.CallExpr:
		if tv := q.info.Types[e.Fun]; tv.IsType() {
			return basic(tv.Type) && len(e.Args) == 1 && q.arg(e.Args[0])
		}
		return q.pureCall(e)
	}
	return false
}

// local reports whether id names a local variable or parameter of the
// function.
func (q quiet) local(id *ast.Ident) bool {
	v, ok := q.info.Uses[id].(*types.Var)
	return ok && !v.IsField() && v.Parent() != nil && v.Parent() != v.Pkg().Scope() &&
		q.fd.Pos() <= v.Pos() && v.Pos() < q.fd.End()
}

// basic reports whether t is a predeclared boolean, numeric or string
// type, or an alias of one.
func basic(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0
}

// pointerFree reports whether a value of type t holds no pointer (point
// 7): a predeclared boolean, numeric or string type, or an array or
// struct of such types, recursively; not a named type of the picked
// function's package with methods.
func (q quiet) pointerFree(t types.Type, seen map[types.Type]bool) bool {
	if t == nil {
		return false
	}
	if seen[t] {
		return true
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == q.pkg && n.NumMethods() > 0 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0
	case *types.Array:
		return q.pointerFree(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if !q.pointerFree(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	}
	return false
}
