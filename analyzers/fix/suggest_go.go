package fix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// goSide is the Go packages of the changed files, loaded as they are now
// (after the fix) or as the revert leaves them (before it).
type goSide struct {
	pkgs []*packages.Package
	// lives are the packages' live code, by package ID, as the checks
	// read it (driver.Live): the one Go front end's locks and liveness.
	lives map[string]*live.Info
	// lines are the changed lines by absolute file path: added ones on
	// the side after the fix, removed ones on the side before it.
	lines map[string]map[int]bool
}

// goNamer writes Go names the way invariants files do, relative to the
// package of the invariant (pkg) and to the main module.
type goNamer struct {
	pkg    *types.Package
	module *packages.Module
	// locks reads lock operations as the checks do (embedded mutexes,
	// method values, aliases).
	locks *locks.Resolver
}

// namerOf is the namer of a loaded package of a side.
func namerOf(side *goSide, p *packages.Package) goNamer {
	return goNamer{pkg: p.Types, module: p.Module, locks: &locks.Resolver{Info: p.TypesInfo, Live: side.lives[p.ID]}}
}

// pkgName is the module-relative name of a package of the main module,
// or "" for one outside it (guardlint suggests nothing about those).
func (n goNamer) pkgName(p *types.Package) string {
	if p == nil || n.module == nil {
		return ""
	}
	path := p.Path()
	if path == n.module.Path {
		return "."
	}
	if rest, ok := strings.CutPrefix(path, n.module.Path+"/"); ok {
		return "./" + rest
	}
	return ""
}

// funcName names a function or method of the main module, or "": a
// function a body can be written for (an invariant's target, a function
// that needs a lock), so never an interface's method.
func (n goNamer) funcName(fn *types.Func) string {
	return n.name(fn, false)
}

// calleeName names what a call of the main module calls: a function or
// method as funcName does, and also a method of an interface of the
// module, (store).Get, which call, forbid and order match as the
// interface's method (a call through the interface, whatever implements
// it). A fix that stops calling c.store.Get removes that call, not a
// call of one implementation.
func (n goNamer) calleeName(fn *types.Func) string {
	return n.name(fn, true)
}

func (n goNamer) name(fn *types.Func, iface bool) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	rel := n.pkgName(fn.Pkg())
	if rel == "" {
		return ""
	}
	qual := ""
	if fn.Pkg() != n.pkg {
		qual = rel + "."
	}
	sig := fn.Type().(*types.Signature)
	recv := sig.Recv()
	if recv == nil {
		return qual + fn.Name()
	}
	t := recv.Type()
	ptr := ""
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), "*"
	}
	named, ok := t.(*types.Named)
	if !ok || types.IsInterface(named) && !iface {
		return ""
	}
	return fmt.Sprintf("(%s%s%s).%s", ptr, qual, named.Obj().Name(), fn.Name())
}

// fieldName names a field of a named struct of the main module as
// (T).f, or "".
func (n goNamer) fieldName(recv types.Type, field *types.Var) string {
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := recv.(*types.Named)
	if !ok || n.pkgName(named.Obj().Pkg()) == "" {
		return ""
	}
	qual := ""
	if named.Obj().Pkg() != n.pkg {
		qual = n.pkgName(named.Obj().Pkg()) + "."
	}
	return fmt.Sprintf("(%s%s).%s", qual, named.Obj().Name(), field.Name())
}

// declName names a function declaration as invariants do.
func declName(info *types.Info, n goNamer, d *ast.FuncDecl) string {
	fn, _ := info.Defs[d.Name].(*types.Func)
	return n.funcName(fn)
}

// lockOp describes a call of a sync mutex's Lock, RLock, Unlock or
// RUnlock, with the name of the lock it operates on ("" when the lock is
// not a package variable or a field of a named struct of the module).
type lockOp struct {
	op   locks.Op
	lock string
}

// lockOf reads a lock operation through the Go front end
// (locks.Resolver.MutexOp), and names its lock as invariants do: the
// package variable, or (T).f for a field, the mutex embedded in a struct
// named as that struct's field ((orderedConsumer).Mutex).
func lockOf(n goNamer, call *ast.CallExpr) (lockOp, bool) {
	op, ref := n.locks.MutexOp(call)
	if op == locks.None {
		return lockOp{}, false
	}
	out := lockOp{op: op}
	if v, ok := ref.Obj.(*types.Var); ok {
		switch {
		case v.IsField():
			if ref.Owner != nil {
				out.lock = n.fieldName(ref.Owner, v)
			}
		case v.Pkg() == n.pkg && v.Parent() == v.Pkg().Scope():
			out.lock = v.Name()
		}
	}
	return out, true
}

