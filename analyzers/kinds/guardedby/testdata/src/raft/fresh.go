package raft

import "sync"

// Values a constructor of the package allocates and returns are fresh in
// its callers too: filling them needs no lock.

func newBlank() *Raft { return &Raft{} }

func newFilled() *Raft {
	r := new(Raft)
	r.peers = map[string]*Peer{}
	return r
}

// newFromBlank returns what another constructor returned: fresh as well.
func newFromBlank() *Raft { return newBlank() }

var lastMade *Raft

// newKept keeps the value it returns: not fresh.
func newKept() *Raft {
	r := &Raft{}
	lastMade = r
	return r
}

// Build fills values its constructors allocated: silent.
func Build() *Raft {
	r := newBlank()
	r.peers = map[string]*Peer{"a": nil}
	q := newFilled()
	q.peers["b"] = nil
	s := newFromBlank()
	s.state = 2
	r.other = q
	return r
}

// BuildKept fills a value its constructor also kept.
func BuildKept() {
	r := newKept()
	r.peers = nil // want `writes \(\*raft.Raft\).peers without r.mu held`
}

// Wrapper embeds a pointer: its Inner was not allocated with it.
type Wrapper struct{ *Inner }

func Wrap(in *Inner) *Wrapper {
	w := &Wrapper{Inner: in}
	w.val = 1 // want `writes \(\*raft.Inner\).val without w.mu held`
	return w
}

// Holder's reset needs the lock of h.r, which a fresh Holder does not
// make fresh.
type Holder struct{ r *Raft }

func (h *Holder) reset() { // want reset:"guarded_by peers-guarded param -1.r"
	h.r.peers = nil
}

func NewHolder(r *Raft) *Holder {
	h := &Holder{r: r}
	h.reset() // want `calls \(\*raft.Holder\).reset, which writes \(\*raft.Raft\).peers, without h.r.mu held`
	return h
}

// SendEach hands the value over in a loop: the next round writes it after
// the send.
func SendEach(ch chan *Raft) {
	r := new(Raft)
	for i := 0; i < 2; i++ {
		r.peers = nil // want `writes \(\*raft.Raft\).peers without r.mu held`
		ch <- r
	}
}

// SendNew allocates one value per round: silent.
func SendNew(ch chan *Raft) {
	for i := 0; i < 2; i++ {
		r := new(Raft)
		r.peers = nil
		ch <- r
	}
}

// FillThenSend fills the value in a loop and hands it over after: silent.
func FillThenSend(ch chan *Raft, ids []string) {
	r := &Raft{peers: map[string]*Peer{}}
	for _, id := range ids {
		r.peers[id] = nil
	}
	ch <- r
}

// newChild allocates a Raft that points at parent, and keeps parent
// nowhere else.
func newChild(parent *Raft) *Raft { return &Raft{other: parent} }

// BuildChain links fresh values to one another in a loop and returns the
// first: no other code sees any of them before the return. Silent.
func BuildChain(n int) *Raft {
	cur := newChild(nil)
	top := cur
	for i := 0; i < n; i++ {
		cur.peers = map[string]*Peer{}
		next := newChild(cur)
		cur.state = 1
		cur = next
	}
	return top
}

// SendChain hands a value of the group over in the loop: the next round
// writes the one linked to it after the send.
func SendChain(n int, ch chan *Raft) {
	cur := newChild(nil)
	for i := 0; i < n; i++ {
		cur.peers = nil // want `writes \(\*raft.Raft\).peers without cur.mu held`
		next := newChild(cur)
		ch <- next
		cur = next
	}
}

// ShareChain gives a variable of the chain a value other code sees.
func ShareChain(shared *Raft) {
	cur := newChild(nil)
	cur.peers = nil // want `writes \(\*raft.Raft\).peers without cur.mu held`
	cur = shared
	cur.peers = nil // want `writes \(\*raft.Raft\).peers without cur.mu held`
}

var lastParent *Raft

// newChildKept keeps its parent where other code sees it.
func newChildKept(parent *Raft) *Raft {
	lastParent = parent
	return &Raft{other: parent}
}

// BuildKeptParent: the child is fresh, the parent handed over.
func BuildKeptParent() {
	a := new(Raft)
	b := newChildKept(a)
	b.peers = nil
	a.peers = nil // want `writes \(\*raft.Raft\).peers without a.mu held`
}

// CopyInGoroutine copies a fresh value into a goroutine, which runs beside
// the rest of the function.
func CopyInGoroutine(done chan bool) {
	a := new(Raft)
	go func() {
		b := a
		b.peers = nil // want `writes \(\*raft.Raft\).peers without b.mu held`
		done <- true
	}()
	a.peers = nil // want `writes \(\*raft.Raft\).peers without a.mu held`
}

// Reassign writes through the caller's value before the parameter is
// given a fresh one: a parameter starts with a value the function did not
// make, so it is never fresh, and its callers must hold its lock.
func Reassign(r *Raft) *Raft { // want Reassign:"guarded_by peers-guarded param 0 \\(exclusive\\): raft.Reassign writes"
	r.peers = nil // want `exported function raft.Reassign writes \(\*raft.Raft\).peers without r.mu held`
	r = new(Raft)
	r.peers = nil
	return r
}

// AddressLater fills a struct variable and then hands its address over:
// silent before, reported after.
func AddressLater(ch chan *Raft) {
	r := Raft{state: 1}
	r.peers = nil
	if r.state > 0 {
		r = Raft{}
	}
	ch <- &r
	r.peers = nil // want `writes \(\*raft.Raft\).peers without r.mu held`
}

// clear only selects the fields of its receiver: called on a fresh value,
// it hands the value to nobody.
func (r *Raft) clear() { // want clear:"guarded_by peers-guarded param -1 \\(exclusive\\): \\(\\*raft.Raft\\).clear writes"
	if r.peers == nil {
		r.peers = map[string]*Peer{}
	}
}

var lentGroup *sync.WaitGroup

// lend hands out the address of a field of its receiver.
func (r *Raft) lend() { // want lend:"guarded_by wg-guarded param -1 \\(exclusive\\): \\(\\*raft.Raft\\).lend writes"
	lentGroup = &r.wg
}

// keep hands its receiver over.
func (r *Raft) keep() {
	lastMade = r
}

// BuildCleared fills a fresh value after a method that only initialises
// it: silent until keep hands it over.
func BuildCleared() *Raft {
	r := new(Raft)
	r.clear()
	r.peers["a"] = nil
	r.keep()
	r.peers = nil // want `writes \(\*raft.Raft\).peers without r.mu held`
	return r
}

// BuildLent: lend lets other code reach into the value.
func BuildLent() {
	r := new(Raft)
	r.lend()
	r.peers = nil // want `writes \(\*raft.Raft\).peers without r.mu held`
}
