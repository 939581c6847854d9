package live

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sync"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/golang/resolve"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

//go:embed doc.go
var doc string

// For returns the live analyzer of one configuration: the runners the
// invariants declare (`runs:`) decide which literals run where they are
// written. Every analyzer of a suite built on conf shares the one value
// For returns for it, so that the live code of a package is computed
// once.
func For(conf *analysis.Analyzer) *analysis.Analyzer {
	if a, ok := byConf.Load(conf); ok {
		return a.(*analysis.Analyzer)
	}
	a := &analysis.Analyzer{
		Name:       "live",
		Doc:        docs.Extract(doc, "live"),
		URL:        "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/golang/live",
		Run:        func(pass *analysis.Pass) (any, error) { return run(pass, pass.ResultOf[conf].(*guardconf.Config).Set) },
		ResultType: reflect.TypeFor[*Info](),
		Requires:   []*analysis.Analyzer{inspect.Analyzer, ctrlflow.Analyzer, resolve.Analyzer, conf},
		FactTypes:  []analysis.Fact{new(Runs)},
	}
	actual, _ := byConf.LoadOrStore(conf, a)
	return actual.(*analysis.Analyzer)
}

// byConf holds the live analyzer of each configuration analyzer. A
// configuration's analyzers are built together (registry.Analyzers); the
// entry keeps them sharing one live analyzer without a package-level one
// that configurations would share.
var byConf sync.Map

func run(pass *analysis.Pass, set *invariants.Set) (any, error) {
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	info := &Info{
		pass:    pass,
		cfgs:    pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs),
		bodies:  map[ast.Node]*Body{},
		decls:   map[*types.Func]*ast.FuncDecl{},
		runs:    map[runKey]runState{},
		bound:   map[*types.Var]*ast.FuncLit{},
		values:  map[*types.Var]*types.Func{},
		called:  map[ast.Expr]bool{},
		runners: runnersOf(pass, set),
		single:  singleAssignments(pass, in),
		written: writtenGlobals(pass, in),
	}
	for v, e := range info.single {
		switch e := e.(type) {
		case *ast.FuncLit:
			info.bound[v] = e
		case *ast.SelectorExpr, *ast.Ident:
			if fn := FuncValue(pass.TypesInfo, e); fn != nil {
				info.values[v] = fn
			}
		}
	}
	in.Preorder([]ast.Node{(*ast.FuncDecl)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if fn, ok := pass.TypesInfo.Defs[n.Name].(*types.Func); ok && n.Body != nil {
				info.decls[fn] = n
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && info.values[v] != nil {
					info.called[info.single[v]] = true
				}
			}
		}
	})
	info.exportRuns()
	return info, nil
}

// Info is the analyzer's result for one package. It builds bodies lazily
// and is safe for use by several analyzers at once.
type Info struct {
	pass *analysis.Pass
	cfgs *ctrlflow.CFGs

	mu     sync.Mutex
	bodies map[ast.Node]*Body // by *ast.FuncDecl or *ast.FuncLit
	decls  map[*types.Func]*ast.FuncDecl
	runs   map[runKey]runState
	bound  map[*types.Var]*ast.FuncLit // local variables bound once to a literal
	single map[*types.Var]ast.Expr     // local variables assigned once, at definition
	// written are the package-level variables this package writes after
	// initialisation (settled.go).
	written map[*types.Var]bool
	// values are the local variables bound once to a function or method
	// value (r := e.retain), which a call through them calls; called are
	// those values that such a call uses.
	values map[*types.Var]*types.Func
	called map[ast.Expr]bool
	// runners are the functions known to call a function argument before
	// they return: the declared and the built-in ones (see runs.go).
	runners map[*types.Func][]int
}

// Value returns the expression a local variable was given at its
// definition, when that is its only assignment and its address is never
// taken; otherwise nil.
func (in *Info) Value(v *types.Var) ast.Expr { return in.single[v] }

// Pass returns the pass the result belongs to.
func (in *Info) Pass() *analysis.Pass { return in.pass }

// Decl returns the declaration of a function or method of this package
// that has a body, or nil.
func (in *Info) Decl(fn *types.Func) *ast.FuncDecl {
	return in.decls[fn.Origin()]
}

