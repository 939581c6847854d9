package main

// # The Rust guards bound by a pattern (the third corpus, "rustpattern")
//
// This rule was written before its corpus was first generated and is not
// narrowed after seeing results.
//
// Files: the Rust files of the Rust rule above (rust-src's library and
// the crates under /usr/share/cargo/registry that bench/native/run
// installs) and the crates of twelve more Debian packages, chosen before
// the first run of this list as crates that share state behind mutexes
// (thread pools, executors, channels, loggers, progress bars, servers):
// patternPackages. Their .deb files are fetched by apt-get download and
// unpacked, without their dependencies, into the directory that
// -pattern-crates names, so that the other corpora do not change. Every
// .rs file of these that holds `.lock()`, `.read()`, `.write()` or
// `.try_lock()`, read as rust with no cfg option set.
//
// The first run, on the installed sources alone, found 15 definitions
// with such a guard and picked 6: too few for a corpus, hence the
// packages, listed before they were fetched.
//
// Version 2 (written before its first run): the real code of version 1
// has no `let ... else` (Debian 12's Rust is 1.63, and let-else came in
// 1.65), so the files widen by the same fourteen crate packages the Rust
// corpora read (patternPackages, librust-tokio-dev and
// librust-parking-lot-dev) in the versions of the next Debian release,
// 13 (trixie), served by the same archive: newerPackages, in the suite
// newerSuite. bench/native/run fetches them with an apt configuration of
// its own (that suite alone, its own lists and cache), so the system's
// sources do not change, and unpacks them into the same directory; a
// crate version that both releases ship is read once. Every other part
// of the rule is unchanged.
//
// Version 3 (written before its first run): versions 1 and 2 found no
// `let ... else` guard, since the crates of Debian 12 and 13 rarely write
// one. The files widen by the crate packages of the release after 13,
// forky (thirdSuite), that depend on a lock crate, a rule stated on apt's
// metadata alone: every binary package of forky's main, for the machine's
// architecture, whose name starts with `librust-` and ends with `-dev`,
// and whose Depends field names (in any alternative) a package of
// lockCrates, taken as `librust-NAME-dev` or `librust-NAME-` followed by
// a digit (the version and feature packages: librust-tokio-1+sync-dev);
// sorted by name, the first thirdLimit of them. Each is taken in the
// version the index names (NAME=VERSION), which bench/native/run prints.
// bench/native/run reads forky's index with an apt configuration of its
// own, as for version 2 (a second one, so that version 2's packages are
// still trixie's), passes the index to gen -pattern-packages-third and
// unpacks what it names into the same directory; a crate version that
// an earlier version also reads is read once. Every other part of the
// rule is unchanged.
//
// Functions: the candidates of the rule above (found by the front end,
// no ERROR or MISSING node, named alone in the file). A candidate is
// picked when its body (outside closures, macro invocations and nested
// items, and outside code the configuration does not compile) binds a
// guard by a pattern, and the first such binding G in source order
// decides how. A binding is one of:
//
//   - `if let PAT = V` or `while let PAT = V` (also inside a let chain):
//     the region is the consequence or the loop body;
//   - `let PAT = V else { .. };`: the region is the statements that
//     follow it in its block;
//   - `match V { .. }`: PAT is the pattern of its first arm that binds
//     the guard, and the region is that arm's value;
//
// where V is RECV.lock(), RECV.read(), RECV.write() or RECV.try_lock()
// called without arguments, followed by any number of .unwrap(),
// .expect(..), .ok(), `?` and `.await`, and PAT binds the guard to an
// identifier NAME: `NAME`, `mut NAME`, `Ok(NAME)` or `Some(NAME)` (mut
// allowed inside). A pattern `None`, or any capitalised name, binds
// nothing: Rust resolves it to a variant or constant (the generator took
// it for a name until the first run of version 3 showed a `None =>` arm
// of rxml picked with NAME `None`; the rule's words never allowed it). The lock M is RECV's text; the mode is shared for
// read, exclusive otherwise. The release word of G is `drop(NAME)`.
//
//   - Body: G is a `let ... else` that is the first statement of the
//     body's outermost block, and the body holds no release word. The
//     invariant is hold, lock M, in the mode.
//   - Around: any other picked binding. The operations are those of the
//     rule above (the last names of the callees of the calls in the
//     region, but not NAME, not a name the body also calls outside the
//     region, not a name a closure of the body calls), the region being
//     cut before its first statement that holds the release word. A
//     function without an operation left is not picked. The invariant
//     is requires, lock M, in the mode, on the operations, within the
//     function.
//
// Mutants, each replacing G's statement (the whole if, while or match
// expression, or the let) in a copy of its file:
//
//   - deleted: the lock deleted, its region kept: the region's block
//     (`{ .. }`, an arm's expression wrapped in one) in place of the if,
//     while or match; the let removed;
//   - temporary: the lock taken as a temporary and dropped at once, then
//     the region: `{ V; REGION }`; for the let, `V;`;
//   - dropped: `drop(NAME);` as the first statement of the region, when
//     the region has a statement (for the let: when a statement follows
//     it in its block) and NAME is the guard:
//     not when PAT is Ok(NAME) or Some(NAME) and V is unwrapped (ends in
//     `?`, .unwrap() or .expect(..), then any .await), since V is then
//     the guard, which such a pattern cannot bind: NAME is not the guard,
//     and dropping it releases nothing (this
//     condition was added after the first run of rule version 3, where
//     the two such mutants, both in rxml, whose `r.read()` is a token
//     reader's and no lock, were not flagged: they revert no guard, and
//     the front end rightly keeps the temporary's lock; no function and
//     no other mutant changes);
//   - for the let only: unbound, NAME in PAT replaced by `_` (the guard
//     is dropped at the end of the let), and nested, `{ G }`; in an if,
//     while or match, `_` keeps the scrutinee's guard alive through the
//     region, so unbinding it is no revert there;
//   - for a Body function: forgotten, `std::mem::forget(NAME);` right
//     after the let: the function returns with the lock held.
//
// Mutants are not compiled and are counted all the same.

