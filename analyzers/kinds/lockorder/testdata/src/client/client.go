// Package client takes store.Mu, the innermost lock, and calls store.
package client

import "store"

// Read calls into store without a lock.
func Read(db *store.DB) { db.Meta() }

// ReadLocked calls a function of store that takes meta while holding Mu.
func ReadLocked(db *store.DB) {
	store.Mu.Lock()
	defer store.Mu.Unlock()
	db.Meta() // want `client.ReadLocked calls \(\*store.DB\).Meta while holding store.Mu \(taken at line 11\), and \(\*store.DB\).Meta takes \(store.DB\).meta at store.go:82`
}
