package raft

import "sync"

// Frame's body is touched only under locks taken in nested blocks, as
// yamux's sendReady.Body is in a select case of the send loop: no
// function takes mu in its outermost block, so the reverts are made at
// the lock statement of the case.
type Frame struct {
	mu   sync.Mutex
	Body []byte
}

// Drain copies the bodies of the frames it receives until done closes.
func Drain(in <-chan *Frame, done <-chan struct{}, out []byte) []byte {
	for {
		select {
		case f := <-in:
			f.mu.Lock()
			if f.Body != nil {
				out = append(out, f.Body...)
				f.Body = nil
			}
			f.mu.Unlock()
		case <-done:
			return out
		}
	}
}

// Pending reports whether a frame still holds its body, under a lock
// taken in an else.
func Pending(f *Frame, skip bool) bool {
	if skip {
		return false
	} else {
		f.mu.Lock()
		has := f.Body != nil
		f.mu.Unlock()
		return has
	}
}

// Node's kids are touched only under the lock of the node that holds
// them, taken inside a block that holds another node's lock, as unique's
// canonMap.cleanup takes parent.mu inside the block that took i.mu: the
// reverts are made at the inner lock, which holds the access (made at the
// outer one, they would leave it locked and survive).
type Node struct {
	mu     sync.Mutex
	parent *Node
	kids   [4]int
}

// Prune clears the first kid of each ancestor.
func Prune(n *Node) {
	for n != nil {
		n.mu.Lock()
		up := n.parent
		if up != nil {
			up.mu.Lock()
			up.kids[0] = 0
			up.mu.Unlock()
		}
		n.mu.Unlock()
		n = up
	}
}