// Func returns the live body of a function declaration. It returns nil
// for a declaration without a body (an assembly or linkname function).
func (in *Info) Func(decl *ast.FuncDecl) *Body {
	if decl.Body == nil {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.bodyLocked(decl, decl.Body)
}

// Lit returns the live body of a function literal, analysed as a
// function of its own (from its entry, whatever runs around it).
func (in *Info) Lit(lit *ast.FuncLit) *Body {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.bodyLocked(lit, lit.Body)
}

// bodyLocked builds or returns the body of a declaration or literal.
func (in *Info) bodyLocked(fn ast.Node, block *ast.BlockStmt) *Body {
	if b, ok := in.bodies[fn]; ok {
		return b
	}
	b := &Body{Node: fn}
	in.bodies[fn] = b // before building: literals may refer to each other
	newBuilder(in, b).build(block)
	return b
}

// Body is the live code of one function declaration or literal.
type Body struct {
	// Node is the *ast.FuncDecl or *ast.FuncLit.
	Node ast.Node
	// Blocks are the live basic blocks; Blocks[0] is the entry.
	Blocks []*Block
	// Calls is every call and function reference in the body, nested
	// literals included, live or not, in source order.
	Calls []*Occurrence
	// Dead lists the code of the body that does not run, or cannot be
	// shown to run, with the reason.
	Dead []*DeadCode
}

// DeadCode is a region of a body that is not live, and why.
type DeadCode struct {
	Node ast.Node
	core.Liveness
	// Passed marks the body of a function literal passed to a function
	// that cannot be shown to call it: it may run during that call, or
	// later, as far as anyone can tell.
	Passed bool
}

// Passed reports whether pos lies in code that does not surely run only
// because it is in function literals passed to functions that cannot be
// shown to call them (sort.Slice(s, func(i, j int) bool { ... })): code
// that may run during the call. Live code and other dead code are not.
func (b *Body) Passed(pos token.Pos) bool {
	passed := false
	for _, d := range b.Dead {
		if d.Node.Pos() <= pos && pos < d.Node.End() {
			if !d.Passed {
				return false
			}
			passed = true
		}
	}
	return passed
}

// DeadAt returns the dead region that holds pos, or nil when pos is live.
func (b *Body) DeadAt(pos token.Pos) *DeadCode {
	for _, d := range b.Dead {
		if d.Node.Pos() <= pos && pos < d.Node.End() {
			return d
		}
	}
	return nil
}

// Block is a live basic block.
type Block struct {
	Steps []*Step
	Succs []*Block
	// Return is the return statement that ends the block, or nil when the
	// block does not end the function normally (it jumps on, or it ends
	// in a panic or another terminating call). Falling off the end of a
	// function is a synthetic return at the closing brace.
	Return *ast.ReturnStmt
	index  int
}

// Step is one statement or expression of a block, with what it runs.
type Step struct {
	// Node is the statement, expression or value spec.
	Node ast.Node
	// Effects are the calls the step makes, in evaluation order.
	Effects []*Effect
}

// Effect is one call that runs when its step runs.
type Effect struct {
	Call *ast.CallExpr
	// Callee is the statically known function or method called, or nil
	// for a call of a function value, a builtin or a conversion.
	Callee *types.Func
	// Deferred: the call runs when the function returns, not here.
	Deferred bool
	// Cond: the call may not run when the step runs (it is the right
	// operand of && or ||).
	Cond bool
	// Lit is set when the effect is a function literal running here; its
	// body's effects happen at this point.
	Lit *Body
}

// Occurrence is a call or a reference to a function in a body.
type Occurrence struct {
	// Node is the *ast.CallExpr, or the expression of a function or method
	// value that is never called.
	Node   ast.Node
	Callee *types.Func
	// Liveness says whether the call runs; a call in a stored literal or
	// a go statement may still run.
	core.Liveness
}

// Is reports whether Callee is one of fns.
func (o *Occurrence) Is(fns ...*types.Func) bool {
	return o.Callee != nil && slices.Contains(fns, o.Callee)
}

// A Deferral is a call the body defers. Sure says its defer statement is
// in the entry block, so it is registered on every path; one elsewhere may
// not have been.
type Deferral struct {
	*Effect
	Sure bool
}

// Deferred returns the calls the body defers, in the order their defer
// statements appear: they run when it returns, last first.
func (b *Body) Deferred() []Deferral {
	var out []Deferral
	for i, blk := range b.Blocks {
		for _, step := range blk.Steps {
			for _, e := range step.Effects {
				if e.Deferred {
					out = append(out, Deferral{Effect: e, Sure: i == 0})
				}
			}
		}
	}
	return out
}

// Walk calls f for every effect of the body that runs, including the
// effects of literals that run inside it, depth first.
func (b *Body) Walk(f func(*Step, *Effect)) {
	seen := map[*Body]bool{}
	var walk func(*Body)
	walk = func(b *Body) {
		if seen[b] {
			return
		}
		seen[b] = true
		for _, blk := range b.Blocks {
			for _, s := range blk.Steps {
				for _, e := range s.Effects {
					f(s, e)
					if e.Lit != nil {
						walk(e.Lit)
					}
				}
			}
		}
	}
	walk(b)
}

// calleeOf returns the static callee of a call, with generic
// instantiations mapped to their origin.
func calleeOf(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// Leaves reports whether the last statement of list ends the function on
// every path through it: the live block that runs it ends in a return, or
// has no successor (a panic, a call that never returns by ctrlflow's
// facts, an endless loop). A statement that is not live, or that jumps on
// (an if whose branches do not both leave), does not.
func (b *Body) Leaves(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	last := list[len(list)-1]
	for _, blk := range b.Blocks {
		for i, s := range blk.Steps {
			if s.Node != last {
				continue
			}
			return i == len(blk.Steps)-1 && (blk.Return != nil || len(blk.Succs) == 0)
		}
	}
	return false
}