// goFacts reads the facts of the Go side of a change into c: after
// holds the packages as they are now with the lines the fix added,
// before those the revert leaves with the lines it removed (nil when the
// revert does not type-check). Only functions, fields and locks of the
// main module are named: guardlint proposes nothing about the standard
// library's.
func goFacts(after, before *goSide, c *core.Change) {
	for _, p := range after.pkgs {
		n := namerOf(after, p)
		rel := n.pkgName(p.Types)
		if rel == "" {
			continue
		}
		for _, f := range p.Syntax {
			file := p.Fset.File(f.Pos()).Name()
			added := after.lines[file]
			if len(added) == 0 {
				continue
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || !touches(p.Fset, fd, added) {
					continue
				}
				name := declName(p.TypesInfo, n, fd)
				if name == "" {
					continue
				}
				at := func(node ast.Node) core.Origin { return goOrigin(p, rel, name, node, false) }
				c.Calls = append(c.Calls, addedCalls(p, n, fd, added, at)...)
				c.Locks = append(c.Locks, addedLocks(p, n, fd, added, at)...)
				c.Checks = append(c.Checks, addedChecks(p, n, fd, added, at)...)
				c.Guarded = append(c.Guarded, guardedAccesses(p, n, fd, added, at)...)
			}
		}
	}
	if before != nil {
		removedWrites(after, before, c)
	}
}

// goOrigin is where a fact of the Go side is: the function name of
// package rel, at node.
func goOrigin(p *packages.Package, rel, name string, node ast.Node, removed bool) core.Origin {
	pos := p.Fset.Position(node.Pos())
	return core.Origin{Lang: invariants.LangGo, Package: rel, Function: name, File: filepath.Base(pos.Filename), Line: pos.Line, Removed: removed}
}

// touches reports whether a declaration spans one of the lines.
func touches(fset *token.FileSet, n ast.Node, lines map[int]bool) bool {
	from, to := fset.Position(n.Pos()).Line, fset.Position(n.End()).Line
	for l := range lines {
		if l >= from && l <= to {
			return true
		}
	}
	return false
}

// onLines reports whether a node starts on one of the lines.
func onLines(fset *token.FileSet, n ast.Node, lines map[int]bool) bool {
	return lines[fset.Position(n.Pos()).Line]
}

// addedCalls are the calls of functions of the module that the fix
// added.
func addedCalls(p *packages.Package, n goNamer, fd *ast.FuncDecl, added map[int]bool, at func(ast.Node) core.Origin) []core.AddedCall {
	var out []core.AddedCall
	seen := map[string]bool{}
	ast.Inspect(fd.Body, func(node ast.Node) bool {
		if _, ok := node.(*ast.FuncLit); ok {
			return false // a literal's calls run when it runs, not here
		}
		call, ok := node.(*ast.CallExpr)
		if !ok || !onLines(p.Fset, call, added) {
			return true
		}
		if _, isLock := lockOf(n, call); isLock {
			return true
		}
		fn, _ := typeutil.Callee(p.TypesInfo, call).(*types.Func)
		callee := n.calleeName(fn)
		if callee == "" && loadBearingStd(fn) {
			callee = stdName(fn)
		}
		if callee == "" || seen[callee] {
			return true
		}
		seen[callee] = true
		out = append(out, core.AddedCall{Origin: at(call), Callee: callee})
		return true
	})
	return out
}

// addedLocks are the locks the fix added as statements of the body's
// outermost block, with the functions of the module called while they
// are held.
func addedLocks(p *packages.Package, n goNamer, fd *ast.FuncDecl, added map[int]bool, at func(ast.Node) core.Origin) []core.AddedLock {
	var out []core.AddedLock
	for _, stmt := range fd.Body.List {
		es, ok := stmt.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		op, ok := lockOf(n, call)
		if !ok || op.lock == "" || (op.op != locks.Lock && op.op != locks.RLock) {
			continue
		}
		// The fix added the lock, or changed how the body releases it (a
		// defer that replaces the unlocks of each return, an unlock added
		// on a path that returned with the lock held): either way what it
		// keeps is the lock held for the body, and released.
		if !onLines(p.Fset, es, added) && !releasesOnLines(p, n, fd, op.lock, added) {
			continue
		}
		mode := invariants.Exclusive
		if op.op == locks.RLock {
			mode = invariants.Shared
		}
		out = append(out, core.AddedLock{Origin: at(call), Lock: op.lock, Mode: mode, Held: heldCalls(p, n, fd, stmt)})
	}
	return out
}

