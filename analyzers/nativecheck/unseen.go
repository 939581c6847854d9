package nativecheck

import (
	"bytes"
	"slices"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/invariants"
)

// SeenCalls is a FunctionRule whose call patterns must name a function
// that the files mention somewhere: a forbid of a call spelt wrong, or of
// a function renamed since, would pass whatever the targets do. A call
// that no file makes yet is forbidden by mentioning its name in the files,
// in a comment beside the target (`// release_all would race the pool`):
// any whole-word occurrence counts, comments and strings included.
type SeenCalls interface {
	FunctionRule
	// SeenPatterns are the rule's call patterns that must be mentioned.
	SeenPatterns() []invariants.Name
}

// UnseenHint is a SeenCalls rule that tells how to keep a pattern that
// no file mentions yet (forbid: name it in a comment); without it, the
// finding only says what the files call instead.
type UnseenHint interface {
	UnseenHint() string
}

// checkSeen reports each pattern of a SeenCalls rule whose function name
// occurs nowhere in the invariant's files, with the closest names the
// files call.
func checkSeen(inv *invariants.Invariant, r SeenCalls, files []string, view *overlay.Files) []core.Finding {
	var srcs [][]byte
	for _, p := range files {
		src, err := readSource(view, p)
		if err != nil {
			return nil // the run reports the file it cannot read
		}
		srcs = append(srcs, src)
	}
	hint := ""
	if h, ok := r.(UnseenHint); ok {
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
			if containsWord(src, []byte(word), false) {
				seen = true
				break
			}
		}
		if seen {
			continue
		}
		out = append(out, unverifiable(inv, n.Pos, "%s names %s, which occurs nowhere in %s%s%s", n.Raw, word, globList(inv), invariants.Suggest(word, slices.Values(calledWords(srcs))), hint))
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
	for end > 0 && !isIdentByte(raw[end-1]) {
		end--
	}
	start := end
	for start > 0 && isIdentByte(raw[start-1]) {
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
			for start > 0 && isIdentByte(src[start-1]) {
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
