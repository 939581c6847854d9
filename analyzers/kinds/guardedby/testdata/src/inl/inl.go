// Package inl guards fields where they are declared.
package inl

import "sync"

type Conn struct {
	mu sync.Mutex
	// guardlint:guarded_by mu
	onErr func(error)
	Buf   []byte // guardlint:guarded_by mu // want Buf:"guarded_by mu \\(shared\\)"
	n     int    //guardlint:guarded_by nosuch // want `guardlint:guarded_by on Conn.n: lock nosuch: neither a field of Conn nor a package variable`
	m     int    // guardlint:guarded_by // want `guardlint:guarded_by on Conn.m: want a lock`
}

func (c *Conn) SetHandler(f func(error)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onErr = f
}

func (c *Conn) Fail(err error) { // want Fail:"guarded_by guarded_by:\\(\\*inl.Conn\\).onErr param -1"
	c.onErr(err) // want `invariant guarded_by:\(\*inl.Conn\).onErr: exported method \(\*inl.Conn\).Fail reads \(\*inl.Conn\).onErr without c.mu held, and nothing shows its callers hold it: \(\*inl.Conn\).Fail \(why: the field's declaration says so \(.*inl.go:8:2\)\)`
}
