// Package nats has the shape of github.com/nats-io/nats.go: the last
// element of its import path ends in ".go", a Go keyword.
package nats

import "sync"

// Conn is a client connection.
type Conn struct {
	mu   sync.Mutex
	info serverInfo
}

type serverInfo struct {
	AuthRequired bool
}

// AuthRequired reports whether the server asks for authentication.
func (nc *Conn) AuthRequired() bool {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	return nc.info.AuthRequired
}
