// Package raftuser reads an exported guarded field from outside.
package raftuser

import "raft"

// Term reads the field without the lock.
func Term(r *raft.Raft) int { // want Term:"guarded_by Term-guarded param 0"
	return r.Term // want `exported function raftuser.Term reads \(\*raft.Raft\).Term without r.mu held`
}

// Racy calls an exported method of raft that needs the lock.
func racy(r *raft.Raft) { // want racy:"guarded_by peers-guarded param 0"
	r.Racy()
}

// Go starts it as a goroutine.
func Go(r *raft.Raft) { // want Go:"guarded_by peers-guarded param 0"
	racy(r) // want `exported function raftuser.Go calls raftuser.racy, which reads \(\*raft.Raft\).peers, without r.mu held, and nothing shows its callers hold it: raftuser.Go → raftuser.racy → \(\*raft.Raft\).Racy`
}
