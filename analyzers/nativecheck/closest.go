package nativecheck

import (
	"slices"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/invariants"
)

// A function name that matches no definition is answered with what the
// files do define, so that a misspelling or a wrong scope is fixed from
// the message. This runs only when a name is not found, so it may read
// and parse the files again: the check itself parses only the files that
// can define the name (prefilter).

// nearFunctions is the clause appended to "function N not found": the
// definitions whose own name is N's last segment, in the scopes the
// files give them, when there are some (the scope is wrong); otherwise
// the closest names that the files write before `(` (the name is
// misspelt). "" when nothing is close.
func nearFunctions(inv *invariants.Invariant, lang model.Language, conf *model.Config, name invariants.Name, files []string, view *overlay.Files, budget time.Duration) string {
	if len(name.Scoped) == 0 {
		return ""
	}
	last := name.Scoped[len(name.Scoped)-1]
	word := strings.TrimPrefix(last, "~")
	var srcs [][]byte
	defined := map[string]bool{}
	for _, p := range files {
		src, err := treesitter.ReadSource(view, p)
		if err != nil {
			continue // the check reports a file it cannot read
		}
		srcs = append(srcs, src)
		if word == "" || !treesitter.ContainsWord(src, []byte(word), false) {
			continue
		}
		f, err := treesitter.Parse(inv, p, src, budget)
		if err != nil {
			continue
		}
		for _, def := range lang.Functions(f, conf) {
			if len(def.Path) > 0 && def.Path[len(def.Path)-1] == last {
				defined[treesitter.Qualified(def)] = true
			}
		}
	}
	if len(defined) > 0 {
		names := make([]string, 0, len(defined))
		for n := range defined {
			names = append(names, n)
		}
		slices.Sort(names)
		more := ""
		if len(names) > 5 {
			more = ", ..."
			names = names[:5]
		}
		return "; the files define " + strings.Join(names, ", ") + more
	}
	return invariants.Suggest(word, slices.Values(calledWords(srcs)))
}
