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
