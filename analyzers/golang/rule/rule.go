// Package rule is the plumbing the rule analyzers share: finding the
// invariants that apply to a package, resolving their names through
// go/types, and reporting through one helper that applies suppressions
// and puts the invariant id and its why into every message.
package rule

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/golang/locks"
	"github.com/guardlint/guardlint/analyzers/golang/resolve"
	"github.com/guardlint/guardlint/analyzers/suppress"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Requires returns the analyzers a rule analyzer needs, given the
// guardconf analyzer of its suite.
func Requires(conf *analysis.Analyzer) []*analysis.Analyzer {
	return []*analysis.Analyzer{conf, inspect.Analyzer, resolve.Analyzer, live.For(conf), suppress.Analyzer}
}

// NewAnalyzer builds the analyzer of one rule kind: it reads invariants
// from conf and runs check over the invariants of that kind in each
// package. doc is the Doc text (see package docs).
func NewAnalyzer(kind invariants.Kind, doc string, conf *analysis.Analyzer, check func(*Rule), opts ...Option) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:     string(kind),
		Doc:      doc,
		URL:      "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/kinds/" + strings.ReplaceAll(string(kind), "_", ""),
		Requires: Requires(conf),
		Run: func(pass *analysis.Pass) (any, error) {
			check(New(pass, conf, kind))
			return nil, nil
		},
	}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Option adds to the analyzer of a kind.
type Option func(*analysis.Analyzer)

// Facts declares the facts a kind's analyzer exports. Drivers then run it
// on the dependencies of the packages they check too, so that the facts
// reach the importers.
func Facts(facts ...analysis.Fact) Option {
	return func(a *analysis.Analyzer) { a.FactTypes = append(a.FactTypes, facts...) }
}

// Needs adds analyzers whose results a kind's check reads from the pass.
func Needs(as ...*analysis.Analyzer) Option {
	return func(a *analysis.Analyzer) { a.Requires = append(a.Requires, as...) }
}

// ResolveLock resolves the lock an invariant names, as this package sees
// it. A lock that is not a sync.Mutex or sync.RWMutex leaves nothing to
// check (ok false), and so, where report is set (the lock's own package,
// or one the invariant is checked in), does a lock that does not resolve:
// both are reported there as unverifiable. Elsewhere the lock is nil when
// the package cannot name it (a package loaded from export data keeps no
// unexported variable its API does not mention), and the check goes on
// without it: such a package cannot take the lock itself.
func (r *Rule) ResolveLock(inv *invariants.Invariant, n invariants.Name, report bool) (lock *types.Var, ok bool) {
	if report {
		if lock, ok = r.ResolveVar(inv, "lock", n); !ok {
			return nil, false
		}
	} else if lock, _ = r.Var(n); lock == nil {
		return nil, true
	}
	if !locks.IsMutex(lock.Type()) {
		if report {
			r.Unverifiable(inv, n.Pos, "lock %s has type %s, not sync.Mutex or sync.RWMutex", n.Short(), lock.Type())
		}
		return nil, false
	}
	return lock, true
}

// Rule is one rule analyzer's view of a pass.
type Rule struct {
	Pass *analysis.Pass
	// Inspect walks the package's syntax (x/tools' inspect analyzer).
	Inspect *inspector.Inspector
	Conf    *guardconf.Config
	Live    *live.Info
	Sup     *suppress.Result
	kind    invariants.Kind
}

// New collects the results a rule analyzer needs from its pass.
func New(pass *analysis.Pass, conf *analysis.Analyzer, kind invariants.Kind) *Rule {
	return &Rule{
		Pass:    pass,
		Inspect: pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		Conf:    pass.ResultOf[conf].(*guardconf.Config),
		Live:    pass.ResultOf[live.For(conf)].(*live.Info),
		Sup:     pass.ResultOf[suppress.Analyzer].(*suppress.Result),
		kind:    kind,
	}
}

// Invariants returns the Go invariants of the rule's kind whose targets
// lie in this package: a function target declared here, or, for owns, a
// field this package can see (it may write it).
func (r *Rule) Invariants() []*invariants.Invariant {
	var out []*invariants.Invariant
	for _, inv := range r.Conf.Set.Invariants {
		if inv.Kind() != r.kind || inv.Lang != invariants.LangGo {
			continue
		}
		switch {
		case inv.Field != nil:
			if r.PackageOf(*inv.Field) != nil {
				out = append(out, inv)
			}
		default:
			for _, fn := range inv.Functions {
				if fn.Pkg == r.Pass.Pkg.Path() {
					out = append(out, inv)
					break
				}
			}
		}
	}
	return out
}

// OfKind returns every Go invariant of the rule's kind, wherever its
// targets are: for the kinds that follow calls into the package from
// others (requires, excludes) or have no target (lock_order).
func (r *Rule) OfKind() []*invariants.Invariant {
	var out []*invariants.Invariant
	for _, inv := range r.Conf.Set.Invariants {
		if inv.Kind() == r.kind && inv.Lang == invariants.LangGo {
			out = append(out, inv)
		}
	}
	return out
}

// Target is a resolved target function of an invariant.
type Target struct {
	Name invariants.Name
	Func *types.Func
	Decl *ast.FuncDecl
	Body *live.Body
}

// Targets resolves the invariant's functions that live in this package.
// Each one that does not resolve is reported as unverifiable and skipped.
func (r *Rule) Targets(inv *invariants.Invariant) []Target {
	var out []Target
	for _, n := range inv.Functions {
		if n.Pkg != r.Pass.Pkg.Path() {
			continue
		}
		fn, err := r.Func(n)
		if err != nil {
			r.Unverifiable(inv, n.Pos, "target %s not found in package %s: %v", n.Short(), n.Pkg, err)
			continue
		}
		decl := r.Live.Decl(fn)
		if decl == nil || decl.Body == nil {
			r.Unverifiable(inv, n.Pos, "target %s has no Go body in package %s", n.Short(), n.Pkg)
			continue
		}
		out = append(out, Target{Name: n, Func: fn, Decl: decl, Body: r.Live.Func(decl)})
	}
	return out
}

