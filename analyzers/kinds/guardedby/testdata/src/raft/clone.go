package raft

import "sync"

// The shapes of text/template's Template.Clone: a value made by a
// constructor that keeps its argument in an embedded pointer field, the
// field filled by a method that allocates it only when it is nil, and the
// value and its copies stored into a map of what the field points to.

// set is what related templates share.
type set struct {
	muNames sync.RWMutex
	names   map[string]*Tmpl
	muFuncs sync.RWMutex
	funcs   map[string]int
}

// Tmpl points at the set it belongs to.
type Tmpl struct {
	name string
	*set
}

// init gives t a set of its own when it has none.
func (t *Tmpl) init() {
	if t.set == nil {
		s := new(set)
		s.names = make(map[string]*Tmpl)
		s.funcs = map[string]int{}
		t.set = s
	}
}

// copy returns a copy of t that belongs to s.
func (t *Tmpl) copy(s *set) *Tmpl {
	return &Tmpl{name: t.name, set: s}
}

// Clone fills the set that init made for the copy, and stores the copy
// and copies of the other templates in it, before anything else sees
// them: silent.
func (t *Tmpl) Clone() *Tmpl {
	nt := t.copy(nil)
	nt.init()
	if t.set == nil {
		return nt
	}
	t.muNames.RLock()
	defer t.muNames.RUnlock()
	for k, v := range t.names {
		if k == t.name {
			nt.names[t.name] = nt
			continue
		}
		c := v.copy(nt.set)
		nt.names[k] = c
	}
	t.muFuncs.RLock()
	defer t.muFuncs.RUnlock()
	for k, f := range t.funcs {
		nt.funcs[k] = f
	}
	nt.set.funcs["clone"] = 1
	return nt
}

var (
	defaultSet = &set{names: map[string]*Tmpl{}, funcs: map[string]int{}}
	lastSet    *set
	lastNames  map[string]*Tmpl
	lastTmpl   *Tmpl
)

