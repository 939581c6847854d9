package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// Directive is the comment that guards a Go field where it is declared,
// as checklocks users write it: `peers map[ID]*Peer // guardlint:guarded_by mu`
// (after the field, or in its doc comment; `//guardlint:guarded_by` too).
// It is a guarded_by invariant of its own, with the lock and optionally
// `exclusive` for reads: `// guardlint:guarded_by mu exclusive`.
const Directive = "guardlint:guarded_by"

// directiveWords returns the words after the directive in a comment, and
// false for any other comment.
func directiveWords(text string) ([]string, bool) {
	rest, ok := strings.CutPrefix(text, "//")
	if !ok {
		return nil, false
	}
	rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t"), Directive)
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return nil, false
	}
	rest, _, _ = strings.Cut(rest, "//")
	return strings.Fields(rest), true
}

// inlineID is the id of the invariant a directive declares: the same in
// every package, so that the needs its functions export match.
func inlineID(field *types.Var, owner string) string {
	return "guarded_by:(*" + field.Pkg().Path() + "." + owner + ")." + field.Name()
}

// inline returns the contracts of the directives on the fields of this
// package, exporting each exported field's as a fact, and those of the
// exported fields of the packages it imports. A directive that does not
// parse or whose lock does not resolve is reported at the comment: a
// guard that checks nothing must not look like one that does.
func (ch *checker) inline() []*contract {
	var out []*contract
	info := ch.r.Pass.TypesInfo
	for c := range ch.r.Inspect.Root().Preorder((*ast.TypeSpec)(nil)) {
		ts := c.Node().(*ast.TypeSpec)
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			continue
		}
		owner, ok := info.Defs[ts.Name].(*types.TypeName)
		if !ok {
			continue
		}
		for _, f := range st.Fields.List {
			for _, cg := range []*ast.CommentGroup{f.Doc, f.Comment} {
				if cg == nil {
					continue
				}
				for _, cm := range cg.List {
					words, ok := directiveWords(cm.Text)
					if !ok {
						continue
					}
					for _, name := range f.Names {
						field, _ := info.Defs[name].(*types.Var)
						if field == nil {
							continue
						}
						ct, err := ch.inlineContract(owner, field, words, ch.r.Pass.Fset.Position(cm.Pos()))
						if err != nil {
							ch.r.Pass.Report(analysis.Diagnostic{Pos: cm.Pos(), End: cm.End(), Category: string(Name),
								Message: fmt.Sprintf("%s on %s.%s: %v", Directive, owner.Name(), field.Name(), err)})
							continue
						}
						out = append(out, ct)
						if field.Exported() {
							ch.r.Pass.ExportObjectFact(field, &Guarded{Owner: owner.Name(), Lock: words[0], Reads: ruleOf(ct.inv).Reads, Pos: filepath.Base(ch.r.Pass.Fset.Position(cm.Pos()).Filename)})
						}
					}
				}
			}
		}
	}
	var imported []*contract
	for _, f := range ch.r.Pass.AllObjectFacts() {
		g, ok := f.Fact.(*Guarded)
		field, isVar := f.Object.(*types.Var)
		if !ok || !isVar || field.Pkg() == ch.r.Pass.Pkg {
			continue
		}
		owner, ok := field.Pkg().Scope().Lookup(g.Owner).(*types.TypeName)
		if !ok {
			continue
		}
		words := []string{g.Lock}
		if g.Reads == invariants.Exclusive {
			words = append(words, string(invariants.Exclusive))
		}
		if ct, err := ch.inlineContract(owner, field, words, token.Position{Filename: g.Pos}); err == nil {
			imported = append(imported, ct)
		}
	}
	sort.Slice(imported, func(i, j int) bool { return imported[i].inv.ID < imported[j].inv.ID })
	return append(out, imported...)
}

// inlineContract builds the invariant a directive declares and resolves
// it.
func (ch *checker) inlineContract(owner *types.TypeName, field *types.Var, words []string, at token.Position) (*contract, error) {
	if len(words) == 0 || len(words) > 2 {
		return nil, fmt.Errorf("want a lock and optionally the mode reads need: %s <lock> [shared|exclusive]", Directive)
	}
	g := &Rule{Lock: invariants.Name{Raw: words[0]}, Reads: invariants.Shared}
	if len(words) == 2 {
		g.Reads = invariants.LockMode(words[1])
		if g.Reads != invariants.Shared && g.Reads != invariants.Exclusive {
			return nil, fmt.Errorf("mode %q: want shared or exclusive", words[1])
		}
	}
	// The file's base name: messages name no directory of the machine.
	where := filepath.Base(at.Filename)
	if at.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", where, at.Line, at.Column)
	}
	inv := &invariants.Invariant{
		ID:    inlineID(field, owner.Name()),
		Why:   "the field's declaration says so (" + where + ")",
		Lang:  invariants.LangGo,
		Field: &invariants.Name{Raw: owner.Name() + "." + field.Name(), Pkg: field.Pkg().Path(), Ident: owner.Name(), Member: field.Name(), Ptr: true},
		Rule:  g,
	}
	lock, onValue, err := resolveLock(ch.r, inv, owner, words[0])
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", words[0], err)
	}
	return &contract{inv: inv, field: field, lock: lock, onValue: onValue, reads: levelOf(g.Reads), init: map[*types.Func]bool{}}, nil
}
