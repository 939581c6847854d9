package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// A method with a pointer receiver called on the field (s.tree.locate(k))
// writes it unless the method is one of the package's and writes nothing
// through its receiver. What a function does with a value it is handed
// (its receiver, or a parameter) is its summary, computed from its body:
// the value is followed into the local variables given anything derived
// from it, and each use of it or of them is a write or a read as the
// field rule counts it, with two refinements that make a summary exact
// where the field rule is coarse: taking an address into the value is a
// write only where the address is used to write (a local variable holding
// it is followed; returning it makes the results aliases), and handing the
// value to a function of the package counts as what that function's
// summary says. A summary whose results may point into the value (locate
// returns &t.root, find a node of the tree) makes the caller follow the
// results the same way, in the function where the call is.
//
// A value loaded from memory the value points to (t.root, *p, a[i], or a
// local variable given only such values) is, as the field rule counts
// r.f, read when it is handed to a function that is not the package's,
// stored or returned; what is written through it in the function itself
// is still a write. The value itself or an address into it (t, &t.root)
// handed where it is not followed is a write.
type through struct {
	writes  bool // the body writes what the value holds, or hands it on where it may be written
	aliases bool // a result may be the value itself or an address into it
	loads   bool // a result may be a value loaded from it
}

// paramKey is one parameter of one function: the receiver (onReceiver) or
// an index.
type paramKey struct {
	fn    *types.Func
	param int
}

// through returns the summary of what fn does with its parameter param.
// A function that is not the package's, has no body, or is being
// summarised already (recursion) writes, to be safe.
func (ch *checker) through(fn *types.Func, param int) through {
	fn = fn.Origin()
	k := paramKey{fn, param}
	if t, ok := ch.summaries[k]; ok {
		return t
	}
	worst := through{writes: true}
	d := ch.r.Live.Decl(fn)
	if d == nil || fn.Pkg() != ch.r.Pass.Pkg || ch.summarising[k] {
		return worst
	}
	var v *types.Var
	sig := fn.Signature()
	switch {
	case param == onReceiver:
		v = sig.Recv()
	case param >= 0 && param < sig.Params().Len():
		v = sig.Params().At(param)
	}
	if v == nil {
		return worst
	}
	ch.summarising[k] = true
	f := ch.newFlow(ch.declCur[d], true)
	f.tainted[v], f.addr[v] = true, true
	t := f.run(nil, false)
	delete(ch.summarising, k)
	ch.summaries[k] = t
	return t
}

// readsOnlyCall reports whether the call of a method with a pointer
// receiver at sel (whose receiver is the field) only reads the field:
// the method's summary says it writes nothing through its receiver, and
// what its results point to is only read where the call is.
func (ch *checker) readsOnlyCall(sel inspector.Cursor, fn *types.Func) bool {
	call := sel.Parent()
	if c, ok := call.Node().(*ast.CallExpr); !ok || ast.Unparen(c.Fun) != sel.Node() {
		return false // a method value: called who knows where
	}
	t := ch.through(fn, onReceiver)
	if t.writes {
		return false
	}
	if !t.aliases && !t.loads {
		return true
	}
	decl, ok := enclosingDecl(call)
	if !ok {
		return false
	}
	f := ch.newFlow(decl, false)
	f.seeds[call.Node()] = !t.aliases
	return !f.run([]inspector.Cursor{call}, !t.aliases).writes
}

func (ch *checker) newFlow(decl inspector.Cursor, summary bool) *flow {
	return &flow{ch: ch, info: ch.r.Pass.TypesInfo, decl: decl, summary: summary,
		tainted: map[*types.Var]bool{}, addr: map[*types.Var]bool{}, seeds: map[ast.Node]bool{}}
}

// enclosingDecl is the function declaration around a cursor.
func enclosingDecl(c inspector.Cursor) (inspector.Cursor, bool) {
	for e := range c.Enclosing((*ast.FuncDecl)(nil)) {
		return e, true
	}
	return inspector.Cursor{}, false
}

