package fix

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/cfamily"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/rustlang"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// nativeLanguage returns the tree-sitter front end of a language.
func nativeLanguage(lang string) model.Language {
	if lang == "rust" {
		return rustlang.Language{}
	}
	return cfamily.Language{Lang: syntax.Lang(lang)}
}

// nativeCandidates proposes invariants from the lines a fix added to a C,
// C++, CUDA or Rust file: a live call becomes `call`, a guard that holds
// a lock for the body `hold`. Names are the token patterns the front end
// matches: the callee as written, the function's qualified name.
func nativeCandidates(lang, path, glob string, src []byte, added map[int]bool) []*candidate {
	if len(src) == 0 || len(added) == 0 {
		return nil
	}
	f, err := syntax.Parse(syntax.Lang(lang), path, src)
	if err != nil {
		return nil
	}
	l := nativeLanguage(lang)
	conf := &model.Config{}
	on := func(n *syntax.Node) bool { return added[f.Position(n.Start).Line] }
	at := func(n *syntax.Node) string {
		return fmt.Sprintf("%s:%d", filepath.Base(path), f.Position(n.Start).Line)
	}
	var out []*candidate
	for _, fn := range l.Functions(f, conf) {
		name := strings.Join(fn.Path, "::")
		seen := map[string]bool{}
		for _, c := range l.Calls(f, fn, conf) {
			callee := strings.Join(c.Callee, "")
			if !c.Live() || !on(c.Node) || seen[callee] || callee == "" {
				continue
			}
			seen[callee] = true
			out = append(out, &candidate{kind: "call", lang: lang, files: glob, function: name, keys: []ruleKey{{name: "to", value: callee}}, at: at(c.Node)})
		}
		h := l.Hold(f, fn, conf)
		for _, st := range h.Top {
			if st.Kind != model.GuardStmt || st.Guard == nil || !on(st.Node) || len(st.Guard.Lock) == 0 {
				continue
			}
			keys := []ruleKey{{name: "lock", value: strings.Join(st.Guard.Lock[0], "")}}
			if st.Guard.Mode == invariants.Shared {
				keys = append(keys, ruleKey{name: "mode", value: "shared"})
			}
			out = append(out, &candidate{kind: "hold", lang: lang, files: glob, function: name, keys: keys, at: at(st.Node)})
		}
	}
	return out
}