import (
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/rustlang"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// patternPackages are the Debian packages whose crates widen the
// pattern corpus; bench/native/run fetches and unpacks them.
var patternPackages = []string{
	"librust-tracing-subscriber-dev", "librust-notify-dev", "librust-threadpool-dev", "librust-r2d2-dev",
	"librust-futures-util-dev", "librust-futures-executor-dev", "librust-flume-dev", "librust-dashmap-dev",
	"librust-indicatif-dev", "librust-tokio-util-dev", "librust-hyper-dev", "librust-slog-async-dev",
}

// newerSuite is the Debian suite of newerPackages.
const newerSuite = "trixie"

// newerPackages are the packages whose newer versions (newerSuite) widen
// the pattern corpus by rule version 2: those of version 1 and the two
// of the Rust corpus.
var newerPackages = append(append([]string{}, patternPackages...), "librust-tokio-dev", "librust-parking-lot-dev")

// thirdSuite is the Debian suite of rule version 3.
const thirdSuite = "forky"

// thirdLimit is how many packages rule version 3 takes, first by name.
const thirdLimit = 300

// lockCrates are the crates a package of rule version 3 depends on.
var lockCrates = []string{"parking-lot", "lock-api", "spin", "tokio"}

// thirdPackages applies rule version 3 to a Debian Packages index and
// returns NAME=VERSION for each package it takes.
func thirdPackages(index string) []string {
	versions := map[string]string{}
	for _, para := range strings.Split(strings.ReplaceAll(index, "\r\n", "\n"), "\n\n") {
		fields := map[string]string{}
		key := ""
		for _, line := range strings.Split(para, "\n") {
			if line == "" {
				continue
			}
			if line[0] == ' ' || line[0] == '\t' {
				if key != "" {
					fields[key] += " " + strings.TrimSpace(line)
				}
				continue
			}
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				key = ""
				continue
			}
			key = k
			fields[k] = strings.TrimSpace(v)
		}
		name := fields["Package"]
		if !strings.HasPrefix(name, "librust-") || !strings.HasSuffix(name, "-dev") || !dependsOnLock(fields["Depends"]) {
			continue
		}
		if _, seen := versions[name]; !seen {
			versions[name] = fields["Version"]
		}
	}
	names := make([]string, 0, len(versions))
	for n := range versions {
		names = append(names, n)
	}
	slices.Sort(names)
	if len(names) > thirdLimit {
		names = names[:thirdLimit]
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + "=" + versions[n]
	}
	return out
}

