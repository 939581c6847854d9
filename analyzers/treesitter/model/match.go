package model

import (
	"slices"
	"strings"
)

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
	if MatchTail(c.Callee, pattern) || matchInner(c.Inner, pattern, true) {
		return true
	}
	// `make` matches `make<int>(...)`: a pattern without template
	// arguments names every instantiation.
	for _, p := range pattern {
		if p == "<" {
			return false
		}
	}
	// Stripping keeps the last token unless it closes a group (see
	// CallsName): a callee ending in another token cannot match, and
	// stripping it would cost its whole length on every call.
	if n := len(c.Callee); len(pattern) == 0 || n == 0 ||
		c.Callee[n-1] != ">" && c.Callee[n-1] != ">>" && c.Callee[n-1] != pattern[len(pattern)-1] {
		return false
	}
	return MatchTail(StripTemplateArgs(c.Callee), pattern)
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
// names, with an implicit `this->` or `self.` dropped from both, and a
// leading `&` too: a lock is named by its object or by its address alike.
// A guard or lock call that takes the mutex's address
// (`absl::MutexLock l(&mu_)`, `scoped_lock lock(&storage)`,
// `pthread_mutex_lock(&mu)`) holds the lock an invariant names `mu_` or
// `&mu_`, and one that takes the object (`std::lock_guard l(mu_)`) the
// lock named either way too. The one case this merges wrongly, a
// pointer `p` that is itself locked, named `&p` by the invariant, is a
// pointer to a pointer to a mutex, which no lock call takes.
func MatchLock(expr, pattern []string) bool {
	return MatchExpr(stripAddress(expr), stripAddress(pattern))
}

// stripAddress drops a leading `&` from a lock expression.
func stripAddress(toks []string) []string {
	if len(toks) > 1 && toks[0] == "&" {
		return toks[1:]
	}
	return toks
}

// MatchExpr reports whether an expression's tokens are a pattern's, with
// an implicit `this->` or `self.` dropped from both. Unlike MatchLock, an
// address is not its object: `&buf` and `buf` are two expressions.
func MatchExpr(expr, pattern []string) bool {
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

// wildcards are the path segments that stand for a scope the syntax tree
// does not name: `Self::f()`, `self::f()`, `super::f()`, `crate::f()`.
var wildcards = map[string]bool{"Self": true, "self": true, "super": true, "crate": true}

// CallsName reports whether a callee (its tokens: `std :: call_once`,
// `x . helper`, `f < T >`) may call the function a scoped name names
// (`std::call_once`): the callee's last name is the function's, and the
// qualifiers it spells, if any, agree with the name's, one being a suffix
// of the other (`rc::autoreleasepool` and `objc::rc::autoreleasepool`
// name one function). A member call (`x.f()`, `p->f()`) matches by name:
// without types, which class it calls is not known, and a rule that
// requires or runs something must miss no call. Template arguments are
// not part of the name.
func CallsName(callee, scoped []string) bool {
	// The callee's tokens span its whole expression (a lambda called in
	// place, a long chain of calls), and calls nest: stripping every
	// callee's template arguments would cost the square of the
	// function's size. Stripping keeps the last token unless it closes a
	// group, so a callee whose last token is another name is rejected
	// first, in constant time.
	if n := len(callee); n == 0 || len(scoped) == 0 ||
		callee[n-1] != ">" && callee[n-1] != ">>" && callee[n-1] != scoped[len(scoped)-1] {
		return false
	}
	toks := StripTemplateArgs(callee)
	if len(toks) == 0 || len(scoped) == 0 || toks[len(toks)-1] != scoped[len(scoped)-1] {
		return false
	}
	if len(toks) == 1 || toks[len(toks)-2] != "::" {
		return true // unqualified, or a member call
	}
	var quals []string
	for i := len(toks) - 2; i >= 1 && toks[i] == "::"; i -= 2 {
		if wildcards[toks[i-1]] {
			break
		}
		quals = append([]string{toks[i-1]}, quals...)
	}
	var path []string
	for _, s := range scoped[:len(scoped)-1] {
		if s != "" {
			path = append(path, s)
		}
	}
	return suffixOf(quals, path) || suffixOf(path, quals)
}

// suffixOf reports whether a ends b.
func suffixOf(a, b []string) bool {
	return len(a) <= len(b) && equal(a, b[len(b)-len(a):])
}

// StripTemplateArgs drops the balanced `<...>` groups of a callee that
// follow a name (`make < int >`, Rust's `collect :: < Vec < _ > >`), so
// that `make<int>` is called as `make`.
func StripTemplateArgs(toks []string) []string {
	// A callee without `<` is its own result. Callees nest (a chain of
	// calls, a lambda called in place) and every call's is stripped once
	// per runner, helper and target: a scan that allocates nothing keeps
	// that a comparison per token (docs/reliability.md).
	if !slices.Contains(toks, "<") {
		return toks
	}
	var out []string
	for i := 0; i < len(toks); i++ {
		if toks[i] != "<" || len(out) == 0 {
			out = append(out, toks[i])
			continue
		}
		depth, j := 0, i
		for ; j < len(toks); j++ {
			switch toks[j] {
			case "<":
				depth++
			case ">":
				depth--
			case ">>":
				depth -= 2
			}
			if depth <= 0 {
				break
			}
		}
		if j == len(toks) {
			return toks // unbalanced: a comparison, not template arguments
		}
		if out[len(out)-1] == "::" {
			out = out[:len(out)-1] // turbofish
		}
		i = j
	}
	return out
}

// SameParams reports whether two parameter lists have the same types,
// token by token: how a target named with its parameter list
// (`synchronize(Stream)`) picks one overload.
func SameParams(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], " ") != strings.Join(b[i], " ") {
			return false
		}
	}
	return true
}
