// Package cbgen owns a field of a generic type: its writes go through
// instances of the type (Map[K, V] inside its methods), whose fields are
// copies of the declared one.
package cbgen

type Map[K comparable, V any] struct {
	m map[K]V
}

func (m *Map[K, V]) Put(k K, v V) {
	if m.m == nil {
		m.m = map[K]V{}
	}
	m.m[k] = v
}

func (m *Map[K, V]) Reset() {
	m.m = nil // want `invariant generic-owned: field \(cbgen.Map\[K, V\]\).m is written here by \(\*cbgen.Map\[K, V\]\).Reset; only \(\*cbgen.Map\[K, V\]\).Put may write it`
}

func New[K comparable, V any]() *Map[K, V] {
	return &Map[K, V]{m: map[K]V{}} // want `invariant generic-owned: field \(cbgen.Map\[K, V\]\).m is written here by cbgen.New`
}

func reader(m *Map[string, int]) int { return len(m.m) }

func writer(m *Map[string, int]) {
	m.m = nil // want `invariant generic-owned: field \(cbgen.Map\[K, V\]\).m is written here by cbgen.writer`
}