// scope returns the packages names resolve in, seen from this package.
func (r *Rule) scope() *resolve.Scope {
	return resolve.Of(r.Pass)
}

// PackageOf returns the package a name lives in when this package can
// see it (it, everything it imports, and every package its code refers
// to), or nil.
func (r *Rule) PackageOf(n invariants.Name) *types.Package { return r.scope().PackageOf(n) }

// Func resolves a function or method name.
func (r *Rule) Func(n invariants.Name) (*types.Func, error) { return r.scope().Func(n) }

// Var resolves a package-level variable or a field.
func (r *Rule) Var(n invariants.Name) (*types.Var, error) { return r.scope().Var(n) }

// Owner resolves the named type that declares a member name.
func (r *Rule) Owner(n invariants.Name) (*types.TypeName, error) { return r.scope().Owner(n) }

// ResolveFunc resolves a function or method the rule names (what says
// which: "callee", "first"), and reports the invariant as unverifiable at
// the name when it does not resolve from this package.
func (r *Rule) ResolveFunc(inv *invariants.Invariant, what string, n invariants.Name) (*types.Func, bool) {
	fn, err := r.Func(n)
	if err != nil {
		r.notResolved(inv, what, n, err)
		return nil, false
	}
	return fn, true
}

// ResolveVar resolves a variable or field the rule names, like
// ResolveFunc.
func (r *Rule) ResolveVar(inv *invariants.Invariant, what string, n invariants.Name) (*types.Var, bool) {
	v, err := r.Var(n)
	if err != nil {
		r.notResolved(inv, what, n, err)
		return nil, false
	}
	return v, true
}

// notResolved reports a name that does not resolve from this package.
func (r *Rule) notResolved(inv *invariants.Invariant, what string, n invariants.Name, err error) {
	r.Unverifiable(inv, n.Pos, "%s %s does not resolve from package %s: %v", what, n.Short(), r.Pass.Pkg.Path(), err)
}

// Funcs resolves a list of names, reporting each that does not resolve.
func (r *Rule) Funcs(inv *invariants.Invariant, what string, names []invariants.Name) ([]*types.Func, bool) {
	ok := true
	var out []*types.Func
	for _, n := range names {
		fn, err := r.Func(n)
		if err != nil {
			r.Unverifiable(inv, n.Pos, "%s %s does not resolve: %v", what, n.Short(), err)
			ok = false
			continue
		}
		out = append(out, fn)
	}
	return out, ok
}

// Report reports a finding for an invariant at a node, unless a
// suppression comment covers it.
func (r *Rule) Report(inv *invariants.Invariant, rng analysis.Range, format string, args ...any) {
	if r.Sup.Suppressed(r.Pass.Fset, rng.Pos(), inv.ID) {
		return
	}
	r.emit(inv, rng.Pos(), rng.End(), fmt.Sprintf(format, args...))
}

// Unverifiable reports, at a position in the invariants file, that an
// invariant cannot be checked. It cannot be suppressed: the invariant
// itself is wrong or stale.
func (r *Rule) Unverifiable(inv *invariants.Invariant, at invariants.Pos, format string, args ...any) {
	pos := r.Conf.Pos(at)
	r.emit(inv, pos, pos, core.CannotVerify(format, args...))
}

func (r *Rule) emit(inv *invariants.Invariant, pos, end token.Pos, msg string) {
	d := analysis.Diagnostic{
		Pos:      pos,
		End:      end,
		Category: inv.ID,
		URL:      inv.Ref,
		Message:  core.Message(inv, msg),
	}
	if decl := r.Conf.Pos(inv.Pos); decl.IsValid() && decl != pos {
		d.Related = []analysis.RelatedInformation{{Pos: decl, Message: "invariant " + inv.ID + " is declared here"}}
	}
	r.Pass.Report(d)
}

// FuncName is the short name of a function for messages: pkg.F or
// (*pkg.T).m.
func FuncName(fn *types.Func) string {
	name := fn.FullName()
	if fn.Pkg() != nil {
		name = strings.ReplaceAll(name, fn.Pkg().Path()+".", fn.Pkg().Name()+".")
	}
	return name
}

// At is a range of one position, for nodes whose end is not in the source,
// such as the synthetic return at a function's closing brace.
type At token.Pos

// Pos returns the position.
func (p At) Pos() token.Pos { return token.Pos(p) }

// End returns the position.
func (p At) End() token.Pos { return token.Pos(p) }

// Site is where the Go front end places a finding: an analysis.Range (an
// ast.Node, or At). The kinds' verdicts receive the facts below at these
// sites and hand them back to For's reporter.
type Site = analysis.Range

// Occurrence and Exit are the core's facts at the Go front end's sites.
type (
	Occurrence = core.Occurrence[Site]
	Exit       = core.Exit[Site]
)

// For returns the reporter of one invariant, for the kinds' verdicts.
func (r *Rule) For(inv *invariants.Invariant) core.Reporter[Site] { return reporter{r, inv} }

// reporter is core.Reporter over a pass.
type reporter struct {
	r   *Rule
	inv *invariants.Invariant
}

func (rp reporter) Report(at Site, format string, args ...any) {
	rp.r.Report(rp.inv, at, format, args...)
}

func (rp reporter) Line(at Site) int {
	return rp.r.Pass.Fset.Position(at.Pos()).Line
}
