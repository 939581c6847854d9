// Package gen has generic types.
package gen

import (
	"sync"
	"sync/atomic"
)

// Map is a map behind a mutex.
type Map[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// Get returns the value of k.
func (m *Map[K, V]) Get(k K) V {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.m[k]
}

// Put sets the value of k.
func (m *Map[K, V]) Put(k K, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[K]V{}
	}
	m.m[k] = v
}

// Reset forgets every key.
func (m *Map[K, V]) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m = nil
}

// Len returns the number of keys; it forgets the lock.
func (m *Map[K, V]) Len() int {
	return len(m.m)
}

// Cache keeps the last value stored.
type Cache struct {
	last atomic.Pointer[string]
}

// Remember stores s as the last value.
func (c *Cache) Remember(s string) {
	c.last.Store(&s)
}

// Last returns the last value stored, or "".
func (c *Cache) Last() string {
	if p := c.last.Load(); p != nil {
		return *p
	}
	return ""
}
