// Command gen writes guardlint's real Go corpus: a hold invariant for every
// function of the standard library and of four pinned modules that the
// corpus rule picks, into bench/realgo/corpus/guardlint.yaml.
//
//	go run ./bench/realgo/gen          # rewrite the corpus
//	go run ./bench/realgo/gen -check   # fail when the file is not what the rule picks
//	go run ./bench/realgo/gen -funnel  # also print, per module, where the rule refuses
//
// With -rule afterunlock it writes the after-unlock corpus instead, by
// the rule in afterunlock.go, into bench/realgo/afterunlock/guardlint.yaml.
//
// A package of the patterns that does not load or type-check is an error:
// skipping it would shrink the corpus without anyone seeing why.
//
// The corpus rule was written before the corpus was first generated and is
// not narrowed after seeing results: a function it picks that guardlint
// judges wrongly is a bug to fix in guardlint, or a limit documented in
// docs/invariants.md with its reason. A function or method is picked when
//
//  1. it is declared with a body in a non-test file of a package of the
//     standard library (the "std" pattern) or of the modules pinned in
//     bench/realgo/corpus/go.mod (github.com/hashicorp/golang-lru/v2,
//     github.com/nats-io/nats.go, github.com/patrickmn/go-cache,
//     go.etcd.io/bbolt), every package of each;
//  2. its first statement is a call X.Lock() or X.RLock() that go/types
//     resolves to (*sync.Mutex).Lock, (*sync.RWMutex).Lock or
//     (*sync.RWMutex).RLock, called directly or promoted through embedded
//     fields, where X is a package-level variable, a field selected from
//     the receiver or from a parameter (through any number of fields), or
//     the receiver or a parameter itself when its type embeds the mutex;
//  3. it releases the lock only with X.Unlock() (X.RUnlock() after RLock),
//     written the way X is written, either (a) as `defer X.Unlock()`, the
//     second statement of the body, and nowhere else, or (b) in statements
//     each of which is the last statement of the body or is directly
//     followed, in its block, by a return statement whose results are
//     only identifiers of local variables, parameters or constants, nil,
//     true, false and literals;
//  4. its body has no other call of Lock, RLock, Unlock or RUnlock on X,
//     and no function literal that mentions X.
//
// The invariant holds the lock as people name it: the package variable;
// the field the mutex is in ((T).mu for c.mu, (S).mu for c.state.mu); the
// field that holds a struct embedding the mutex ((T).out for c.out.Lock()
// where out's type embeds sync.Mutex); the embedded field itself
// ((T).Mutex for c.Lock() on a receiver that embeds it). The mode is
// shared after RLock.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// modules are the pinned modules of the corpus, scanned with every
// package they hold.
var modules = []string{
	"github.com/hashicorp/golang-lru/v2",
	"github.com/nats-io/nats.go",
	"github.com/patrickmn/go-cache",
	"go.etcd.io/bbolt",
}