// flow follows the values derived from some roots through a function
// declaration's local variables (its literals included).
type flow struct {
	ch   *checker
	info *types.Info
	decl inspector.Cursor
	// summary: the roots are the function's own parameter, so returning
	// a value derived from one makes the results aliases; at a caller
	// (false), returning it hands it where it is not followed.
	summary bool
	tainted map[*types.Var]bool
	// addr holds the tainted variables that may hold the root itself or
	// an address into it; the others hold only loaded values.
	addr map[*types.Var]bool
	// seeds are expressions that are roots (a call's result), each with
	// whether it is a loaded value.
	seeds map[ast.Node]bool
	out   through
}

// run taints the local variables, then classifies every use of a tainted
// variable and of each seed (loaded: whether the seeds are loaded values).
func (f *flow) run(seeds []inspector.Cursor, loaded bool) through {
	f.taint()
	for _, s := range seeds {
		f.out.writes = f.out.writes || f.use(s, loaded)
	}
	for c := range f.decl.Preorder((*ast.Ident)(nil)) {
		if f.out.writes {
			return f.out
		}
		if v, ok := f.info.Uses[c.Node().(*ast.Ident)].(*types.Var); ok && f.tainted[v] {
			f.out.writes = f.use(c, !f.addr[v])
		}
	}
	// A named result given a derived value is returned by a bare return.
	if fn, ok := f.info.Defs[f.decl.Node().(*ast.FuncDecl).Name].(*types.Func); ok && f.summary {
		for v := range fn.Signature().Results().Variables() {
			if f.tainted[v] {
				f.out.aliases = f.out.aliases || f.addr[v]
				f.out.loads = true
			}
		}
	}
	return f.out
}

// taint adds, to a fixed point, each local variable that is given a value
// mentioning a tainted variable or a seed, when its type can point
// anywhere (a copied int holds nothing of the value).
func (f *flow) taint() {
	for changed := true; changed; {
		changed = false
		add := func(e ast.Expr, loaded bool) {
			id, ok := ast.Unparen(e).(*ast.Ident)
			if !ok {
				return
			}
			v, ok := f.info.Defs[id].(*types.Var)
			if !ok {
				v, ok = f.info.Uses[id].(*types.Var)
			}
			if !ok || !locks.IsLocal(v) || !mayPoint(v.Type()) {
				return
			}
			if !f.tainted[v] || (!loaded && !f.addr[v]) {
				f.tainted[v] = true
				f.addr[v] = f.addr[v] || !loaded
				changed = true
			}
		}
		for c := range f.decl.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.RangeStmt)(nil), (*ast.TypeSwitchStmt)(nil)) {
			switch n := c.Node().(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, r := range n.Rhs {
						if f.mentions(r) {
							add(n.Lhs[i], f.loadedExpr(r))
						}
					}
				} else if f.mentions(n.Rhs[0]) {
					for _, l := range n.Lhs {
						add(l, f.loadedExpr(n.Rhs[0]))
					}
				}
			case *ast.ValueSpec:
				for i, r := range n.Values {
					if !f.mentions(r) {
						continue
					}
					if len(n.Names) == len(n.Values) {
						add(n.Names[i], f.loadedExpr(r))
					} else {
						for _, id := range n.Names {
							add(id, f.loadedExpr(r))
						}
					}
				}
			case *ast.RangeStmt:
				if f.mentions(n.X) {
					// The key and value are copies of elements.
					if n.Key != nil {
						add(n.Key, true)
					}
					if n.Value != nil {
						add(n.Value, true)
					}
				}
			case *ast.TypeSwitchStmt:
				// switch v := x.(type): each clause has a v of its own.
				if a, ok := n.Assign.(*ast.AssignStmt); ok && f.mentions(a.Rhs[0]) {
					for _, cl := range n.Body.List {
						if v, ok := f.info.Implicits[cl].(*types.Var); ok && !f.tainted[v] && mayPoint(v.Type()) {
							f.tainted[v], f.addr[v] = true, true
							changed = true
						}
					}
				}
			}
		}
	}
}