// heldCalls lists the functions of the module that a body calls after
// the statement that locks, up to its explicit unlock if there is one.
func heldCalls(p *packages.Package, n goNamer, fd *ast.FuncDecl, lock ast.Stmt) []string {
	var out []string
	started := false
	for _, stmt := range fd.Body.List {
		if stmt == lock {
			started = true
			continue
		}
		if !started {
			continue
		}
		if es, ok := stmt.(*ast.ExprStmt); ok {
			if call, ok := es.X.(*ast.CallExpr); ok {
				if op, ok := lockOf(n, call); ok && (op.op == locks.Unlock || op.op == locks.RUnlock) {
					break
				}
			}
		}
		ast.Inspect(stmt, func(node ast.Node) bool {
			if _, ok := node.(*ast.FuncLit); ok {
				return false
			}
			if call, ok := node.(*ast.CallExpr); ok {
				if _, isLock := lockOf(n, call); !isLock {
					fn, _ := typeutil.Callee(p.TypesInfo, call).(*types.Func)
					if name := n.funcName(fn); name != "" && !slices.Contains(out, name) {
						out = append(out, name)
					}
				}
			}
			return true
		})
	}
	return out
}

// addedChecks are the `if`s the fix added whose condition calls a
// function of the module, with the call each protects: the first one in
// the if's body, or after it when the if returns (a guard clause).
func addedChecks(p *packages.Package, n goNamer, fd *ast.FuncDecl, added map[int]bool, at func(ast.Node) core.Origin) []core.AddedCheck {
	var out []core.AddedCheck
	var body *live.Body // whether an if leaves the function, as the checks see it
	if n.locks.Live != nil {
		body = n.locks.Live.Func(fd)
	}
	firstCall := func(nodes ...ast.Node) string {
		found := ""
		for _, node := range nodes {
			ast.Inspect(node, func(x ast.Node) bool {
				if found != "" {
					return false
				}
				if _, ok := x.(*ast.FuncLit); ok {
					return false
				}
				if call, ok := x.(*ast.CallExpr); ok {
					if _, isLock := lockOf(n, call); !isLock {
						fn, _ := typeutil.Callee(p.TypesInfo, call).(*types.Func)
						found = n.calleeName(fn)
					}
				}
				return found == ""
			})
		}
		return found
	}
	astutil.Apply(fd.Body, func(c *astutil.Cursor) bool {
		ifs, ok := c.Node().(*ast.IfStmt)
		if !ok || !onLines(p.Fset, ifs, added) {
			return true
		}
		var cond []ast.Node
		if ifs.Init != nil {
			cond = append(cond, ifs.Init)
		}
		cond = append(cond, ifs.Cond)
		first := firstCall(cond...)
		if first == "" {
			return true
		}
		var then string
		if body != nil && body.Leaves(ifs.Body.List) {
			// A guard clause: what it protects follows it.
			if blk, ok := c.Parent().(*ast.BlockStmt); ok {
				i := slices.Index(blk.List, ast.Stmt(ifs))
				for _, s := range blk.List[i+1:] {
					if then = firstCall(s); then != "" {
						break
					}
				}
			}
		} else {
			then = firstCall(ifs.Body)
		}
		if then != "" && then != first {
			out = append(out, core.AddedCheck{Origin: at(ifs), First: first, Then: then})
		}
		return true
	}, nil)
	return out
}

// removedWrites reads what the fix removed into c: the writes of a
// field, with the functions that write it now, and the calls of the
// module a function no longer makes.
func removedWrites(after, before *goSide, c *core.Change) {
	seen := map[string]bool{}
	for _, p := range before.pkgs {
		n := namerOf(before, p)
		rel := n.pkgName(p.Types)
		for _, f := range p.Syntax {
			removed := before.lines[p.Fset.File(f.Pos()).Name()]
			if len(removed) == 0 {
				continue
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || !touches(p.Fset, fd, removed) {
					continue
				}
				name := declName(p.TypesInfo, n, fd)
				ast.Inspect(fd.Body, func(node ast.Node) bool {
					switch x := node.(type) {
					case *ast.AssignStmt:
						if !onLines(p.Fset, x, removed) {
							return true
						}
						for _, lhs := range x.Lhs {
							sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
							if !ok {
								continue
							}
							s := p.TypesInfo.Selections[sel]
							if s == nil || s.Kind() != types.FieldVal {
								continue
							}
							field := n.fieldName(s.Recv(), s.Obj().(*types.Var))
							if field == "" || seen["write "+field] {
								continue
							}
							seen["write "+field] = true
							c.RemovedWrites = append(c.RemovedWrites, core.RemovedWrite{Origin: goOrigin(p, rel, name, x, true), Field: field, Writers: writersNow(after, s.Obj().(*types.Var))})
						}
					case *ast.CallExpr:
						if name == "" || !onLines(p.Fset, x, removed) {
							return true
						}
						if _, isLock := lockOf(n, x); isLock {
							return true
						}
						fn, _ := typeutil.Callee(p.TypesInfo, x).(*types.Func)
						callee := n.calleeName(fn)
						if callee == "" || seen["call "+name+callee] || callsNow(after, name, callee) {
							return true
						}
						seen["call "+name+callee] = true
						c.RemovedCalls = append(c.RemovedCalls, core.RemovedCall{Origin: goOrigin(p, rel, name, x, true), Callee: callee})
					}
					return true
				})
			}
		}
	}
}