// dependsOnLock reports whether a Depends field names a package of a
// crate of lockCrates.
func dependsOnLock(depends string) bool {
	for _, alts := range strings.Split(depends, ",") {
		for _, alt := range strings.Split(alts, "|") {
			name, _, _ := strings.Cut(strings.TrimSpace(alt), " ")
			name, _, _ = strings.Cut(name, ":")
			for _, c := range lockCrates {
				if name == "librust-"+c+"-dev" {
					return true
				}
				if rest, ok := strings.CutPrefix(name, "librust-"+c+"-"); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
					return true
				}
			}
		}
	}
	return false
}

// patternWords are the words a file of the pattern corpus holds.
var patternWords = []string{".lock()", ".read()", ".write()", ".try_lock()"}

// patternLocks are the lock methods of the pattern rule.
var patternLocks = map[string]invariants.LockMode{
	"lock": invariants.Exclusive, "write": invariants.Exclusive, "try_lock": invariants.Exclusive, "read": invariants.Shared,
}

// binding is a guard bound by a pattern.
type binding struct {
	form   string       // if_let, while_let, let_else, match
	stmt   *syntax.Node // what the mutants replace
	region *syntax.Node // the block or arm value run with the guard; nil for let_else
	value  *syntax.Node // V
	bound  *syntax.Node // the pattern node that binds NAME (an identifier or a mut_pattern)
}

// rustPatternGuard finds the first guard a Rust body binds by a pattern.
func rustPatternGuard(f *syntax.File, body *syntax.Node, live func(*syntax.Node) core.Liveness) (*guard, string, invariants.LockMode, *binding) {
	var g *guard
	var lock string
	var mode invariants.LockMode
	var b *binding
	try := func(form string, stmt, region, value, pat *syntax.Node) bool {
		if value == nil || pat == nil || !compiled(live, stmt) {
			return false
		}
		recv, m, ok := patternLockCalls.find(f, value)
		if !ok {
			return false
		}
		bound := boundBy(f, pat)
		if bound == nil {
			return false
		}
		name := bound
		if name.Kind == "mut_pattern" {
			name = name.NamedChildren()[len(name.NamedChildren())-1]
		}
		b = &binding{form: form, stmt: stmt, region: region, value: value, bound: bound}
		g = &guard{start: stmt.Start, end: stmt.End, text: f.Text(stmt), name: f.Text(name), value: f.Text(value)}
		lock, mode = strings.Join(strings.Fields(f.Text(recv)), " "), m
		return true
	}
	walk(body, func(n *syntax.Node) bool {
		switch n.Kind {
		case "let_condition":
			owner := n.Parent
			for owner != nil && owner.Kind == "let_chain" {
				owner = owner.Parent
			}
			if owner == nil {
				return true
			}
			switch owner.Kind {
			case "if_expression":
				return !try("if_let", owner, owner.Child("consequence"), n.Child("value"), n.Child("pattern"))
			case "while_expression":
				return !try("while_let", owner, owner.Child("body"), n.Child("value"), n.Child("pattern"))
			}
		case "let_declaration":
			if n.Child("alternative") != nil {
				return !try("let_else", n, nil, n.Child("value"), n.Child("pattern"))
			}
		case "match_expression":
			arms := n.Child("body")
			if arms == nil {
				return true
			}
			for _, arm := range arms.NamedChildren() {
				if arm.Kind != "match_arm" || boundBy(f, arm.Child("pattern")) == nil {
					continue
				}
				return !try("match", n, arm.Child("value"), n.Child("value"), arm.Child("pattern"))
			}
		}
		return true
	})
	return g, lock, mode, b
}

// bindsGuard reports whether NAME is the guard itself, which `drop(NAME)`
// releases. Not when V is unwrapped (its outermost call, under any
// .await, is `?`, .unwrap() or .expect(..)) and PAT is Ok(NAME) or
// Some(NAME): V is then the guard, whose type has no such variant, so
// NAME binds something else and the guard is the scrutinee's temporary,
// held to the end of the if, while or match (a receiver whose read() is
// no lock's, such as a token reader's, is picked this way).
func bindsGuard(f *syntax.File, b *binding) bool {
	pat := b.bound.Parent
	for pat != nil && pat.Kind == "mut_pattern" {
		pat = pat.Parent
	}
	if pat == nil || pat.Kind != "tuple_struct_pattern" {
		return true
	}
	v := b.value
	for v != nil && v.Kind == "await_expression" {
		kids := v.NamedChildren()
		if len(kids) == 0 {
			return true
		}
		v = kids[0]
	}
	switch {
	case v == nil:
		return true
	case v.Kind == "try_expression":
		return false
	case v.Kind == "call_expression":
		if fn := v.Child("function"); fn != nil && fn.Kind == "field_expression" {
			m := f.Text(fn.Child("field"))
			return m != "unwrap" && m != "expect"
		}
	}
	return true
}

