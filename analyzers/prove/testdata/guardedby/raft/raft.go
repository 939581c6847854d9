package raft

import "sync"

type Raft struct {
	mu    sync.RWMutex
	peers map[string]int
}

func (r *Raft) Peers() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.peers)
}

func (r *Raft) SetPeer(id string, p int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.peers[id] = p
	r.peers["x"]++
}

type Client struct{ cache map[string]string }

var cacheMu sync.Mutex

func (c *Client) Put(k, v string) {
	cacheMu.Lock()
	c.cache[k] = v
	cacheMu.Unlock()
}

// Conn takes its lock only in an unexported method: a revert there moves
// the need to the callers, and is reported at the exported one.
type Conn struct {
	mu  sync.Mutex
	seq int
}

func (c *Conn) next() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	return c.seq
}

func (c *Conn) Send() int { return c.next() }

// Pool's first and last statements under the lock touch another field of
// the lock: a revert that moves the lock across them reverts nothing for
// items, so locked-late and unlocked-early are placed by items' accesses.
type Pool struct {
	mu    sync.Mutex
	puts  int
	items []int
	last  int
}

func (p *Pool) Put(x int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.puts++
	p.items = append(p.items, x)
	p.last = x
}

// Queue releases its lock explicitly and then works: an unlock put above
// that work would be a second release, not a revert of items.
type Queue struct {
	mu    sync.Mutex
	items []int
	ready chan struct{}
}

func (q *Queue) Pop() (int, bool) {
	q.mu.Lock()
	if len(q.items) == 0 {
		q.mu.Unlock()
		return 0, false
	}
	x := q.items[0]
	q.items = q.items[1:]
	q.mu.Unlock()
	q.wake()
	return x, true
}

func (q *Queue) wake() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// Outbox releases its lock, works, and takes the lock again to touch
// pending once more: the locked region of the outermost block ends at the
// release, so unlocked-early goes above the last access before it. An
// unlock put above the later access would be a second release, and the
// access inside the branch would still run under the lock it takes again.
type Outbox struct {
	mu      sync.Mutex
	seq     int
	pending map[int]string
	out     chan string
}

func (o *Outbox) Send(msg string) bool {
	o.mu.Lock()
	seq := o.seq
	o.seq++
	o.pending[seq] = msg
	o.mu.Unlock()
	if !o.write(msg) {
		o.mu.Lock()
		delete(o.pending, seq)
		o.mu.Unlock()
		return false
	}
	return true
}

func (o *Outbox) write(msg string) bool {
	select {
	case o.out <- msg:
		return true
	default:
		return false
	}
}

// Reader takes its lock twice and touches last only in the second
// region, as httputil's ClientConn.Read reads lastbody: a revert of the
// first region would leave every access of last locked by the second, so
// the reverts are made in the region that holds the field.
type Reader struct {
	mu   sync.Mutex
	ids  map[int]bool
	last string
}

func (r *Reader) Read(id int) string {
	r.mu.Lock()
	ok := r.ids[id]
	delete(r.ids, id)
	r.mu.Unlock()
	if !ok {
		return ""
	}
	r.mu.Lock()
	last := r.last
	r.last = ""
	r.mu.Unlock()
	return last
}
