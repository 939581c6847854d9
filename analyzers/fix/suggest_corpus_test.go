package fix

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// End to end, the shapes of the fix corpus (bench/fixes) that suggest
// learnt after its first measurement; each test names the commit it is
// cut from.

// dgraph-io/ristretto 62cb731: Clear stops replacing a channel field
// (it drains it instead), and the only function that sets the field now
// is the constructor, in a composite literal. owns counts a composite
// literal's field as a write, so the constructor is the writer suggest
// names; without it the field has no writer and nothing is proposed.
func TestSuggestOwnsWithConstructorWriter(t *testing.T) {
	after := `package cache

type Cache struct {
	buf  chan int
	stop chan struct{}
}

func New() *Cache {
	return &Cache{buf: make(chan int, 8), stop: make(chan struct{})}
}

func (c *Cache) Clear() {
	for {
		select {
		case <-c.buf:
		default:
			return
		}
	}
}
`
	before := strings.Replace(after, "\tfor {\n\t\tselect {\n\t\tcase <-c.buf:\n\t\tdefault:\n\t\t\treturn\n\t\t}\n\t}\n", "\tc.buf = make(chan int, 8)\n", 1)
	require.NotEqual(t, before, after)
	dir := scratchRepo(t,
		map[string]string{"go.mod": goMod, "cache/cache.go": before},
		map[string]string{"cache/cache.go": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	require.Equal(t, []string{"owns (Cache).buf "}, proposalsOf(s), "left out: %v", s.Rejected)
	assert.Equal(t, "writers", s.Proven[0].Keys[0].Name)
	assert.Equal(t, []string{"New"}, s.Proven[0].Keys[0].List, "the constructor sets the field in a composite literal")

	set, _ := printedSet(t, s)
	rep, err := Prove(set, "HEAD", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
}

// dgraph-io/ristretto 1eea1b1: the fix stops reading an evicted value
// through the store's interface before deleting it (Del returns it).
// The removed call is of an interface method of the module, (store).Get,
// which forbid matches as the interface's method, whatever implements
// it; a method of an interface is still never a function suggest
// proposes a body rule for.
func TestSuggestForbidInterfaceMethod(t *testing.T) {
	after := `package cache

type store interface {
	Get(k uint64) int
	Del(k uint64) int
}

type Cache struct {
	store   store
	onEvict func(int)
}

func (c *Cache) evict(victims []uint64) {
	for _, k := range victims {
		v := c.store.Del(k)
		c.onEvict(v)
	}
}
`
	before := strings.Replace(after, "\t\tv := c.store.Del(k)\n\t\tc.onEvict(v)\n", "\t\tv := c.store.Get(k)\n\t\tc.onEvict(v)\n\t\tc.store.Del(k)\n", 1)
	require.NotEqual(t, before, after)
	dir := scratchRepo(t,
		map[string]string{"go.mod": goMod, "cache/cache.go": before},
		map[string]string{"cache/cache.go": after})
	s, err := Suggest("HEAD", dir, Options{Dir: dir})
	require.NoError(t, err)
	// The Del the fix moved is still called: a call of it is proposed
	// only if it fires on the revert, which it does not (the code before
	// the fix calls Del too).
	assert.Equal(t, []string{"forbid (*Cache).evict (store).Get"}, proposalsOf(s), "left out: %v", s.Rejected)

	set, _ := printedSet(t, s)
	rep, err := Prove(set, "HEAD", Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, Caught, rep.Verdict)
}