func main() {
	check := flag.Bool("check", false, "compare with the corpus file instead of writing it")
	dir := flag.String("dir", "", "the corpus module (default: the rule's own)")
	which := flag.String("rule", "hold", "the corpus: hold (the main corpus) or afterunlock")
	showFunnel := flag.Bool("funnel", false, "print, per module, the packages and functions scanned and where the rule refuses them")
	showRefusals := flag.Bool("refusals", false, "print each function that point 4 of the afterunlock rule refuses, with the first statement it refuses")
	flag.Parse()
	if *showRefusals {
		refusals = os.Stderr
	}
	c, ok := corpora[*which]
	if !ok {
		fail(fmt.Errorf("unknown corpus rule %q: hold or afterunlock", *which))
	}
	if *dir == "" {
		*dir = c.dir
	}
	patterns := []string{"std"}
	for _, m := range c.modules {
		patterns = append(patterns, m+"/...")
	}
	pkgs, err := load(*dir, patterns, c.imported)
	if err != nil {
		fail(err)
	}
	fun := funnel{}
	if c.imported {
		deps := imported(pkgs, c.modules, depsExcluded)
		if err := loadErrors(*dir, deps); err != nil {
			fail(err)
		}
		pkgs = append(pkgs, deps...)
		rest, leftOut, err := restOfModules(*dir, deps, pkgs)
		if err != nil {
			fail(err)
		}
		pkgs = append(pkgs, rest...)
		for _, m := range leftOut {
			fun.named(m).leftOut++
		}
		fmt.Printf("point 24 of the rule: %d packages taken, %d left out (they do not load with the build list)\n", len(rest), len(leftOut))
	}
	var picked []pick
	for _, p := range pkgs {
		picked = append(picked, scan(p, c.rule, fun.module(p))...)
	}
	if *showFunnel {
		fun.print(os.Stderr)
	}
	sort.Slice(picked, func(i, j int) bool { return picked[i].fn < picked[j].fn })
	out := render(c.title, picked)
	file := filepath.Join(*dir, c.file)
	if *check {
		old, err := os.ReadFile(file)
		if err != nil {
			fail(err)
		}
		if !bytes.Equal(old, out) {
			fail(fmt.Errorf("%s is not what the corpus rule picks: run go run ./bench/realgo/gen", file))
		}
		fmt.Printf("%s: %d functions, as the rule picks them\n", file, len(picked))
		return
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("%s: %d functions\n", file, len(picked))
}

// scanMode is what the rules read of a package they scan: its files'
// syntax, with types, and its module.
const scanMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule

// load loads the packages of the patterns, with types, in the module of
// dir, and with deps the packages they import, with syntax and types too;
// a package that does not load or type-check is an error, so that no
// package is left out of a corpus unseen.
func load(dir string, patterns []string, deps bool) ([]*packages.Package, error) {
	mode := scanMode
	if deps {
		mode |= packages.NeedDeps | packages.NeedImports
	}
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: dir}, patterns...)
	if err != nil {
		return nil, err
	}
	if err := loadErrors(dir, pkgs); err != nil {
		return nil, err
	}
	return pkgs, nil
}

// loadErrors is an error naming every error of the packages.
func loadErrors(dir string, pkgs []*packages.Package) error {
	var unloaded []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			unloaded = append(unloaded, fmt.Sprintf("%s: %s", p.PkgPath, e))
		}
	}
	if len(unloaded) > 0 {
		return fmt.Errorf("%d errors in packages that must load with the build list of %s:\n%s", len(unloaded), dir, strings.Join(unloaded, "\n"))
	}
	return nil
}

// corpus is one rule and what it scans and writes.
type corpus struct {
	modules []string
	// rule picks a function, or names the point of the rule that refuses
	// it (for the funnel).
	rule func(*packages.Package, *ast.FuncDecl) (pick, string)
	// dir is the module that pins the modules' versions, and file the
	// corpus file in it.
	dir, file string
	title     string
	// imported also scans the packages the modules' packages import from
	// other modules (point 18 of the after-unlock rule).
	imported bool
}

// corpora are the rules this command applies.
var corpora = map[string]corpus{
	"hold": {modules, holdRule, "bench/realgo/corpus", "guardlint.yaml",
		"# The real Go corpus: one hold invariant per function the corpus rule\n# (bench/realgo/gen) picks from the standard library and the pinned modules.\n", false},
	"afterunlock": {afterUnlockModules, afterUnlock, "bench/realgo/afterunlock", "guardlint.yaml",
		"# The after-unlock corpus: one hold invariant per function the rule of\n# bench/realgo/gen/afterunlock.go picks: functions that release the lock and\n# then only call other packages' functions with constants and locals that\n# hold no pointer, compute on locals, read package variables nothing writes\n# after initialisation, and return or take the lock again.\n", true},
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

// pick is one function the rule picks, with its lock.
type pick struct {
	fn, lock string
	shared   bool
	pkg      string
	pos      string
}

// scan applies the rule to every function of a package, counting in m
// what it scans and where the rule refuses.
func scan(p *packages.Package, rule func(*packages.Package, *ast.FuncDecl) (pick, string), m *moduleCount) []pick {
	var out []pick
	m.packages++
	for _, f := range p.Syntax {
		name := p.Fset.Position(f.Pos()).Filename
		if strings.HasSuffix(name, "_test.go") || ast.IsGenerated(f) {
			continue
		}
		m.files++
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || len(fd.Body.List) == 0 {
				continue
			}
			m.functions++
			pk, refused := rule(p, fd)
			if refused != "" {
				m.refused[refused]++
				continue
			}
			m.picked++
			pos := p.Fset.Position(fd.Pos())
			pk.pos = fmt.Sprintf("%s:%d", relTo(p, pos.Filename), pos.Line)
			out = append(out, pk)
		}
	}
	return out
}