// patternLockCalls are the pattern rule's: V is RECV.lock(), .read(),
// .write() or .try_lock() under unwrap, expect, ok, `?` and `.await`.
var patternLockCalls = lockCalls{locks: patternLocks, wrappers: []string{"unwrap", "expect", "ok"}, await: true}

// boundBy returns the node of a pattern that binds the guard to a name:
// NAME, `mut NAME`, or the same inside Ok(..) or Some(..); nil for any
// other pattern.
func boundBy(f *syntax.File, pat *syntax.Node) *syntax.Node {
	if pat == nil {
		return nil
	}
	if pat.Kind == "match_pattern" {
		kids := pat.NamedChildren()
		if len(kids) == 0 {
			return nil
		}
		pat = kids[0]
	}
	switch pat.Kind {
	case "identifier":
		// `None` or a constant binds nothing, as the front end reads it.
		if !rustlang.BindsName(f.Text(pat)) {
			return nil
		}
		return pat
	case "mut_pattern":
		// `mut NAME`: a mutable_specifier, then the identifier.
		kids := pat.NamedChildren()
		if len(kids) > 0 && kids[len(kids)-1].Kind == "identifier" {
			return pat
		}
	case "tuple_struct_pattern":
		t := f.Text(pat.Child("type"))
		var args []*syntax.Node
		for _, k := range pat.NamedChildren() {
			if k.Field != "type" {
				args = append(args, k)
			}
		}
		if (t == "Ok" || t == "Some") && len(args) == 1 && args[0].Kind != "tuple_struct_pattern" {
			return boundBy(f, args[0])
		}
	}
	return nil
}

// regionStatements are the statements of a binding's region, cut before
// the first that releases the guard.
func regionStatements(f *syntax.File, b *binding, name string) []*syntax.Node {
	if b.region == nil {
		return nil
	}
	if b.region.Kind != "block" {
		return []*syntax.Node{b.region}
	}
	var out []*syntax.Node
	for _, s := range b.region.Children {
		if !s.Named || isComment(s) {
			continue
		}
		if releases(f, s, name, "rust") {
			break
		}
		out = append(out, s)
	}
	return out
}

// hasStatement reports whether a region has a statement: a block with
// one, or an arm's expression.
func hasStatement(region *syntax.Node) bool {
	if region.Kind != "block" {
		return true
	}
	for _, s := range region.Children {
		if s.Named && !isComment(s) {
			return true
		}
	}
	return false
}

func isComment(n *syntax.Node) bool {
	return n.Kind == "comment" || n.Kind == "line_comment" || n.Kind == "block_comment"
}

// patternMutants lists the mutants of a pick bound by a pattern: the
// replacement of its statement.
func patternMutants(f *syntax.File, p pick) []mutant {
	b, g := p.binding, p.guard
	if b.form == "let_else" {
		out := []mutant{{"deleted", ""}, {"temporary", g.value + ";"}, {"nested", "{ " + g.text + " }"}}
		unbound := f.Text(b.stmt)[:b.bound.Start-b.stmt.Start] + "_" + f.Text(b.stmt)[b.bound.End-b.stmt.Start:]
		out = append(out, mutant{"unbound", unbound})
		if !g.last && bindsGuard(f, b) {
			out = append(out, mutant{"dropped", g.text + " drop(" + g.name + ");"})
		}
		if p.body {
			out = append(out, mutant{"forgotten", g.text + " std::mem::forget(" + g.name + ");"})
		}
		return out
	}
	region := f.Text(b.region)
	block := region
	if b.region.Kind != "block" {
		block = "{ " + region + " }"
	}
	out := []mutant{{"deleted", block}, {"temporary", "{ " + g.value + "; " + block + " }"}}
	if hasStatement(b.region) && bindsGuard(f, b) {
		var dropped string
		if b.region.Kind == "block" {
			dropped = "{ drop(" + g.name + "); " + region[1:]
		} else {
			dropped = "{ drop(" + g.name + "); " + region + " }"
		}
		stmt := f.Text(b.stmt)
		out = append(out, mutant{"dropped", stmt[:b.region.Start-b.stmt.Start] + dropped + stmt[b.region.End-b.stmt.Start:]})
	}
	return out
}