// sameField matches a field of the packages after the fix with one of
// the packages before it, which are other type-checks: by package path,
// type and field name.
func sameField(a, b *types.Var) bool {
	return a.Name() == b.Name() && a.Pkg() != nil && b.Pkg() != nil && a.Pkg().Path() == b.Pkg().Path() && ownerName(a) == ownerName(b)
}

// ownerName is the name of the struct type a field belongs to, found
// through its package's scope.
func ownerName(v *types.Var) string {
	scope := v.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				if st.Field(i) == v.Origin() {
					return name
				}
			}
		}
	}
	return ""
}

// writersNow lists the functions that write the field after the fix.
func writersNow(after *goSide, field *types.Var) []string {
	var out []string
	for _, p := range after.pkgs {
		n := namerOf(after, p)
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				writes := false
				ast.Inspect(fd.Body, func(node ast.Node) bool {
					writes = writes || writesField(p.TypesInfo, node, field)
					return !writes
				})
				if name := declName(p.TypesInfo, n, fd); writes && name != "" && !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// writesField reports whether a node writes the field the way owns counts
// writes: an assignment, ++ or --, taking its address, or setting it in
// a composite literal (a constructor that sets the field is a writer:
// ristretto's NewCache sets setBuf, and owns reports Clear's
// reassignment only if NewCache is listed).
func writesField(info *types.Info, node ast.Node, field *types.Var) bool {
	isField := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s := info.Selections[sel]
		return s != nil && s.Kind() == types.FieldVal && sameField(s.Obj().(*types.Var), field)
	}
	switch x := node.(type) {
	case *ast.AssignStmt:
		return slices.ContainsFunc(x.Lhs, isField)
	case *ast.IncDecStmt:
		return isField(x.X)
	case *ast.UnaryExpr:
		return x.Op == token.AND && isField(x.X)
	case *ast.CompositeLit:
		t := info.TypeOf(x)
		if t == nil {
			return false
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		for i, el := range x.Elts {
			var f *types.Var
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					f, _ = info.Uses[id].(*types.Var)
				}
			} else if i < st.NumFields() {
				f = st.Field(i)
			}
			if f != nil && sameField(f, field) {
				return true
			}
		}
	}
	return false
}

// callsNow reports whether the function still calls callee after the
// fix (by the names invariants use).
func callsNow(after *goSide, function, callee string) bool {
	for _, p := range after.pkgs {
		n := namerOf(after, p)
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || declName(p.TypesInfo, n, fd) != function {
					continue
				}
				found := false
				ast.Inspect(fd.Body, func(node ast.Node) bool {
					if call, ok := node.(*ast.CallExpr); ok {
						fn, _ := typeutil.Callee(p.TypesInfo, call).(*types.Func)
						if n.calleeName(fn) == callee {
							found = true
						}
					}
					return !found
				})
				if found {
					return true
				}
			}
		}
	}
	return false
}

// releasesOnLines reports whether one of the lines calls Unlock or
// RUnlock of the lock, deferred or not.
func releasesOnLines(p *packages.Package, n goNamer, fd *ast.FuncDecl, lock string, lines map[int]bool) bool {
	found := false
	ast.Inspect(fd.Body, func(node ast.Node) bool {
		if _, ok := node.(*ast.FuncLit); ok || found {
			return false
		}
		if call, ok := node.(*ast.CallExpr); ok && onLines(p.Fset, call, lines) {
			if op, ok := lockOf(n, call); ok && op.lock == lock && (op.op == locks.Unlock || op.op == locks.RUnlock) {
				found = true
			}
		}
		return !found
	})
	return found
}