// relTo names a file by its package path, for the corpus's comments.
func relTo(p *packages.Package, file string) string {
	return p.PkgPath + "/" + filepath.Base(file)
}

// holdRule is rule with the funnel's signature: the main corpus's rule is
// not split by point.
func holdRule(p *packages.Package, fd *ast.FuncDecl) (pick, string) {
	if pk, ok := rule(p, fd); ok {
		return pk, ""
	}
	return pick{}, "points 2 to 4"
}

// rule applies points 2 to 4 of the corpus rule to one declaration.
func rule(p *packages.Package, fd *ast.FuncDecl) (pick, bool) {
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
	// Every call on X other than the first lock must be a release in an
	// allowed place; no literal may mention X.
	var deferred, explicit int
	good := true
	var walk func(list []ast.Stmt, top bool)
	walk = func(list []ast.Stmt, top bool) {
		for i, st := range list {
			if top && i == 0 {
				continue
			}
			if ds, ok := st.(*ast.DeferStmt); ok {
				if y, m, ok := mutexCall(info, ds.Call); ok && render1(p.Fset, y) == xs {
					if !top || i != 1 || m != release {
						good = false
					}
					deferred++
					continue
				}
			}
			if es, ok := st.(*ast.ExprStmt); ok {
				if y, m, ok := mutexCall(info, es.X); ok && render1(p.Fset, y) == xs {
					last := top && i == len(list)-1
					next := i+1 < len(list) && plainReturn(info, list[i+1])
					if m != release || (!last && !next) {
						good = false
					}
					explicit++
					continue
				}
			}
			ast.Inspect(st, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					if mentions(p.Fset, n, xs) {
						good = false
					}
					return false
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
						good = false // a lock call in an expression or condition
					}
				}
				return true
			})
		}
	}
	walk(fd.Body.List, true)
	if !good || (deferred > 0 && explicit > 0) || deferred+explicit == 0 {
		return pick{}, false
	}
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return pick{}, false
	}
	return pick{fn: fn.FullName(), lock: lock, shared: method == "RLock", pkg: p.PkgPath}, true
}

// mutexCall reports whether e is a call of a method of sync.Mutex or
// sync.RWMutex (directly or promoted), with the expression it is called
// on.
func mutexCall(info *types.Info, e ast.Expr) (ast.Expr, string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil, "", false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return nil, "", false
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return nil, "", false
	}
	recv := fn.Signature().Recv().Type()
	if ptr, ok := recv.(*types.Pointer); ok {
		recv = ptr.Elem()
	}
	named, ok := recv.(*types.Named)
	if !ok || (named.Obj().Name() != "Mutex" && named.Obj().Name() != "RWMutex") {
		return nil, "", false
	}
	switch fn.Name() {
	case "Lock", "RLock", "Unlock", "RUnlock":
		return sel.X, fn.Name(), true
	}
	return nil, "", false
}

// lockName names the lock of X.Lock() as point 2 and the naming rule say,
// or reports that X is not one of the forms the rule takes.
func lockName(p *packages.Package, fd *ast.FuncDecl, x ast.Expr) (string, bool) {
	info := p.TypesInfo
	x = ast.Unparen(x)
	if star, ok := x.(*ast.StarExpr); ok {
		x = ast.Unparen(star.X)
	}
	switch x := x.(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return "", false
		}
		if v.Parent() == v.Pkg().Scope() {
			if isMutex(v.Type()) {
				return v.Pkg().Path() + "." + v.Name(), true
			}
			return "", false
		}
		// The receiver or a parameter whose type embeds the mutex: the
		// embedded field names the lock.
		if !isParam(fd, info, v) {
			return "", false
		}
		return embeddedName(v.Type())
	case *ast.SelectorExpr:
		s := info.Selections[x]
		if s == nil || s.Kind() != types.FieldVal || !rooted(fd, info, x.X) {
			return "", false
		}
		field := s.Obj().(*types.Var)
		owner := declaringType(s)
		if owner == "" {
			return "", false
		}
		return "(" + owner + ")." + field.Name(), true
	}
	return "", false
}

