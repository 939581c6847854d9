// Package afterunlock holds one function per point of the after-unlock
// rule that picks or refuses it; the comment before each says which.
package afterunlock

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
)

var errClosed = errors.New("closed")

// errLast is written after initialisation, by setLast.
var errLast = errors.New("none yet")

// setLast is refused by point 2: it takes no lock.
func setLast(err error) { errLast = err }

type cache struct {
	mu     sync.Mutex
	items  map[string]int
	values map[string]any
	hits   int
}

// add is picked: a call of another package's function with a string
// parameter after the release.
func (c *cache) add(k string, v int) error {
	c.mu.Lock()
	if _, ok := c.items[k]; ok {
		c.mu.Unlock()
		return fmt.Errorf("item %s exists", k)
	}
	c.items[k] = v
	c.mu.Unlock()
	return nil
}

// get is picked: a guard clause precedes the lock (point 8b).
func (c *cache) get(k string) (int, error) {
	if k == "" {
		return 0, errors.New("empty key")
	}
	c.mu.Lock()
	v, ok := c.items[k]
	c.mu.Unlock()
	if !ok {
		return 0, errors.New("no item " + k)
	}
	return v, nil
}

// sign is picked: a switch on a local after the release, no call (point 9).
func (c *cache) sign(k string) int {
	c.mu.Lock()
	v := c.items[k]
	c.mu.Unlock()
	switch {
	case v < 0:
		v = -1
	case v > 0:
		v = 1
	}
	return v
}

// size is refused by point 5: it only returns after the release.
func (c *cache) size() int {
	c.mu.Lock()
	n := len(c.items)
	c.mu.Unlock()
	return n
}

// check is picked: a read-only package variable is returned after the
// release (point 10).
func (c *cache) check() error {
	c.mu.Lock()
	n := len(c.items)
	c.mu.Unlock()
	if n == 0 {
		return errClosed
	}
	return nil
}

// del is refused by point 3: the unlock is deferred.
func (c *cache) del(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.items, k)
}

// set is refused by point 2: work precedes the lock.
func (c *cache) set(k string) error {
	c.items[k] = 1
	c.mu.Lock()
	c.mu.Unlock()
	return fmt.Errorf("set %s", k)
}

// last is refused by point 4: the package variable it returns after the
// release is written by setLast.
func (c *cache) last() error {
	c.mu.Lock()
	n := len(c.items)
	c.mu.Unlock()
	if n == 0 {
		return errLast
	}
	return nil
}

// stamp is picked: a := declares a local from another package's function
// before the lock and after the release (point 12a).
func (c *cache) stamp(k string) string {
	key := strconv.Quote(k)
	c.mu.Lock()
	_, ok := c.items[k]
	c.mu.Unlock()
	found := ok
	if !found {
		return "none " + key
	}
	return key
}

// errNotFound is an error of a type of this package.
type errNotFound struct{ key string }

func (e *errNotFound) Error() string { return "not found: " + e.key }

// find is picked: it returns the address of a fresh composite literal of
// quiet values after the release (point 12b) and computes on a local.
func (c *cache) find(k string) error {
	c.mu.Lock()
	_, ok := c.items[k]
	c.mu.Unlock()
	if !ok {
		return &errNotFound{key: k}
	}
	return nil
}

// rename is picked: it formats the key with the lock released and takes
// the lock again to store it (point 14).
func (c *cache) rename(k string) {
	c.mu.Lock()
	v := c.items[k]
	c.mu.Unlock()
	name := strconv.Quote(k)
	c.mu.Lock()
	c.items[name] = v
	c.mu.Unlock()
}

// drain is picked: each turn of the loop releases the lock for work on
// locals and takes it again (point 14).
func (c *cache) drain(keys []string) int {
	n := 0
	c.mu.Lock()
	for _, k := range keys {
		delete(c.items, k)
		c.mu.Unlock()
		n++
		c.mu.Lock()
	}
	c.mu.Unlock()
	return n
}

// keep is refused by point 3: it takes the lock again and returns with
// it held.
func (c *cache) keep(k string) {
	c.mu.Lock()
	v := c.items[k]
	c.mu.Unlock()
	name := strconv.Quote(k)
	c.mu.Lock()
	c.items[name] = v
}

// must is picked: it panics with another package's formatting of its
// parameter after the release (point 16a).
func (c *cache) must(k string) int {
	c.mu.Lock()
	v, ok := c.items[k]
	c.mu.Unlock()
	if !ok {
		panic(fmt.Sprintf("no item %s", k))
	}
	return v
}

