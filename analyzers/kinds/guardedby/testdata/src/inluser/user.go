// Package inluser writes a field another package guards inline.
package inluser

import "inl"

func Write(c *inl.Conn) { // want Write:"guarded_by guarded_by:\\(\\*inl.Conn\\).Buf param 0"
	c.Buf = nil // want `exported function inluser.Write writes \(\*inl.Conn\).Buf without c.mu held`
}
