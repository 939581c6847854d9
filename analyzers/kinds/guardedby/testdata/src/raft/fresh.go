package raft

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
