package model

// separators are the tokens that may stand before a pattern that matches
// the tail of a call: `retain` matches `enc.retain`, `this->retain` and
// `ns::retain`, but not `unretain`, which is another token.
var separators = map[string]bool{".": true, "->": true, "::": true}

// MatchTail reports whether pattern equals the tokens, or their tail
// starting after a member or path separator.
func MatchTail(tokens, pattern []string) bool {
	if len(pattern) == 0 || len(pattern) > len(tokens) {
		return false
	}
	off := len(tokens) - len(pattern)
	for i, p := range pattern {
		if tokens[off+i] != p {
			return false
		}
	}
	return off == 0 || separators[tokens[off-1]]
}

// closers end a pattern that includes the arguments of a call or the body
// of a macro invocation.
var closers = map[string]bool{")": true, "]": true, "}": true}

// MatchCall reports whether a call matches a pattern: a pattern that ends
// with its arguments (`enc.retain()`, `msg_send![encoder, retain]`) is
// compared with the whole call, any other (`enc.retain`) with the callee.
func MatchCall(c *Call, pattern []string) bool {
	if len(pattern) > 0 && closers[pattern[len(pattern)-1]] {
		return MatchTail(c.Tokens, pattern) || matchInner(c.Inner, pattern, false)
	}
	return MatchTail(c.Callee, pattern) || matchInner(c.Inner, pattern, true)
}

// matchInner finds a pattern in a macro's token tree: the whole pattern
// anywhere, or for a callee pattern, followed by `(` (`ns::f(` or
// `x.f!(`), so that it is called and not only named.
func matchInner(inner, pattern []string, callee bool) bool {
	for i := 0; i+len(pattern) <= len(inner); i++ {
		if !equal(inner[i:i+len(pattern)], pattern) {
			continue
		}
		if !callee {
			return true
		}
		if end := i + len(pattern); end < len(inner) && (inner[end] == "(" || (inner[end] == "!" && end+1 < len(inner))) {
			return true
		}
	}
	return false
}

// receivers are the implicit receivers that a lock pattern may leave out:
// `mu` names the same lock as `this->mu` and `self.mu`.
var receivers = [][]string{{"this", "->"}, {"self", "."}, {"(", "*", "this", ")", "."}}

// MatchLock reports whether a locked expression is the lock the pattern
// names, with an implicit `this->` or `self.` dropped from both.
func MatchLock(expr, pattern []string) bool {
	a, b := stripReceiver(expr), stripReceiver(pattern)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// stripReceiver drops an implicit receiver from the front of a lock
// expression.
func stripReceiver(toks []string) []string {
	for _, r := range receivers {
		if len(toks) > len(r) && equal(toks[:len(r)], r) {
			return toks[len(r):]
		}
	}
	return toks
}

// equal reports whether two token slices are the same.
func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