// mentions reports whether an expression uses a tainted variable or
// contains a seed.
func (f *flow) mentions(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := f.seeds[n]; ok {
			found = true
		} else if id, ok := n.(*ast.Ident); ok {
			v, _ := f.info.Uses[id].(*types.Var)
			found = f.tainted[v]
		}
		return !found
	})
	return found
}

// use classifies one use of a derived value at c (a tainted variable, or
// a seed; loaded: whether it is a loaded value) and says whether it
// writes; a return of it in a summary notes the results as aliases or
// loads. It walks up the expression as isWrite does, keeping whether the
// value at hand is loaded (r.f, *p, a[i]) or may be the root itself or an
// address into it.
func (f *flow) use(c inspector.Cursor, loaded bool) bool {
	child := c.Node()
	_, ident := child.(*ast.Ident)
	bare := func() bool { return ident && child == c.Node() } // the variable itself
	for p := c.Parent(); ; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.ParenExpr, *ast.TypeAssertExpr:
		case *ast.StarExpr:
			loaded = true
		case *ast.IndexExpr:
			if n.X != child {
				return false // the index
			}
			loaded = true
		case *ast.SliceExpr:
			if n.X != child {
				return false
			}
			// a[i:j] shares a's elements; an array's slice is its address.
			loaded = false
		case *ast.SelectorExpr:
			s := f.info.Selections[n]
			if s == nil {
				return false
			}
			if s.Kind() == types.FieldVal {
				loaded = true
				break
			}
			call, ok := p.Parent().Node().(*ast.CallExpr)
			if s.Kind() != types.MethodVal || !ok || ast.Unparen(call.Fun) != n {
				return true // a method value or expression: runs who knows where
			}
			fn := s.Obj().(*types.Func)
			_, ptr := fn.Signature().Recv().Type().(*types.Pointer)
			t := f.passTo(fn, onReceiver, ptr && (!loaded || !isPointer(f.info.TypeOf(n.X))))
			if t.writes || (!t.aliases && !t.loads) {
				return t.writes
			}
			// The call's results may point into the value: follow them.
			p, loaded = p.Parent(), !t.aliases
		case *ast.UnaryExpr:
			if n.Op != token.AND {
				return false // <-ch, -x, !x
			}
			loaded = false
		case *ast.BinaryExpr, *ast.ExprStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.CaseClause, *ast.ForStmt:
			return false
		case *ast.CallExpr:
			if ast.Unparen(n.Fun) == child {
				return false // calling a function value: as the field rule, a read
			}
			if tv, ok := f.info.Types[n.Fun]; ok && tv.IsType() {
				break // a conversion: the same value
			}
			if b := builtin(f.info, n); b != "" {
				switch b {
				case "delete", "append", "clear", "copy":
					if n.Args[0] == child {
						return true
					}
					return !loaded // stored into another slice
				}
				return false // len, cap, min, panic, ...
			}
			t := f.passArg(n, child, loaded)
			if t.writes || (!t.aliases && !t.loads) {
				return t.writes
			}
			loaded = !t.aliases
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if l == child {
					return !bare() // rebinding the variable itself writes nothing
				}
			}
			for _, l := range n.Lhs {
				if !isLocalTarget(f.info, l) {
					return !loaded // stored where it is not followed
				}
			}
			return false // the local variables are followed
		case *ast.IncDecStmt:
			return !bare()
		case *ast.RangeStmt:
			if n.X == child {
				return false
			}
			return !bare()
		case *ast.ValueSpec:
			return false
		case *ast.ReturnStmt:
			if f.summary && f.ownReturn(p) {
				f.out.aliases = f.out.aliases || !loaded
				f.out.loads = true
				return false
			}
			return !loaded
		default:
			// Sent, stored in a literal, and the rest: a loaded value is
			// read, as the field rule counts it; an address or the root
			// itself escapes where nothing follows it.
			return !loaded
		}
		child = p.Node()
	}
}

