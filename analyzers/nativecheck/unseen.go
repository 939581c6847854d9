package nativecheck

import (
	"bytes"
	"slices"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/invariants"
)

// checkSeen reports each pattern of a treesitter.SeenCalls rule whose function name
// occurs nowhere in the invariant's files, with the closest names the
// files call.
func checkSeen(inv *invariants.Invariant, r treesitter.SeenCalls, files []string, view *overlay.Files) []core.Finding {
	var srcs [][]byte
	for _, p := range files {
		src, err := treesitter.ReadSource(view, p)
		if err != nil {
			return nil // the run reports the file it cannot read
		}
		srcs = append(srcs, src)
	}
	hint := ""
	if h, ok := r.(treesitter.UnseenHint); ok {
		hint = "; " + h.UnseenHint()
	}
	var out []core.Finding
	for _, n := range r.SeenPatterns() {
		word := patternWord(n.Raw)
		if word == "" {
			continue
		}
		seen := false
		for _, src := range srcs {
			if treesitter.ContainsWord(src, []byte(word), false) {
				seen = true
				break
			}
		}
		if seen {
			continue
		}
		out = append(out, unverifiable(inv, n.Pos, "%s names %s, which occurs nowhere in %s%s%s", n.Raw, word, treesitter.GlobList(inv), invariants.Suggest(word, slices.Values(calledWords(srcs))), hint))
	}
	return out
}

// patternWord is the function a call pattern names: its last identifier
// before its arguments (`enc->release` and `enc.retain()` name release and
// retain; `msg_send!` names msg_send; `cache_[key]` names cache_).
func patternWord(raw string) string {
	if i := bytes.IndexByte([]byte(raw), '('); i >= 0 {
		raw = raw[:i]
	}
	// A subscript names its container (`cache_[key]` names cache_); a
	// Rust macro's brackets (`msg_send![..]`) are its arguments.
	if i := bytes.IndexByte([]byte(raw), '['); i > 0 && raw[i-1] != '!' {
		raw = raw[:i]
	}
	end := len(raw)
	for end > 0 && !treesitter.IsIdentByte(raw[end-1]) {
		end--
	}
	start := end
	for start > 0 && treesitter.IsIdentByte(raw[start-1]) {
		start--
	}
	return raw[start:end]
}

// calledWords are the identifiers the sources write before `(`: the
// names of what they call, for "closest".
func calledWords(srcs [][]byte) []string {
	set := map[string]bool{}
	for _, src := range srcs {
		for i := 0; i < len(src); i++ {
			if src[i] != '(' {
				continue
			}
			end := i
			for end > 0 && (src[end-1] == ' ' || src[end-1] == '!') {
				end--
			}
			start := end
			for start > 0 && treesitter.IsIdentByte(src[start-1]) {
				start--
			}
			if start < end && (src[start] < '0' || src[start] > '9') {
				set[string(src[start:end])] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for w := range set {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}
