package treesitter

import (
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// FunctionRule is the tree-sitter facet of a rule kind whose targets are
// functions: the rule value of such an invariant implements it. The front
// end finds each target's definitions in the invariant's files and hands
// every one to Check, with the facts of the language it is written in.
type FunctionRule interface {
	core.Rule
	// Patterns are the token patterns the rule matches (a callee, a
	// lock). The front end parses each with the invariant's grammar
	// once; a pattern that does not parse makes the invariant
	// unverifiable at the pattern. Check receives their tokens in this
	// order in Function.Patterns.
	Patterns() []invariants.Name
	// Check checks one definition of a target, reporting through fn.
	Check(fn *Function)
}

// PatternUser is implemented by a rule that says what it looks for with
// each of its patterns, in the order of Patterns: a pattern that can
// never match that (a forbid of an element access, which is no call)
// makes the invariant unverifiable at the pattern, instead of a rule
// that passes whatever the code does.
type PatternUser interface {
	PatternUses() []model.Use
}

// HelperRule is a FunctionRule with helpers (call's `via`): functions
// looked up like the targets, each of whose definitions must pass
// CheckHelper, or the invariant cannot be verified.
type HelperRule interface {
	FunctionRule
	Helpers() []invariants.Name
	// CheckHelper returns why a definition of a helper cannot stand in
	// for what the rule requires, or "".
	CheckHelper(fn *Function) string
}

// FieldRule is the tree-sitter facet of a rule kind whose target is a
// field: it is checked over every function of the invariant's files.
type FieldRule interface {
	core.Rule
	// Writers are the functions allowed to write the field; each must be
	// found in the files, or the invariant cannot be verified.
	WriterNames() []invariants.Name
	// CheckWrites checks the writes of the field by one function that is
	// not a writer.
	CheckWrites(fn *Function, writes []model.Write)
}

// FilesRule is the tree-sitter facet of a rule kind checked over every
// function of the invariant's files at once, because what one function
// does depends on the functions of the files it calls or that call it
// (requires follows the callers of a function that needs a lock, excludes
// passes to callers, lock_order follows acquisitions into callees). The
// functions it looks up (the invariant's own, or a FilesLookup's) must
// each be defined in the files, or the invariant cannot be verified.
type FilesRule interface {
	core.Rule
	// Patterns are the token patterns the rule matches, as for a
	// FunctionRule; each Function carries their tokens.
	Patterns() []invariants.Name
	// CheckFiles checks the functions of the files, reporting through
	// each, and returns why the invariant cannot be verified there (a
	// pattern nothing matches), or "".
	CheckFiles(fns []*Function) string
}

// Function is one definition of a target, with the facts of its language
// and the reporter for its findings. The kinds' checks read the facts
// through its methods; grammar knowledge stays in the language front ends
// (cfamily, rustlang).
type Function struct {
	Inv  *invariants.Invariant
	File *syntax.File
	Func *model.Func
	// Patterns are the tokens of the rule's patterns, in the order of
	// FunctionRule.Patterns, and Shapes what each is, for a rule that is
	// a PatternUser.
	Patterns [][]string
	Shapes   []model.Shape
	lang     model.Language
	conf     *model.Config
	findings []core.Finding
	// hold caches Guards.
	hold *model.Hold
	// acquisitions caches Acquisitions.
	acquisitions *[]Acquisition
	// types are the files the job parsed, whose type definitions
	// FieldType, Private and HasBases read (see typeFiles); nil: the
	// function's own file.
	types *typeFiles
}

// Is reports whether the function is the one a scoped name names: its
// path ends with the name's, and when the name gives a parameter list,
// its parameters have those types.
func (fn *Function) Is(n invariants.Name) bool {
	if !fn.Func.Matches(n.Scoped) {
		return false
	}
	if n.Params == "" {
		return true
	}
	want, err := fn.lang.ParamPattern(n.Params)
	return err == nil && model.SameParams(fn.lang.Params(fn.File, fn.Func), want)
}

// Site is where the tree-sitter front end places a finding: a syntax node
// of the function's file. The kinds' verdicts receive the facts below at
// these sites and hand them back to Function's Report.
type Site = *syntax.Node

// Occurrence and Exit are the core's facts at the front end's sites.
type (
	Occurrence = core.Occurrence[Site]
	Exit       = core.Exit[Site]
)

// Name is the function's qualified name, for messages: ns::Class::method.
func (fn *Function) Name() string { return Qualified(fn.Func) }

// At is the function's name, where a finding about the whole function is
// reported.
func (fn *Function) At() Site { return fn.Func.Name }

// Report implements core.Reporter: a finding of the invariant at a syntax
// node of the file.
func (fn *Function) Report(at Site, format string, args ...any) {
	fn.findings = append(fn.findings, report(fn.Inv, fn.File, at, format, args...))
}

// Line implements core.Reporter.
func (fn *Function) Line(at Site) int { return fn.File.Position(at.Start).Line }

// Calls lists every call site of the body with its liveness.
func (fn *Function) Calls() []model.Call { return fn.lang.Calls(fn.File, fn.Func, fn.conf) }

// Exits lists the live returns of the body (not of its lambdas and
// closures) and, when control can fall off its end, the end.
func (fn *Function) Exits() []Exit {
	exits, fallsThrough := fn.lang.Exits(fn.File, fn.Func, fn.conf)
	out := make([]Exit, 0, len(exits)+1)
	for _, e := range exits {
		out = append(out, Exit{At: e})
	}
	if fallsThrough {
		out = append(out, Exit{At: fn.End(), End: true})
	}
	return out
}

// End is the last token of the body, where falling off it is reported.
func (fn *Function) End() *syntax.Node { return fn.Func.Body.Children[len(fn.Func.Body.Children)-1] }

// Hold describes the body's guards.
func (fn *Function) Hold() *model.Hold { return fn.lang.Hold(fn.File, fn.Func, fn.lockConf()) }

// Dominance prepares, for the body and a set of first calls, the question
// whether one of them runs before a node on every path; see Dominance.
// Build it once for the calls and ask it for each node: the answers then
// cost, together, the size of the body.
func (fn *Function) Dominance(firsts []*syntax.Node) *Dominance {
	return newDominance(fn.Func.Body, firsts)
}

// Findings returns what Check reported.
func (fn *Function) Findings() []core.Finding { return fn.findings }

// Exposed says why code outside the function's file can call it, or ""
// when all its callers are in the file (see model.Language.Exposed).
func (fn *Function) Exposed() string { return fn.lang.Exposed(fn.File, fn.Func) }

// ValueUses lists the places in the body that name a function without
// calling it (`&helper`, `std::function<void()> f = helper;`,
// `spawn(helper)`): where it will be called from cannot be followed. A
// declaration of a local of the name is no use of the function.
func (fn *Function) ValueUses(name string) []*syntax.Node {
	var out []*syntax.Node
	syntax.Walk(fn.Func.Body, func(n *syntax.Node) bool {
		switch {
		case n != fn.Func.Body && definitions[n.Kind]:
			return false
		case n.Field == "function" && n.Parent != nil && n.Parent.Kind == "call_expression":
			// The callee is a call, not a use as a value; the call's
			// arguments may name the function as a value.
			return false
		case (n.Kind == "identifier" || n.Kind == "field_identifier") && fn.File.Text(n) == name && n.Field != "declarator" && n.Field != "pattern":
			out = append(out, n)
		}
		return true
	})
	return out
}

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

// FilesLookup is a FilesRule that says which of its names must be
// defined in the files, and which words a file must hold to matter
// (requires). A FilesRule without it looks up the invariant's functions,
// each of which must be defined somewhere in the files, reads every file,
// and cannot verify a function that does not parse and mentions one of
// its patterns' words or a function's name (excludes, lock_order).
type FilesLookup interface {
	// Lookups are the functions that must each be defined in the files,
	// once (or with `all: true`), like a FunctionRule's targets.
	Lookups(inv *invariants.Invariant) []invariants.Name
	// Mentions are words a file holds when it can matter to the rule: a
	// file with none of them is not parsed.
	Mentions(inv *invariants.Invariant) []string
	// OnlyLookups says that the rule checks the lookups' bodies and
	// nothing else (requires' within): another function that does not
	// parse does not matter.
	OnlyLookups(inv *invariants.Invariant) bool
}