// rooted reports whether e is the receiver or a parameter, or a chain of
// field selections from one.
func rooted(fd *ast.FuncDecl, info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		return ok && isParam(fd, info, v)
	case *ast.StarExpr:
		return rooted(fd, info, e.X)
	case *ast.SelectorExpr:
		s := info.Selections[e]
		return s != nil && s.Kind() == types.FieldVal && rooted(fd, info, e.X)
	}
	return false
}

// isParam reports whether v is the receiver or a parameter of fd.
func isParam(fd *ast.FuncDecl, info *types.Info, v *types.Var) bool {
	lists := []*ast.FieldList{fd.Recv, fd.Type.Params}
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, f := range l.List {
			for _, n := range f.Names {
				if info.Defs[n] == v {
					return true
				}
			}
		}
	}
	return false
}

// declaringType names the struct type that declares a selected field, as
// go/types writes a named type (generic ones with their type parameters).
func declaringType(s *types.Selection) string {
	t := s.Recv()
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok {
			return ""
		}
		t = st.Field(i).Type()
	}
	named, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	return typeName(named)
}

// embeddedName names the embedded mutex field of a receiver's type.
func embeddedName(t types.Type) (string, bool) {
	named, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return "", false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if f.Embedded() && isMutex(f.Type()) {
			return "(" + typeName(named) + ")." + f.Name(), true
		}
	}
	return "", false
}

// typeName writes a named type with its package path and, for a generic
// type, its type parameters: example.com/p.Map[K, V].
func typeName(named *types.Named) string {
	named = named.Origin()
	s := named.Obj().Pkg().Path() + "." + named.Obj().Name()
	if tp := named.TypeParams(); tp.Len() > 0 {
		var ps []string
		for i := range tp.Len() {
			ps = append(ps, tp.At(i).Obj().Name())
		}
		s += "[" + strings.Join(ps, ", ") + "]"
	}
	return s
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// isMutex reports whether t is sync.Mutex or sync.RWMutex.
func isMutex(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "sync" {
		return false
	}
	return named.Obj().Name() == "Mutex" || named.Obj().Name() == "RWMutex"
}

// plainReturn reports whether st is a return whose results are only
// identifiers of locals, parameters or constants, nil, true, false and
// literals (point 3b).
func plainReturn(info *types.Info, st ast.Stmt) bool {
	ret, ok := st.(*ast.ReturnStmt)
	if !ok {
		return false
	}
	for _, r := range ret.Results {
		switch r := ast.Unparen(r).(type) {
		case *ast.BasicLit:
		case *ast.Ident:
			switch obj := info.Uses[r].(type) {
			case *types.Const, *types.Nil:
			case *types.Var:
				if obj.Parent() == obj.Pkg().Scope() || obj.IsField() {
					return false
				}
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// mentions reports whether the source of n contains the expression text.
func mentions(fset *token.FileSet, n ast.Node, text string) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if e, ok := m.(ast.Expr); ok && !found && render1(fset, e) == text {
			found = true
		}
		return !found
	})
	return found
}

// render1 prints an expression compactly, to compare lock expressions as
// written.
func render1(fset *token.FileSet, e ast.Expr) string {
	return types.ExprString(e)
}

// render writes the corpus file.
func render(title string, picked []pick) []byte {
	var b bytes.Buffer
	b.WriteString("# Code generated by go run ./bench/realgo/gen; DO NOT EDIT.\n")
	b.WriteString(title)
	b.WriteString("version: 1\ninvariants:\n")
	ids := map[string]int{}
	for _, p := range picked {
		id := idOf(p.fn)
		if n := ids[id]; n > 0 {
			id = fmt.Sprintf("%s-%d", id, n+1)
		}
		ids[idOf(p.fn)]++
		mode := ""
		if p.shared {
			mode = ", mode: shared"
		}
		fmt.Fprintf(&b, "  - id: %s\n    why: %s takes the lock first and holds it for its work (%s)\n    function: %q\n    hold: {lock: %q%s}\n", id, p.pkg, p.pos, p.fn, p.lock, mode)
	}
	return b.Bytes()
}

// idOf turns a function's full name into an invariant id.
func idOf(fn string) string {
	var b strings.Builder
	for _, r := range fn {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			if s := b.String(); len(s) > 0 && s[len(s)-1] != '-' {
				b.WriteByte('-')
			}
		}
	}
	return strings.Trim(b.String(), "-.")
}
