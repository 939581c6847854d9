package requires

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/rule"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// Annotation is the doc-comment directive that makes a function an
// operation of the requires invariant on the lock it names.
const Annotation = "//guardlint:requires"

// AnnotationWords returns the words of a //guardlint:requires comment (the
// lock, then the mode if given), without a trailing // comment; ok is false
// for any other comment.
func AnnotationWords(comment string) (words []string, ok bool) {
	rest, ok := strings.CutPrefix(comment, Annotation)
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return nil, false
	}
	rest, _, _ = strings.Cut(rest, "//")
	return strings.Fields(rest), true
}

// annotations reads the //guardlint:requires comments of the package's
// functions. Each joins its function to the requires invariants on the
// named lock; one that names no such lock, asks for another mode or does
// not parse is reported, since an annotation the invariants file does not
// back guards nothing.
func (ch *checker) annotations() {
	for _, u := range ch.units {
		if u.decl.Doc == nil {
			continue
		}
		for _, cm := range u.decl.Doc.List {
			words, ok := AnnotationWords(cm.Text)
			if !ok {
				continue
			}
			if err := ch.annotate(u, words, cm.Pos()); err != nil {
				ch.r.Pass.Report(analysis.Diagnostic{
					Pos: cm.Pos(), End: cm.End(), Category: string(Name),
					Message: fmt.Sprintf("guardlint:requires on %s: %v", rule.FuncName(u.fn), err),
				})
			}
		}
	}
}

// annotate applies one annotation's words to its function.
func (ch *checker) annotate(u *unit, words []string, at token.Pos) error {
	if len(words) == 0 || len(words) > 2 {
		return fmt.Errorf("want a lock and optionally a mode: %s <lock> [exclusive|shared]", Annotation)
	}
	module := ""
	if m := ch.r.Pass.Module; m != nil {
		module = m.Path
	}
	name, err := invariants.ParseName(words[0], module, ch.r.Pass.Pkg.Path())
	if err != nil {
		return err
	}
	lock, err := ch.r.Var(name)
	if err != nil {
		return fmt.Errorf("lock %s does not resolve: %w", words[0], err)
	}
	var mode invariants.LockMode
	if len(words) == 2 {
		mode = invariants.LockMode(words[1])
		if mode != invariants.Exclusive && mode != invariants.Shared {
			return fmt.Errorf("mode %q: want exclusive or shared", words[1])
		}
	}
	var onLock, matched []*contract
	for _, c := range ch.cs {
		if c.lock != nil && c.lock == lock {
			onLock = append(onLock, c)
			if mode == "" || mode == ruleOf(c.inv).Mode {
				matched = append(matched, c)
			}
		}
	}
	switch {
	case len(onLock) == 0:
		return fmt.Errorf("no requires invariant names the lock %s; declare one in the invariants file, so that the annotation is checked", name.Short())
	case len(matched) == 0:
		return fmt.Errorf("says %s, but the requires invariants on %s (%s) ask for %s mode", mode, name.Short(), onLock[0].inv.ID, ruleOf(onLock[0].inv).Mode)
	}
	for _, c := range matched {
		c.ops[u.fn] = true
		c.notes[u.fn] = at
	}
	return nil
}
