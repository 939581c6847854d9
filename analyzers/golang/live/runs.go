package live

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/resolve"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// A literal passed to a function runs where it is written when the
// function is known to call it before it returns: a function of this
// package that calls the parameter on every path (computed), one of
// another package analysed in the same run (by its Runs fact), one the
// invariants declare (`runs:`), or one of the standard library's below.

// Runs is the fact of a function that calls some of its function
// parameters on every path before it returns.
type Runs struct {
	// Params are the indices of those parameters.
	Params []int
}

// AFact marks Runs as an analysis fact.
func (*Runs) AFact() {}

func (r *Runs) String() string {
	s := make([]string, len(r.Params))
	for i, p := range r.Params {
		s[i] = fmt.Sprint(p)
	}
	return "runs parameters " + strings.Join(s, ", ")
}

// stdRunners are the standard library's functions that run a function
// argument before they return but do not do so on every path, so that
// no fact can say it: sync.Once.Do runs f the first time it is called,
// which is when the code it guards is written to run.
var stdRunners = map[string][]int{
	"(*sync.Once).Do": {0},
}

// runnersOf resolves the runners a configuration declares, as the package
// sees them, with the standard library's. A declared runner runs every
// function argument it is given (nil: all); a standard one, those listed.
func runnersOf(pass *analysis.Pass, set *invariants.Set) map[*types.Func][]int {
	out := map[*types.Func][]int{}
	scope := resolve.Of(pass)
	if set != nil {
		for _, n := range set.Runners() {
			if fn, err := scope.Func(n); err == nil {
				out[fn] = nil
			} // a runner this package cannot name is not called here
		}
	}
	for _, obj := range pass.TypesInfo.Uses {
		if fn, ok := obj.(*types.Func); ok {
			if params, ok := stdRunners[fn.Origin().FullName()]; ok {
				out[fn.Origin()] = params
			}
		}
	}
	return out
}

// runsParam reports whether calling fn runs its i-th argument, a function
// literal, before fn returns.
func (in *Info) runsParam(fn *types.Func, i int) bool {
	fn = fn.Origin()
	if params, ok := in.runners[fn]; ok && (params == nil || slices.Contains(params, i)) {
		return true
	}
	if fn.Pkg() == in.pass.Pkg {
		return in.runsParamLocked(fn, i)
	}
	var f Runs
	return in.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
}

// exportRuns exports the Runs fact of every function of the package that
// calls a function parameter on every path.
func (in *Info) exportRuns() {
	in.mu.Lock()
	defer in.mu.Unlock()
	for fn := range in.decls {
		sig := fn.Signature()
		var params []int
		for i := range sig.Params().Len() {
			if _, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); ok && in.runsParamLocked(fn, i) {
				params = append(params, i)
			}
		}
		if len(params) > 0 {
			in.pass.ExportObjectFact(fn, &Runs{Params: params})
		}
	}
}

// FuncValue returns the function or method an expression names as a
// value (e.retain, F, pkg.F), or nil.
func FuncValue(info *types.Info, e ast.Expr) *types.Func {
	var id *ast.Ident
	switch e := e.(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}
