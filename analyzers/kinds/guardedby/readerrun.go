package guardedby

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/live"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// readerRunners are standard functions that call the methods of the
// reader they are passed only before they return and keep no reference
// to it, with the index of the reader argument. io.Copy, io.CopyN and
// io.CopyBuffer hand the reader to the writer's ReadFrom when it has one,
// which could keep it: they count only when the writer is io.Discard,
// whose ReadFrom reads during the call.
var readerRunners = map[string]int{
	"io.ReadAll": 0, "io.ReadFull": 0, "io.ReadAtLeast": 0,
	"io.Copy": 1, "io.CopyN": 1, "io.CopyBuffer": 1,
}

// findRunOnly finds the package's unexported types whose values exist
// only as composite literals handed as the reader to a reader runner
// (bodyLocked{b} in io.Copy(io.Discard, bodyLocked{b})): every mention of
// the type is such a literal's, apart from the receivers of its methods,
// which use the receiver only to select a field or call a method. No
// other code can hold a value of the type, so its methods run only
// during those calls, called through io.Reader with the caller's locks
// held. Their methods are no entry points, and each such call is a call
// of every method of the type on the literal (runProbes).
func (ch *checker) findRunOnly() {
	info := ch.r.Pass.TypesInfo
	pkg := ch.r.Pass.Pkg
	ch.runCalls = map[*ast.CallExpr]*ast.CompositeLit{}
	ch.runOnly = map[*types.TypeName]bool{}
	ch.runUnits = map[*types.Func]bool{}
	found := map[*ast.CallExpr]*types.TypeName{}
	bad := map[*types.TypeName]bool{}
	for c := range ch.r.Inspect.Root().Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		tn, ok := info.Uses[id].(*types.TypeName)
		if !ok || tn.Pkg() != pkg || tn.Exported() || tn.Parent() != pkg.Scope() || bad[tn] {
			continue
		}
		if recv, ok := receiverOf(c); ok {
			if !ch.receiverStays(recv) {
				bad[tn] = true
			}
			continue
		}
		call := ch.runnerReader(c)
		if call == nil || isGeneric(tn) {
			bad[tn] = true
			continue
		}
		found[call] = tn
	}
	for call, tn := range found {
		if bad[tn] {
			continue
		}
		ch.runOnly[tn] = true
		ch.runCalls[call] = ast.Unparen(call.Args[readerArg(info, call)]).(*ast.CompositeLit)
		if e, ok := ch.r.Inspect.Root().FindNode(call); ok {
			if d, ok := enclosingDecl(e); ok {
				if fn, ok := info.Defs[d.Node().(*ast.FuncDecl).Name].(*types.Func); ok {
					ch.runUnits[fn] = true
				}
			}
		}
	}
}

// receiverOf returns the declaration of a method when the identifier at c
// is in its receiver's type.
func receiverOf(c inspector.Cursor) (*ast.FuncDecl, bool) {
	id := c.Node()
	for e := range c.Enclosing((*ast.FuncDecl)(nil)) {
		d := e.Node().(*ast.FuncDecl)
		return d, d.Recv != nil && d.Recv.Pos() <= id.Pos() && id.End() <= d.Recv.End()
	}
	return nil, false
}

// receiverStays reports whether a method uses its receiver only to
// select a field or call a method on it: the value goes nowhere.
func (ch *checker) receiverStays(d *ast.FuncDecl) bool {
	fn, ok := ch.r.Pass.TypesInfo.Defs[d.Name].(*types.Func)
	if !ok || d.Body == nil {
		return false
	}
	recv := fn.Signature().Recv()
	stays := true
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && ch.r.Pass.TypesInfo.Uses[id] == recv {
				return false // r.f, r.m(): the selection, not the value
			}
		}
		if id, ok := n.(*ast.Ident); ok && ch.r.Pass.TypesInfo.Uses[id] == recv {
			stays = false
		}
		return stays
	})
	return stays
}

// runnerReader returns the call when the type name at c is the type of a
// composite literal that a reader runner is passed as its reader.
func (ch *checker) runnerReader(c inspector.Cursor) *ast.CallExpr {
	lit, ok := c.Parent().Node().(*ast.CompositeLit)
	if !ok || lit.Type != c.Node() {
		return nil
	}
	p := c.Parent().Parent()
	for {
		if _, ok := p.Node().(*ast.ParenExpr); !ok {
			break
		}
		p = p.Parent()
	}
	call, ok := p.Node().(*ast.CallExpr)
	info := ch.r.Pass.TypesInfo
	if !ok {
		return nil
	}
	i := readerArg(info, call)
	if i < 0 || i >= len(call.Args) || ast.Unparen(call.Args[i]) != lit {
		return nil
	}
	if i == 1 && !isDiscard(info, call.Args[0]) {
		return nil
	}
	return call
}

// readerArg is the index of the reader argument of a call of a reader
// runner, or -1.
func readerArg(info *types.Info, call *ast.CallExpr) int {
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return -1
	}
	if i, ok := readerRunners[fn.Pkg().Path()+"."+fn.Name()]; ok {
		return i
	}
	return -1
}

// isDiscard reports whether e is io.Discard.
func isDiscard(info *types.Info, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := info.Uses[sel.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "io" && v.Name() == "Discard"
}

// isGeneric reports whether a type name declares a generic type.
func isGeneric(tn *types.TypeName) bool {
	n, ok := tn.Type().(*types.Named)
	return !ok || n.TypeParams().Len() > 0
}

// runOnlyMethod reports whether fn is a method of a run-only type: no
// entry point.
func (ch *checker) runOnlyMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	n, ok := recv.Type().(*types.Named)
	return ok && ch.runOnly[n.Obj()]
}

// runProbes returns, for a call of a reader runner with a run-only
// literal as its reader, a probe for each method of the literal's type
// that needs the lock: the call runs it, on the literal. The value whose
// lock it needs is the literal's field its need names (bodyLocked{b}
// and a need of bl.b's lock: b), or unknown.
func (ch *checker) runProbes(c *contract, e *live.Effect, s *live.Step) []*probe {
	lit, ok := ch.runCalls[e.Call]
	if !ok {
		return nil
	}
	t := ch.r.Pass.TypesInfo.TypeOf(lit)
	var out []*probe
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		m := ms.At(i).Obj().(*types.Func)
		cn := ch.needOf(m, c)
		if cn == nil {
			continue
		}
		p := &probe{node: e.Call, callee: m, via: e.Callee, cn: cn, needed: cn.level, step: s}
		if cn.param != onPackage {
			p.base, p.sub = literalField(ch.r.Pass.TypesInfo, lit, cn.sub)
			if p.base != nil {
				if p.key = ch.key(p.base); p.key != "" {
					p.key += p.sub
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// literalField resolves the first field of a need's path on a composite
// literal: the element given for it, and the rest of the path. nil when
// the path does not start with a field the literal sets.
func literalField(info *types.Info, lit *ast.CompositeLit, sub string) (ast.Expr, string) {
	name, rest, _ := strings.Cut(strings.TrimPrefix(sub, "."), ".")
	if rest != "" {
		rest = "." + rest
	}
	st, ok := info.TypeOf(lit).Underlying().(*types.Struct)
	if !ok || name == "" || strings.ContainsAny(name, "[]") {
		return nil, ""
	}
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value, rest
			}
			continue
		}
		if i < st.NumFields() && st.Field(i).Name() == name {
			return el, rest
		}
	}
	return nil, ""
}