// CloneShared gives the copy t's own set: every access needs its locks.
func (t *Tmpl) CloneShared() *Tmpl {
	nt := t.copy(t.set)
	nt.init()
	nt.names[t.name] = nt // want `writes \(\*raft.set\).names without nt.muNames held`
	nt.funcs["x"] = 1     // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// adopt gives t the default set when it has none.
func (t *Tmpl) adopt() {
	if t.set == nil {
		t.set = defaultSet
	}
}

// CloneAdopted fills the set adopt gave the copy: the default one.
func (t *Tmpl) CloneAdopted() *Tmpl {
	nt := t.copy(nil)
	nt.adopt()
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// initShared makes a set of its own that uses the last names map.
func (t *Tmpl) initShared() {
	if t.set == nil {
		s := new(set)
		s.names = lastNames
		s.funcs = map[string]int{}
		t.set = s
	}
}

// CloneSharedNames stores the copy into a map other code sees: after it,
// the copy is not fresh.
func (t *Tmpl) CloneSharedNames() *Tmpl {
	nt := t.copy(nil)
	nt.initShared()
	nt.funcs["x"] = 1
	nt.names[t.name] = nt
	nt.funcs["y"] = 2 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// initKept keeps the set it makes.
func (t *Tmpl) initKept() {
	if t.set == nil {
		s := new(set)
		lastSet = s
		t.set = s
	}
}

// CloneKept fills the set initKept also kept.
func (t *Tmpl) CloneKept() *Tmpl {
	nt := t.copy(nil)
	nt.initKept()
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// ClonePublished publishes the names map before storing the copy in it.
func (t *Tmpl) ClonePublished() *Tmpl {
	nt := t.copy(nil)
	nt.init()
	nt.funcs["x"] = 1
	lastNames = nt.names
	nt.names[t.name] = nt // want `writes \(\*raft.set\).names without nt.muNames held`
	nt.funcs["y"] = 2     // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// CloneSetPublished hands the set over, then fills it.
func (t *Tmpl) CloneSetPublished() *Tmpl {
	nt := t.copy(nil)
	nt.init()
	lastSet = nt.set
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// CloneReadBack reads a member back from the map and hands it over.
func (t *Tmpl) CloneReadBack() *Tmpl {
	nt := t.copy(nil)
	nt.init()
	nt.names[t.name] = nt
	lastTmpl = nt.names[t.name]
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// copyKept keeps the set it is given.
func (t *Tmpl) copyKept(s *set) *Tmpl {
	lastSet = s
	return &Tmpl{name: t.name, set: s}
}

// CloneCopyKept hands the copy's set to a copy that also keeps it.
func (t *Tmpl) CloneCopyKept(v *Tmpl) *Tmpl {
	nt := t.copy(nil)
	nt.init()
	c := v.copyKept(nt.set)
	nt.names["c"] = c // want `writes \(\*raft.set\).names without nt.muNames held`
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// CloneReplaced gives the copy another set after init.
func (t *Tmpl) CloneReplaced() *Tmpl {
	nt := t.copy(nil)
	nt.init()
	nt.set = t.set
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// CloneLooped stores the copy into its map in a loop that hands the map's
// value over: the next round sees it escaped.
func (t *Tmpl) CloneLooped(ch chan *Tmpl) {
	nt := t.copy(nil)
	nt.init()
	for i := 0; i < 2; i++ {
		nt.names["a"] = nt // want `writes \(\*raft.set\).names without nt.muNames held`
		ch <- nt
	}
}

// NewTmpl makes a template with a set of its own: filling it is silent.
func NewTmpl(name string) *Tmpl {
	t := &Tmpl{name: name}
	t.init()
	t.funcs["name"] = 1
	t.names[name] = t
	return t
}

// EarlyReturn hands the value over on one path only: the code after that
// return still sees it fresh.
func EarlyReturn(empty bool) *Raft {
	r := new(Raft)
	if empty {
		return r
	}
	r.peers = map[string]*Peer{}
	return r
}

// share hands the set over: called on a copy, it ends the copy's
// freshness.
func (t *Tmpl) share() {
	if t.set != nil {
		lastSet = t.set
	}
}

// CloneShared2 calls a method that only selects fields of the copy, but
// hands its set over.
func (t *Tmpl) CloneShared2() *Tmpl {
	nt := t.copy(nil)
	nt.init()
	nt.share()
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// CloneAddressed writes the copy's set through its address.
func (t *Tmpl) CloneAddressed() *Tmpl {
	nt := t.copy(nil)
	nt.init()
	p := &nt.set
	*p = lastSet
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// CloneLiteral puts a fresh set into the literal of the copy and then
// hands the set over: the copy's group does not see that.
func CloneLiteral() *Tmpl {
	s := new(set)
	nt := &Tmpl{set: s}
	lastSet = s
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// Box's count is written through an embedded pointer of a fresh value,
// which was not allocated with it: the write needs the lock, and so do the
// reads.
type Box struct {
	mu sync.Mutex
	n  int
}

type BoxRef struct{ *Box }

func Refer(b *Box) *BoxRef {
	r := &BoxRef{Box: b}
	r.n = 1 // want `writes \(\*raft.Box\).n without r.mu held`
	return r
}

func (b *Box) N() int { // want N:"guarded_by box-n param -1 \\(shared\\): \\(\\*raft.Box\\).N reads"
	return b.n // want `reads \(\*raft.Box\).n without b.mu held`
}

// CloneNamesAddressed gives the copy's names map the last one through the
// map field's address, then stores the copy into it.
func (t *Tmpl) CloneNamesAddressed() *Tmpl {
	nt := t.copy(nil)
	nt.init()
	p := &nt.set.names
	*p = lastNames
	nt.names[t.name] = nt
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// CloneDirect stores the copies straight into the map: silent.
func (t *Tmpl) CloneDirect() *Tmpl {
	nt := t.copy(nil)
	nt.init()
	t.muNames.RLock()
	defer t.muNames.RUnlock()
	for k, v := range t.names {
		nt.names[k] = v.copy(nt.set)
	}
	nt.funcs["x"] = 1
	return nt
}

// CloneInGoroutine makes the copies in a goroutine, which runs beside the
// rest of the function.
func (t *Tmpl) CloneInGoroutine(done chan bool) *Tmpl {
	nt := t.copy(nil)
	nt.init()
	go func() {
		c := t.copy(nt.set)
		lastTmpl = c
		done <- true
	}()
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// keepRaft hands its argument over.
func keepRaft(r *Raft) int {
	lastMade = r
	return 0
}

// ReturnHands hands the value over inside the return statement, then
// reads it in the same statement: that read comes after.
func ReturnHands() int {
	r := new(Raft)
	return keepRaft(r) + len(r.peers) // want `reads \(\*raft.Raft\).peers without r.mu held`
}

// pickSet returns the last set.
func pickSet() (*set, bool) { return lastSet, lastSet != nil }

// CloneMulti gives the copy a set by a multi-value assignment, which is
// not followed.
func (t *Tmpl) CloneMulti() *Tmpl {
	nt := t.copy(nil)
	nt.set, _ = pickSet()
	nt.funcs["x"] = 1 // want `writes \(\*raft.set\).funcs without nt.muFuncs held`
	return nt
}

// initWatched gives t a set of its own and starts a goroutine that reads
// the templates stored in it later.
func (t *Tmpl) initWatched() {
	if t.set == nil {
		s := new(set)
		s.names = map[string]*Tmpl{}
		s.funcs = map[string]int{}
		t.set = s
		go func() {
			s.muNames.RLock()
			lastTmpl = s.names["main"]
			s.muNames.RUnlock()
		}()
	}
}

// CloneWatched stores the copy into a map a goroutine reads.
func (t *Tmpl) CloneWatched() *Tmpl {
	nt := t.copy(nil)
	nt.initWatched()
	nt.names["main"] = nt // want `writes \(\*raft.set\).names without nt.muNames held`
	return nt
}

// newWatched makes a template whose set a goroutine reads.
func newWatched() *Tmpl {
	t := &Tmpl{set: &set{names: map[string]*Tmpl{}}}
	go func() {
		t.muNames.RLock()
		lastTmpl = t.names["main"]
		t.muNames.RUnlock()
	}()
	return t
}

// FillWatched stores the template into the map the goroutine reads.
func FillWatched() {
	t := newWatched()
	t.names["main"] = t // want `writes \(\*raft.set\).names without t.muNames held`
}