// loadedExpr reports whether a value derived from the roots is only
// loaded from memory they point to: a field, element or pointee of
// anything, a variable holding only such values, a call whose summaries
// return only such values, or a conversion of one.
func (f *flow) loadedExpr(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		s := f.info.Selections[e]
		return s == nil || s.Kind() == types.FieldVal
	case *ast.IndexExpr, *ast.StarExpr, *ast.BasicLit:
		return true
	case *ast.Ident:
		v, _ := f.info.Uses[e].(*types.Var)
		return !f.addr[v]
	case *ast.CallExpr:
		if tv, ok := f.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return f.loadedExpr(e.Args[0])
		}
		var t through
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && f.mentions(sel.X) {
			if s := f.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
				t = f.passTo(s.Obj().(*types.Func), onReceiver, true)
			}
		}
		for _, a := range e.Args {
			if f.mentions(a) {
				at := f.passArg(e, a, f.loadedExpr(a))
				t.aliases = t.aliases || at.aliases
			}
		}
		return !t.aliases
	}
	return false
}

// builtin is the name of the builtin a call calls, or "".
func builtin(info *types.Info, call *ast.CallExpr) string {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			return b.Name()
		}
	}
	return ""
}

// passArg says what a call does with the derived value child, one of its
// arguments: the summary of the parameter for a function of the package
// (every parameter, for f(g()) of a multi-value g), else a write unless
// the value was loaded; a builtin or an unknown callee returns what it
// was given, as far as anyone knows.
func (f *flow) passArg(call *ast.CallExpr, child ast.Node, loaded bool) through {
	if builtin(f.info, call) != "" {
		return through{aliases: !loaded, loads: loaded}
	}
	fn := typeutil.StaticCallee(f.info, call)
	sig, _ := f.info.TypeOf(call.Fun).Underlying().(*types.Signature)
	for i, a := range call.Args {
		if a != child {
			continue
		}
		if sig == nil || (sig.Variadic() && i >= sig.Params().Len()-1) {
			return through{writes: !loaded, aliases: !loaded, loads: loaded}
		}
		params := []int{i}
		if _, tuple := f.info.TypeOf(a).(*types.Tuple); tuple {
			params = params[:0]
			for j := range sig.Params().Len() {
				params = append(params, j)
			}
		}
		var out through
		for _, j := range params {
			t := f.passTo(fn, j, !loaded)
			out.writes = out.writes || t.writes
			out.aliases = out.aliases || t.aliases
			out.loads = out.loads || t.loads
		}
		return out
	}
	return through{writes: true}
}

// passTo says what handing the value to parameter param of fn does: the
// summary, for a function of the package with a body; else unknown: a
// write when unknownWrites, and results that may be what it was given.
func (f *flow) passTo(fn *types.Func, param int, unknownWrites bool) through {
	if fn != nil && fn.Pkg() == f.ch.r.Pass.Pkg && f.ch.r.Live.Decl(fn) != nil {
		return f.ch.through(fn, param)
	}
	return through{writes: unknownWrites, aliases: unknownWrites, loads: true}
}

// ownReturn reports whether a return statement returns from the
// declaration itself, not from a literal in it.
func (f *flow) ownReturn(ret inspector.Cursor) bool {
	for e := range ret.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		return e.Node() == f.decl.Node()
	}
	return false
}

// isLocalTarget reports whether an assignment's target is a local
// variable (or _), which the flow follows.
func isLocalTarget(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "_" {
		return true
	}
	v, ok := info.Defs[id].(*types.Var)
	if !ok {
		v, ok = info.Uses[id].(*types.Var)
	}
	return ok && locks.IsLocal(v)
}

// mayPoint reports whether a value of type t can refer to other memory: a
// pointer, map, slice, channel, function, interface or type parameter, or
// a struct or array holding one.
func mayPoint(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct:
		for f := range u.Fields() {
			if mayPoint(f.Type()) {
				return true
			}
		}
		return false
	case *types.Array:
		return mayPoint(u.Elem())
	}
	return true
}
