//go:build cgo

package guardedby

import (
	"fmt"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// The tree-sitter facet: the rule over C, C++, CUDA, Rust and Metal code.
// The field is Type::field. Its accesses are those the front end finds
// (model.Accessor): through `this` or `self` in Type's methods, the bare
// field in a C++ method where no local hides it, and through a local or
// parameter whose declared type names Type. Each must lie in the live
// scope of a guard of the lock of the same value (treesitter.HeldAt), in
// the mode it needs: a write exclusive, a read shared or exclusive (only
// exclusive with `reads: exclusive`). The lock of the same value is the
// lock pattern itself for an access through `this` or `self` (`mtx_`
// matches `this->mtx_` and `mtx_`), and `o.mtx_`, `o->mtx_` or
// `(*o).mtx_` for an access through o; a lock that is a call or a
// qualified name (`kernel_mtx()`, `::g_mu`, `crate::LOCK`), or a plain
// name that Type's definition in the files does not declare as a field,
// is one lock for every value.
//
// A C++ subscript of the field that only reads the element writes it all
// the same when the field is a map, whose operator[] inserts a missing
// key: the field's declared type in Type's definition says which (a type
// whose name ends in "map"); a field whose declaration is not in the
// files is taken to be one.
//
// Initialisation needs no lock: Type's constructors and destructor (C++;
// member initialisers are not in a body at all), struct literals (Rust,
// which are no access), and the functions under `init`.
//
// As for requires, a function that touches the field without the lock
// passes the need to its callers when no other file can call it (static
// in a source file, in an anonymous namespace, a private Rust function),
// and they are looked for in its file; a C++ member function declared
// only in a private section of Type passes it to Type's members in all
// the invariant's files. The value whose lock the caller must hold is the
// one it calls the function on (`this`, `o.helper()`) or the argument it
// passes for the parameter the access goes through. An access in a
// lambda or closure that is not run where it is written needs a guard
// inside it.

// Patterns implements treesitter.FilesRule: the lock.
func (r *Rule) Patterns() []invariants.Name { return []invariants.Name{r.Lock} }

// Lookups implements treesitter.FilesLookup: the init and held_in
// functions must be defined in the files.
func (r *Rule) Lookups(*invariants.Invariant) []invariants.Name {
	return append(append([]invariants.Name(nil), r.Init...), r.HeldIn...)
}

// Mentions implements treesitter.FilesLookup: a file that does not name
// the field holds no access of it, nor a caller of a function that needs
// the lock for one (those are in the files of the accesses).
func (r *Rule) Mentions(inv *invariants.Invariant) []string {
	out := []string{inv.Field.Scoped[len(inv.Field.Scoped)-1]}
	for _, n := range append(append([]invariants.Name(nil), r.Init...), r.HeldIn...) {
		out = append(out, n.Scoped[len(n.Scoped)-1])
	}
	return out
}

// OnlyLookups implements treesitter.FilesLookup.
func (r *Rule) OnlyLookups(*invariants.Invariant) bool { return false }

// CheckFiles implements treesitter.FilesRule.
func (r *Rule) CheckFiles(fns []*treesitter.Function) string {
	if len(fns) == 0 {
		return fmt.Sprintf("no function of the files mentions %s, so the invariant checks nothing", r.nativeFieldName(nil))
	}
	c := newNativeCheck(r, fns)
	if why := c.run(); why != "" {
		return why
	}
	if c.accesses == 0 {
		return fmt.Sprintf("no live access of %s in the files, so the invariant checks nothing", r.nativeFieldName(fns[0].Inv))
	}
	return ""
}

// run judges every access of the field in the functions, then the
// callers of those that need the lock, or says why it cannot.
func (c *nativeCheck) run() string {
	for _, fn := range c.fns {
		if c.r.nativeExempt(fn, c.typ) {
			continue
		}
		as, ok := fn.Accesses(c.typ, c.field)
		if !ok {
			return fmt.Sprintf("the %s front end does not tell the accesses of a field apart", fn.File.Lang)
		}
		for _, a := range as {
			if !a.MayRun() {
				continue
			}
			c.accesses++
			c.judgeAccess(fn, a)
		}
	}
	c.follow()
	return ""
}

// nativeFieldName is the field as written in the invariant.
func (r *Rule) nativeFieldName(inv *invariants.Invariant) string {
	if inv == nil {
		return "the field"
	}
	return inv.Field.Raw
}

// nativeExempt reports whether a function initialises the value or is declared
// set-up code: Type's constructors and destructor, and the init functions.
func (r *Rule) nativeExempt(fn *treesitter.Function, typ string) bool {
	p := fn.Func.Path
	if len(p) >= 2 && p[len(p)-2] == typ && (p[len(p)-1] == typ || p[len(p)-1] == "~"+typ) && fn.File.Lang != "rust" {
		return true
	}
	for _, n := range r.Init {
		if fn.Is(n) {
			return true
		}
	}
	return false
}

// check is one guarded_by invariant checked over the functions of its
// files.
type nativeCheck struct {
	r          *Rule
	inv        *invariants.Invariant
	fns        []*treesitter.Function
	typ, field string
	// mapLike: a subscript of the field inserts (see above).
	mapLike bool
	// notMember: the lock is a plain name that Type does not declare
	// (see global).
	notMember bool
	// rust: the files are Rust, whose receiver is `self`.
	rust     bool
	accesses int
	// needs holds, per function and value (`this`, or a parameter's
	// index), what its callers must hold for it; queue those whose
	// callers are still to be judged.
	needs map[nativeKey]*nativeNeed
	queue []nativeKey
	// contracts are the locks functions hold by their source's contract
	// (treesitter.LockContracts), and declared the functions that need
	// the lock through one or through held_in, whose callers are looked
	// for in every file by the calls' receivers (callees).
	contracts *treesitter.LockContracts
	declared  map[nativeKey]string
	callees   *treesitter.Callees
	// heldCalls, when set (by the mutant generator), collects the calls
	// of a function that needs the lock which the caller makes holding
	// it, where a revert of the caller's guard is reported in the caller.
	heldCalls map[*syntax.Node]heldCall
}

// heldCall is a call of a function that needs the lock, made holding it.
type heldCall struct {
	caller *treesitter.Function
	locks  [][]string
	mode   invariants.LockMode
}

// nativeKey is a function that needs the lock of one value held by its
// callers: obj is -1 for `this`/`self`, else the index of the parameter.
type nativeKey struct {
	fn  *treesitter.Function
	obj int
}

// need is what the callers must hold: the lock in mode, for the access
// described by what, reached through path.
type nativeNeed struct {
	mode invariants.LockMode
	what string
	path []string
}

func newNativeCheck(r *Rule, fns []*treesitter.Function) *nativeCheck {
	inv := fns[0].Inv
	s := inv.Field.Scoped
	c := &nativeCheck{r: r, inv: inv, fns: fns, typ: s[len(s)-2], field: s[len(s)-1], needs: map[nativeKey]*nativeNeed{},
		contracts: treesitter.NewLockContracts(fns), declared: map[nativeKey]string{}}
	t := treesitter.FieldType(fns, c.typ, c.field)
	lang := fns[0].File.Lang
	c.rust = lang == "rust"
	if p := fns[0].Patterns[0]; len(p) == 1 && t != nil {
		// Type is defined in the files (its field is): does it declare
		// the lock too?
		// A base class may declare it.
		c.notMember = treesitter.FieldType(fns, c.typ, p[0]) == nil && !treesitter.HasBases(fns, c.typ)
	}
	c.mapLike = lang != "c" && lang != "rust" && (t == nil || model.MapLike(t))
	return c
}

// global reports whether the lock is one for every value: a call or a
// qualified name, or a name that Type's definition in the files does not
// declare as a field and that no base class can (a variable of a
// namespace or of the file, as `static Mutex synch_event_mu;` guarding
// `SynchEvent::refcount`). A plain name of a type whose definition is not
// in the files, or that derives from other classes, is taken to be its
// field.
func (c *nativeCheck) global(pattern []string) bool {
	for _, t := range pattern {
		if t == "(" || t == "::" {
			return true
		}
	}
	return c.notMember
}

// lockOf returns the lock patterns of a value for the rule's lock: the
// pattern itself for `this`, `self` or a global lock, else the value's
// own member. A lock written through a pointer (`*DataGuard()`, as
// Clang's annotations name a mutex a call returns) or by its address
// (`&mu_`) is also matched without the `*` or `&`, and a global lock
// with one (`*g_mu`, a pointer to the mutex): a guard built from the
// pointer or the object holds the same mutex.
func (c *nativeCheck) lockOf(pattern, obj []string) [][]string {
	bases := [][]string{pattern}
	if len(pattern) > 1 && (pattern[0] == "*" || pattern[0] == "&") {
		bases = append(bases, pattern[1:])
	} else if c.global(pattern) && !c.rust {
		// A global pointer to the mutex, locked through it (`*g_mu`).
		bases = append(bases, append([]string{"*"}, pattern...))
	}
	if c.global(pattern) || c.receiver(obj) {
		return bases
	}
	var out [][]string
	for _, p := range bases {
		for _, sep := range [][]string{{"."}, {"->"}} {
			out = append(out, append(append(append([]string(nil), obj...), sep...), p...))
		}
		out = append(out, append(append([]string{"(", "*"}, obj...), append([]string{")", "."}, p...)...))
	}
	return out
}

// receiver reports whether an access's value is the function's own
// receiver: `this` in the C family (where `self` is a name like any
// other, as grpc's callbacks name their object), `self` in Rust.
func (c *nativeCheck) receiver(obj []string) bool {
	if len(obj) != 1 {
		return len(obj) == 0
	}
	if c.rust {
		return obj[0] == "self"
	}
	return obj[0] == "this"
}

// lockName names the lock of a value for messages.
func (c *nativeCheck) lockName(obj []string) string {
	if c.receiver(obj) || c.global(c.pattern()) {
		return c.r.Lock.Raw
	}
	return fmt.Sprintf("%s of %s", c.r.Lock.Raw, strings.Join(obj, ""))
}

// pattern is the lock's tokens.
func (c *nativeCheck) pattern() []string { return c.fns[0].Patterns[0] }

// modeOf returns the mode an access needs, and says what it does for
// messages.
func (c *nativeCheck) modeOf(a model.Access) (invariants.LockMode, string) {
	switch {
	case a.Indexed && c.mapLike && (a.Write || a.Subscript):
		return invariants.Exclusive, fmt.Sprintf("writes %s through operator[]", c.inv.Field.Raw)
	case a.Write:
		return invariants.Exclusive, fmt.Sprintf("writes %s (%s)", c.inv.Field.Raw, a.How)
	case c.r.Reads == invariants.Exclusive:
		return invariants.Exclusive, "reads " + c.inv.Field.Raw
	}
	return invariants.Shared, "reads " + c.inv.Field.Raw
}

// judgeAccess checks one access.
func (c *nativeCheck) judgeAccess(fn *treesitter.Function, a model.Access) {
	mode, what := c.modeOf(a)
	locks := c.locksIn(fn, a.Object)
	name := c.lockName(a.Object)
	if !a.Live() {
		// A lambda or closure that may run later: only a guard taken in
		// it holds the lock when it runs.
		if ok, weaker, _ := c.held(fn, a.Node, locks, mode, enclosingLiteral(a.Node)); !ok {
			fn.Report(a.Node, "%s %s, %s", what, a.Dead, c.without(name, mode, weaker, "which may run when the lock is not held"))
		}
		return
	}
	ok, weaker, why := c.held(fn, a.Node, locks, mode, nil)
	switch {
	case ok:
		return
	case weaker:
		fn.Report(a.Node, "%s under a shared lock of %s; %s", what, name, exclusiveWhy(a, c.mapLike))
		return
	}
	obj := c.objIndex(fn, a.Object)
	if obj == -2 && c.linkedFromOther(fn, a.Object, a.Node) && c.anyValueMet(fn, a.Node, &nativeNeed{mode: mode, what: fmt.Sprintf("%s at line %d through %s, which stands for a member of another value", what, fn.Line(a.Node), a.Object[0]), path: []string{fn.Name()}}) {
		return // a near match, or passed on (near_native.go)
	}
	if req, weaker, branch := c.contract(fn, a.Node, locks, mode); req != "" {
		if weaker {
			fn.Report(a.Node, "%s, and %s holds %s only shared (%s); %s", what, fn.Name(), name, req, exclusiveWhy(a, c.mapLike))
			return
		}
		if obj != -2 && !branch {
			c.addDeclared(nativeKey{fn, obj}, req, &nativeNeed{mode: mode, what: fmt.Sprintf("%s at line %d", what, fn.Line(a.Node)), path: []string{fn.Name()}})
		}
		// A value that is no receiver or parameter: the contract names
		// its lock all the same, and no caller can provide it.
		return
	}
	if reason := c.callableOutside(fn); reason != "" || obj == -2 {
		if obj == -2 {
			reason = "the value is not the function's receiver or parameter, so its callers cannot hold its lock"
		}
		fn.Report(a.Node, "%s without %s held in %s (%s); %s", what, c.lockWord(name, mode), fn.Name(), reason, why)
		return
	}
	if u := c.releasedBefore(fn, a.Node, locks); u != nil {
		// What the callers hold is given up there: the need cannot be
		// passed to them.
		fn.Report(a.Node, "%s after %s gives %s up at line %d, without taking it again", what, fn.Name(), name, fn.Line(u))
		return
	}
	c.addNeed(nativeKey{fn, obj}, &nativeNeed{mode: mode, what: fmt.Sprintf("%s at line %d", what, fn.Line(a.Node)), path: []string{fn.Name()}})
}

// exclusiveWhy says why an access needs the lock exclusive.
func exclusiveWhy(a model.Access, mapLike bool) string {
	switch {
	case a.Indexed && mapLike && (a.Write || a.Subscript):
		return "inserting needs it exclusive (look the key up with find() under the shared lock, insert under the exclusive one)"
	case a.Write:
		return "a write needs it exclusive"
	}
	return "reads: exclusive needs it exclusive"
}

// lockWord names the lock with the mode an access needs.
func (c *nativeCheck) lockWord(name string, mode invariants.LockMode) string {
	if mode == invariants.Exclusive {
		return name + " (exclusive)"
	}
	return name
}

// without describes a lock not held for an access in a literal.
func (c *nativeCheck) without(name string, mode invariants.LockMode, weaker bool, tail string) string {
	if weaker {
		return fmt.Sprintf("holding %s only shared, %s", name, tail)
	}
	return fmt.Sprintf("without %s held in it, %s", c.lockWord(name, mode), tail)
}

// addNeed records that a function's callers must hold a lock.
func (c *nativeCheck) addNeed(k nativeKey, n *nativeNeed) {
	if old := c.needs[k]; old != nil {
		if old.mode == invariants.Exclusive || n.mode == invariants.Shared {
			return
		}
	}
	c.needs[k] = n
	c.queue = append(c.queue, k)
}

// objIndex maps an access's value to what a caller provides: -1 for
// `this`/`self`, a parameter's index, or -2 for any other value.
func (c *nativeCheck) objIndex(fn *treesitter.Function, obj []string) int {
	if c.receiver(obj) || c.global(c.pattern()) {
		return -1
	}
	for i, p := range fn.ParamNames() {
		if len(obj) == 1 && p == obj[0] {
			return i
		}
	}
	return -2
}

// callableOutside says why code the check does not follow can call fn,
// or "": only its file can (treesitter.Function.Exposed), or it is a
// private member function of Type, called by Type's members.
func (c *nativeCheck) callableOutside(fn *treesitter.Function) string {
	reason := fn.Exposed()
	if reason == "" || c.privateMember(fn) {
		return ""
	}
	return reason
}

// member reports whether fn is a member function of Type.
func (c *nativeCheck) member(fn *treesitter.Function) bool {
	p := fn.Func.Path
	return len(p) >= 2 && p[len(p)-2] == c.typ
}

// privateMember reports whether fn is a member function of Type declared
// only in a private section.
func (c *nativeCheck) privateMember(fn *treesitter.Function) bool {
	p := fn.Func.Path
	return c.member(fn) && treesitter.Private(c.fns, c.typ, p[len(p)-1])
}

// held reports whether a guard of one of the locks holds it at n in mode;
// weaker, when one holds it only shared where mode is exclusive; and
// otherwise why none counts. With within set, only guards inside it count.
func (c *nativeCheck) held(fn *treesitter.Function, n *syntax.Node, locks [][]string, mode invariants.LockMode, within *syntax.Node) (ok, weaker bool, why string) {
	hs, weaker, why := c.holders(fn, n, locks, mode, within)
	return len(hs) > 0, weaker, why
}

// holders returns the guards of one of the locks that hold it at n in
// mode, in the order of the body's guards; weaker and why as for held.
func (c *nativeCheck) holders(fn *treesitter.Function, n *syntax.Node, locks [][]string, mode invariants.LockMode, within *syntax.Node) (hs []*model.Guard, weaker bool, why string) {
	for _, g := range fn.Guards().All {
		if !locksAny(g, locks) || (within != nil && !within.Contains(g.Node)) {
			continue
		}
		orig := g
		if within != nil && !g.Live() && g.Maybe {
			// A guard in the same lambda or closure runs when the access
			// does: judge it as the lambda's own code.
			live := *g
			live.Liveness = core.Liveness{}
			g = &live
		}
		held, reason := fn.HeldAt(g, n)
		switch {
		case held && (mode == invariants.Shared || g.Mode == invariants.Exclusive):
			hs = append(hs, orig)
		case held:
			weaker = true
		case why == "" || g.Node.Start < n.Start:
			why = fmt.Sprintf("the guard at line %d does not count: %s", fn.Line(g.Node), reason)
		}
	}
	if len(hs) > 0 {
		return hs, false, ""
	}
	if within != nil {
		// The literal's own explicit lock calls (the front end's guards
		// hold only the declared ones there).
		for _, a := range fn.LiteralAcquisitions(within) {
			if !a.HeldAt(n) || !matchesAny(a.Lock, locks) {
				continue
			}
			if mode == invariants.Shared || a.Mode == invariants.Exclusive {
				return []*model.Guard{{Node: a.Node, Lock: [][]string{a.Lock}, Mode: a.Mode, Takes: true}}, false, ""
			}
			weaker = true
		}
	}
	if why == "" {
		why = fmt.Sprintf("no guard of %s is in scope here", c.r.Lock.Raw)
	}
	return nil, weaker, why
}

// matchesAny reports whether a locked expression is one of the locks.
func matchesAny(l []string, locks [][]string) bool {
	for _, p := range locks {
		if model.MatchLock(l, p) {
			return true
		}
	}
	return false
}

// locksAny reports whether a guard locks one of the locks.
func locksAny(g *model.Guard, locks [][]string) bool {
	for _, l := range locks {
		if g.Locks(l) {
			return true
		}
	}
	return false
}

// enclosingLiteral returns the innermost lambda or closure around n.
func enclosingLiteral(n *syntax.Node) *syntax.Node {
	return n.Innermost("lambda_expression", "closure_expression")
}

// follow judges the callers of the functions that need a lock held, until
// no new function needs one. The callers of a private member function are
// Type's members in every file; of any other function, the functions of
// its file. A use of the function as a value is reported, since its calls
// cannot be followed.
func (c *nativeCheck) follow() {
	done := map[nativeKey]*nativeNeed{}
	for len(c.queue) > 0 {
		k := c.queue[0]
		c.queue = c.queue[1:]
		nd := c.needs[k]
		if done[k] == nd {
			continue // queued again for a stronger need, already judged
		}
		done[k] = nd
		callee := k.fn
		name := callee.Func.Path[len(callee.Func.Path)-1]
		_, declared := c.declared[k]
		found := false
		for _, cl := range c.callsOf(callee, declared) {
			found = true
			c.judgeCall(cl.caller, cl.call, callee, k.obj, nd)
		}
		for _, caller := range c.fns {
			if caller == callee || c.r.nativeExempt(caller, c.typ) || !c.inCallerScope(caller, callee) {
				// A function of that name in another file may be
				// anything: only the calls resolved to it count there.
				continue
			}
			for _, use := range caller.ValueUses(name) {
				if c.judgeCondition(caller, use, callee, k.obj, nd) {
					found = true
					continue
				}
				if declared && !addressOf(use) {
					// A name that a contract binds is a common one
					// (`cq`, `mu`): only `&Type::name` or `&name` is
					// surely the function as a value.
					continue
				}
				found = true
				caller.Report(use, "%s is used as a value here, so its calls cannot be followed, and it %s without %s held (%s)", callee.Name(), nd.what, c.lockWord(c.r.Lock.Raw, nd.mode), strings.Join(nd.path, " -> "))
			}
		}
		if !found && !declared {
			// A function that needs the lock by contract may be called
			// from code outside the files, which the contract binds. For
			// any other, no call to judge: a virtual override, a function called
			// through a pointer the files do not show. Nothing shows
			// that its callers hold the lock.
			callee.Report(callee.At(), "%s %s without %s held (%s), and no call of %s is found where its callers can be, so none is shown to hold it (a virtual override or a function called through a pointer is called from elsewhere)", callee.Name(), nd.what, c.lockWord(c.r.Lock.Raw, nd.mode), strings.Join(nd.path, " -> "), callee.Name())
		}
	}
}

// callAt is a call and the function that makes it.
type callAt struct {
	caller *treesitter.Function
	call   model.Call
}

// inCallerScope reports whether caller is where callee's callers are looked
// for by name: a member of Type for a private member, the file for any
// other.
func (c *nativeCheck) inCallerScope(caller, callee *treesitter.Function) bool {
	if c.privateMember(callee) {
		return c.member(caller)
	}
	return caller.File == callee.File
}

// callsOf lists the calls of callee that may run in the functions the
// check reads: by name where they are near it, resolved by receiver type
// elsewhere and for a function that declares its need (a contract binds
// callers in every file).
func (c *nativeCheck) callsOf(callee *treesitter.Function, declared bool) []callAt {
	var out []callAt
	for _, caller := range c.fns {
		if caller == callee || c.r.nativeExempt(caller, c.typ) {
			continue
		}
		if !declared && !c.inCallerScope(caller, callee) {
			continue
		}
		for _, call := range caller.Calls() {
			if !call.MayRun() || !model.CallsName(call.Callee, callee.Func.Path) {
				continue
			}
			if declared && !c.calls(caller, call, callee) {
				continue
			}
			if c.member(caller) && c.otherMember(call, callee) {
				continue
			}
			out = append(out, callAt{caller, call})
		}
	}
	return out
}

// judgeCall checks one call of a function that needs the lock of a value
// held: the value is what the call passes for obj.
func (c *nativeCheck) judgeCall(caller *treesitter.Function, call model.Call, callee *treesitter.Function, obj int, nd *nativeNeed) {
	if obj == anyValue {
		c.judgeCallAny(caller, call, callee, nd)
		return
	}
	val := c.valueAt(caller, call, obj)
	if val == nil {
		path := append([]string{caller.Name()}, nd.path...)
		caller.Report(call.Node, "calls %s, which %s without %s held, and the value whose lock it needs cannot be told here (%s)", callee.Name(), nd.what, c.r.Lock.Raw, strings.Join(path, " -> "))
		return
	}
	c.judgeCallOn(caller, call, callee, val, nd)
}

// judgeCallOn checks one call of a function that needs the lock of val
// held: the caller holds it at the call, or passes the need on.
func (c *nativeCheck) judgeCallOn(caller *treesitter.Function, call model.Call, callee *treesitter.Function, val []string, nd *nativeNeed) {
	path := append([]string{caller.Name()}, nd.path...)
	name := c.lockName(val)
	if !call.Live() {
		if ok, weaker, _ := c.held(caller, call.Node, c.locksIn(caller, val), nd.mode, enclosingLiteral(call.Node)); !ok {
			caller.Report(call.Node, "calls %s %s, %s (%s)", callee.Name(), call.Dead, c.without(name, nd.mode, weaker, "which may run when the lock is not held"), strings.Join(path, " -> "))
		}
		return
	}
	ok, weaker, why := c.held(caller, call.Node, c.locksIn(caller, val), nd.mode, nil)
	switch {
	case ok:
		c.noteHeld(caller, call, val, nd.mode)
		return
	case weaker:
		caller.Report(call.Node, "calls %s under a shared lock of %s, and it %s, which needs it exclusive (%s)", callee.Name(), name, nd.what, strings.Join(path, " -> "))
		return
	}
	idx := c.objIndex(caller, val)
	if idx == -2 && c.linkedFromOther(caller, val, call.Node) && c.anyValueMet(caller, call.Node, &nativeNeed{mode: nd.mode, what: nd.what, path: path}) {
		return // a near match, or passed on (near_native.go)
	}
	if req, weaker, branch := c.contract(caller, call.Node, c.locksIn(caller, val), nd.mode); req != "" {
		if weaker {
			caller.Report(call.Node, "calls %s, and %s holds %s only shared (%s), and it %s, which needs it exclusive (%s)", callee.Name(), caller.Name(), name, req, nd.what, strings.Join(path, " -> "))
			return
		}
		if idx != -2 && !branch {
			c.addDeclared(nativeKey{caller, idx}, req, &nativeNeed{mode: nd.mode, what: nd.what, path: path})
		}
		return
	}
	if reason := c.callableOutside(caller); reason != "" || idx == -2 {
		if idx == -2 {
			reason = "the value is not the function's receiver or parameter, so its callers cannot hold its lock"
		}
		caller.Report(call.Node, "calls %s without %s held, and it %s (%s: %s); %s", callee.Name(), c.lockWord(name, nd.mode), nd.what, strings.Join(path, " -> "), reason, why)
		return
	}
	if u := c.releasedBefore(caller, call.Node, c.locksIn(caller, val)); u != nil {
		caller.Report(call.Node, "calls %s after %s gives %s up at line %d, without taking it again, and it %s (%s)", callee.Name(), caller.Name(), name, caller.Line(u), nd.what, strings.Join(path, " -> "))
		return
	}
	c.addNeed(nativeKey{caller, idx}, &nativeNeed{mode: nd.mode, what: nd.what, path: path})
}

// noteHeld records, for the mutant generator, a call of a function that
// needs the lock of val, made holding it, when a revert of the guard
// would be reported in the caller: a caller that code outside the files
// can call or that no code of the files calls, or a value that is not
// the caller's receiver or parameter, and no contract of the caller's that holds the lock (which would pass
// the need on to its callers instead).
func (c *nativeCheck) noteHeld(caller *treesitter.Function, call model.Call, val []string, mode invariants.LockMode) {
	if c.heldCalls == nil {
		return
	}
	locks := c.locksIn(caller, val)
	if req, _, _ := c.contract(caller, call.Node, locks, mode); req != "" {
		return
	}
	if c.callableOutside(caller) == "" && c.objIndex(caller, val) != -2 && !c.uncalled(caller) {
		return
	}
	if prev, ok := c.heldCalls[call.Node]; ok && prev.mode == invariants.Exclusive {
		return
	}
	c.heldCalls[call.Node] = heldCall{caller: caller, locks: locks, mode: mode}
}

// uncalled reports whether the files show no call of fn and no use of
// it as a value: a need passed to its callers is reported in fn itself
// (a virtual override, a callback registered elsewhere), so a revert of
// its guard is seen there.
func (c *nativeCheck) uncalled(fn *treesitter.Function) bool {
	if len(c.callsOf(fn, false)) > 0 {
		return false
	}
	name := fn.Func.Path[len(fn.Func.Path)-1]
	for _, caller := range c.fns {
		if caller != fn && c.inCallerScope(caller, fn) && len(caller.ValueUses(name)) > 0 {
			return false
		}
	}
	return true
}

// valueAt returns the tokens of the value a call passes for obj: what it
// calls the function on (`this` for a bare call), or the argument for a
// parameter (`&x` is x); nil when it is not a name.
func (c *nativeCheck) valueAt(caller *treesitter.Function, call model.Call, obj int) []string {
	if c.global(c.pattern()) {
		return []string{"this"}
	}
	if obj == -1 {
		// The value the function is called on: `this` for a bare call,
		// the receiver of `o.helper()`; an associated function or a
		// longer receiver (`a.b.helper()`) names no value here.
		callee := call.Callee
		n := len(callee)
		switch {
		case n == 1:
			return []string{"this"}
		case n == 3 && (callee[1] == "." || callee[1] == "->"):
			return callee[:1]
		}
		return nil
	}
	args := splitArgs(call.Tokens[len(call.Callee):])
	if obj >= len(args) {
		return nil
	}
	a := args[obj]
	if len(a) == 2 && (a[0] == "&" || a[0] == "*") {
		a = a[1:]
	}
	if len(a) == 3 && a[0] == "&" && a[1] == "mut" {
		a = a[2:]
	}
	if len(a) != 1 {
		return nil
	}
	return a
}

// splitArgs splits the tokens of an argument list, parentheses included,
// at its top-level commas.
func splitArgs(toks []string) [][]string {
	if len(toks) < 2 || toks[0] != "(" {
		return nil
	}
	var out [][]string
	depth, start := 0, 1
	for i := 1; i < len(toks); i++ {
		switch toks[i] {
		case "(", "[", "{", "<":
			depth++
		case ")", "]", "}", ">":
			if depth == 0 {
				if i > start {
					out = append(out, toks[start:i])
				}
				return out
			}
			depth--
		case ",":
			if depth == 0 {
				out = append(out, toks[start:i])
				start = i + 1
			}
		}
	}
	return out
}

// contract reports whether fn holds one of the locks at n by its
// source's contract (an annotation, an assertion before n) or by the
// invariant's held_in, in mode: it returns what says so; weaker when
// that holds it only shared where mode is exclusive; branch when it is
// an assertion in a branch, which binds no caller (treesitter.Required).
func (c *nativeCheck) contract(fn *treesitter.Function, n *syntax.Node, locks [][]string, mode invariants.LockMode) (why string, weaker, branch bool) {
	for _, h := range c.r.HeldIn {
		if fn.Is(h) {
			// held_in: the callers hold it in the mode the accesses
			// need, which they are checked for.
			return "held_in " + h.Raw, false, false
		}
	}
	weak := ""
	for _, r := range c.contracts.Of(fn) {
		if n.Start < r.From || (r.Until > 0 && n.Start >= r.Until) || !matchesAny(r.Lock, locks) {
			continue
		}
		if u := c.releasedBefore(fn, n, locks); u != nil && u.Start > r.From {
			// The function gave up its callers' lock before n
			// (`mutex_.Unlock();` in leveldb's DoCompactionWork):
			// from there the contract does not hold, and a guard
			// taken again is what holds it.
			continue
		}
		if mode == invariants.Shared || r.Mode == invariants.Exclusive {
			return r.Why, false, r.Branch
		}
		weak = r.Why
	}
	return weak, weak != "", false
}

// releasedBefore returns the last live explicit unlock of one of the
// locks (`mu_.Unlock()`, `mu.unlock()`) that fn itself makes before n in
// its body, or nil. After it, what fn's callers hold is given up: only a
// lock taken again in fn holds it.
func (c *nativeCheck) releasedBefore(fn *treesitter.Function, n *syntax.Node, locks [][]string) *syntax.Node {
	var at *syntax.Node
	for _, call := range fn.Calls() {
		k := len(call.Callee)
		if !call.Live() || call.Node.Start >= n.Start || k < 3 || !model.UnlockMethods[call.Callee[k-1]] {
			continue
		}
		if sep := call.Callee[k-2]; sep != "." && sep != "->" {
			continue
		}
		if !matchesAny(call.Callee[:k-2], locks) || (at != nil && call.Node.Start <= at.Start) {
			continue
		}
		// Only an unlock whose block holds n surely came before it: one
		// in a branch of its own (`else { mu_.Unlock(); ..; mu_.Lock(); }`
		// before a later branch) is not on n's way.
		if b := call.Node.Innermost("compound_statement", "block"); b != nil && b.Contains(n) {
			at = call.Node
		}
	}
	return at
}

// addDeclared records that a function's callers must hold a lock because
// a contract says they do: they are looked for in every file.
func (c *nativeCheck) addDeclared(k nativeKey, why string, n *nativeNeed) {
	if _, ok := c.declared[k]; !ok {
		c.declared[k] = why
	}
	n.path = append([]string(nil), n.path...)
	n.path[len(n.path)-1] += " [" + why + "]"
	c.addNeed(k, n)
}

// calls reports whether a call in caller is one of callee, its receiver's
// type followed (treesitter.Callees): a method call on a value of
// unknown type is not counted, so a method of that name of another type
// is not judged as callee.
func (c *nativeCheck) calls(caller *treesitter.Function, call model.Call, callee *treesitter.Function) bool {
	targets, _ := c.typeCallees().From(caller, &call)
	for _, t := range targets {
		if t == callee {
			return true
		}
	}
	return false
}

// locksIn returns the lock patterns of a value in fn (lockOf), with
// those that stand for them: a call that returns the lock by its
// annotation (`mu()` with `Mutex* mu() LOCK_RETURNED(mu_)`), and, for a
// lock qualified by a class (`&TimerList::mu_`, as Clang's annotations
// name an enclosing object's mutex), the member itself in that class's
// own functions.
func (c *nativeCheck) locksIn(fn *treesitter.Function, obj []string) [][]string {
	base := c.lockOf(c.pattern(), obj)
	var out [][]string
	for _, l := range base {
		out = append(out, c.contracts.Aliases(l)...)
	}
	p := fn.Func.Path
	for _, l := range base {
		core := l
		for len(core) > 1 && (core[0] == "*" || core[0] == "&") {
			core = core[1:]
		}
		if n := len(core); n == 3 && core[1] == "::" && len(p) >= 2 && p[len(p)-2] == core[0] {
			out = append(out, core[2:], []string{"this", "->", core[2]})
		}
	}
	return out
}

// addressOf reports whether a use of a name takes its address (`&name`,
// `&Type::name`).
func addressOf(use *syntax.Node) bool {
	p := use.Parent
	if p != nil && p.Kind == "qualified_identifier" {
		p = p.Parent
	}
	return p != nil && p.Kind == "pointer_expression"
}

// otherMember reports whether a call `x.f()` in a member of Type calls f
// on a member x of Type whose declared type does not name callee's class (`impl_.Generate(state_)` in a
// class whose own method is Generate too): the call is not of callee.
func (c *nativeCheck) otherMember(call model.Call, callee *treesitter.Function) bool {
	p := callee.Func.Path
	if len(call.Callee) != 3 || (call.Callee[1] != "." && call.Callee[1] != "->") || len(p) < 2 {
		return false
	}
	t := treesitter.FieldType(c.fns, c.typ, call.Callee[0])
	if t == nil {
		return false
	}
	class := p[len(p)-2]
	for _, tok := range t {
		if tok == class {
			return false
		}
	}
	return true
}
