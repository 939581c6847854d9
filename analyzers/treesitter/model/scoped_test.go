package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A scoped guard's lock, its constructor's parameters replaced by the
// arguments: a name or a member chain as it is, the address of a name
// dereferenced into its member, anything else in parentheses.
func TestScopedCtorLocksOf(t *testing.T) {
	member := ScopedCtor{Params: []string{"arena"}, Locks: [][]string{{"arena", "->", "mu"}}}
	bare := ScopedCtor{Params: []string{"mu"}, Locks: [][]string{{"mu"}}}
	for _, c := range []struct {
		ctor ScopedCtor
		arg  []string
		want []string
	}{
		{member, []string{"a"}, []string{"a", "->", "mu"}},
		{member, []string{"b", "->", "arena"}, []string{"b", "->", "arena", "->", "mu"}},
		{member, []string{"&", "a_"}, []string{"a_", ".", "mu"}},
		{member, []string{"Get", "(", ")"}, []string{"(", "Get", "(", ")", ")", "->", "mu"}},
		{bare, []string{"&", "mu_"}, []string{"mu_"}},
		{bare, []string{"this", "->", "mu_"}, []string{"this", "->", "mu_"}},
	} {
		assert.Equal(t, [][]string{c.want}, c.ctor.LocksOf([][]string{c.arg}), "%v", c.arg)
	}
}

// Two annotated constructors that take as many arguments are not told
// apart: neither is taken.
func TestScopedGuardCtor(t *testing.T) {
	s := ScopedGuard{Class: "L", Ctors: []ScopedCtor{{Params: []string{"a"}}, {Params: []string{"a", "b"}}, {Params: []string{"x", "y"}}}}
	c, ok := s.Ctor(1)
	assert.True(t, ok)
	assert.Equal(t, []string{"a"}, c.Params)
	_, ok = s.Ctor(2)
	assert.False(t, ok)
	_, ok = s.Ctor(0)
	assert.False(t, ok)
}