// zero is picked: it returns the zero value *new(int) after the release
// (point 16b), and a local.
func (c *cache) zero(k string) (int, bool) {
	c.mu.Lock()
	v, ok := c.items[k]
	c.mu.Unlock()
	if !ok {
		return *new(int), ok
	}
	return v, ok
}

// entry is what expiring holds per key: a struct copied out of its map.
type entry struct {
	value   int
	expires int64
}

type expiring struct {
	mu    sync.RWMutex
	items map[string]entry
	recv  map[string]*entry
}

// withExpiry is picked: it returns fields of a local struct, one of them
// through another package's conversion (point 17a).
func (e *expiring) withExpiry(k string) (int, string, bool) {
	e.mu.RLock()
	it, ok := e.items[k]
	e.mu.RUnlock()
	if !ok {
		return 0, "", false
	}
	return it.value, strconv.FormatInt(it.expires, 10), true
}

// through is refused by point 4: the field is read through a pointer
// taken under the lock.
func (e *expiring) through(k string) (int, bool) {
	e.mu.RLock()
	it := e.recv[k]
	e.mu.RUnlock()
	if it == nil {
		return 0, false
	}
	return it.value, strconv.FormatInt(it.expires, 10) != ""
}

// window is picked: it returns a slice of a local slice (point 17b) after
// another package's call.
func (e *expiring) window(buf []byte, n int) ([]byte, string) {
	e.mu.Lock()
	_, ok := e.items[string(buf)]
	e.mu.Unlock()
	if !ok {
		return buf[:0], strconv.Itoa(n)
	}
	return buf[:n], ""
}

// seconds is a named basic type of another kind than the package's own
// methods.
type seconds int64

// wait is picked: a conversion of a local to a named basic type without
// methods is an argument of a pure call (point 17c).
func (e *expiring) wait(k string, n int) string {
	e.mu.Lock()
	delete(e.items, k)
	e.mu.Unlock()
	return fmt.Sprint(seconds(n))
}

// label has a method of this package, which fmt may call.
type label int

func (l label) String() string { return "label" }

// named is refused by point 4: the conversion is to a type of the
// package with methods.
func (e *expiring) named(k string, n int) string {
	e.mu.Lock()
	delete(e.items, k)
	e.mu.Unlock()
	return fmt.Sprint(label(n))
}

// undo is picked: it returns a function literal, built and not run
// (point 17d), after another package's call.
func (e *expiring) undo(k string) (func(), string) {
	e.mu.Lock()
	delete(e.items, k)
	e.mu.Unlock()
	return func() { e.items[k] = entry{} }, strconv.Quote(k)
}

// ErrClosed is an exported sentinel of a concrete error type, set once
// where it is declared.
var ErrClosed = &errNotFound{key: "closed"}

// ErrStale is one the package writes after initialisation, by retire.
var ErrStale = &errNotFound{key: "stale"}

// retire is refused by point 2: it takes no lock.
func retire() { ErrStale = &errNotFound{key: "retired"} }

// closed is picked: it returns an error sentinel of a concrete error type
// after the release and computes on a local (point 23).
func (c *cache) closed(k string) error {
	c.mu.Lock()
	_, ok := c.items[k]
	c.mu.Unlock()
	if !ok {
		return ErrClosed
	}
	return nil
}

// stale is refused by point 4: the sentinel it returns is written by
// retire.
func (c *cache) stale(k string) error {
	c.mu.Lock()
	_, ok := c.items[k]
	c.mu.Unlock()
	if !ok {
		return ErrStale
	}
	return nil
}

// asserted is picked: after the release it asserts the type of a local
// interface value and returns (point 26a).
func (c *cache) asserted(k string) (*errNotFound, bool) {
	c.mu.Lock()
	v, ok := c.values[k]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	e, ok := v.(*errNotFound)
	return e, ok
}

// assertedShared is refused by point 4: the value it asserts the type of
// is read from the cache after the release.
func (c *cache) assertedShared(k string) bool {
	c.mu.Lock()
	c.hits++
	c.mu.Unlock()
	_, ok := c.values[k].(*errNotFound)
	return ok
}

// parked is picked: after the release it blocks for ever on a local
// condition (point 26b).
func (c *cache) parked() {
	c.mu.Lock()
	closed := c.hits < 0
	c.mu.Unlock()
	if closed {
		select {}
	}
}
