package raft

import "sync"

// Registry's deps are touched only in helpers that their callers hold
// mu for, as database/sql's DB.dep is: no function takes the lock and
// then touches the field itself, so the reverts are made around the
// helpers' calls, in Register and Unregister.
type Registry struct {
	mu   sync.Mutex
	deps map[string]int
}

// Count reads under a first lock, then calls a helper under a second one
// on a branch: the first lock does not hold that call, so no revert is
// made at it (one would leave the call held by the second, and survive).
func (r *Registry) Count(k string, add bool) int {
	r.mu.Lock()
	n := len(k)
	r.mu.Unlock()
	if add {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.addDepLocked(k)
	}
	return n
}

// addDepLocked needs r.mu held.
func (r *Registry) addDepLocked(k string) {
	r.deps[k]++
}

// dropLocked needs it too, through addDepLocked's neighbour.
func (r *Registry) dropLocked(k string) {
	r.removeDepLocked(k)
}

func (r *Registry) removeDepLocked(k string) {
	delete(r.deps, k)
}

// Register holds the lock around the helper's call.
func (r *Registry) Register(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addDepLocked(k)
}

// Unregister holds it around a helper that calls another.
func (r *Registry) Unregister(k string) {
	r.mu.Lock()
	r.dropLocked(k)
	r.mu.Unlock()
}
