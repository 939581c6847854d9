package invariants_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
)

// TestLoadGuards checks the declared guard classes and lock calls: the
// file's reach every tree-sitter invariant, an invariant adds its own, and
// Rust keeps only the lock calls that make sense for it.
func TestLoadGuards(t *testing.T) {
	src := `version: 1
guards: [{type: absl::MutexLock}]
lock_calls: {exclusive: [Lock], shared: [ReaderLock], unlock: [Unlock]}
invariants:
  - id: cc
    why: w
    lang: cpp
    files: a.cc
    guards: [{type: ReaderMutexLock, mode: shared}]
    lock_calls: {exclusive: [WriterLock]}
    function: f
    hold: {lock: mu_}
  - id: rs
    why: w
    lang: rust
    files: a.rs
    lock_calls: {exclusive: [lock_exclusive]}
    function: f
    hold: {lock: self.mu}
  - id: go
    why: w
    package: example.com/m/p
    function: F
    call: {to: G}
`
	f, _, err := invariants.Parse(registry.Specs(), "inv.yaml", []byte(src), "")
	require.NoError(t, err)
	cc, rs, goInv := f.Invariants[0], f.Invariants[1], f.Invariants[2]
	require.Len(t, cc.Guards, 2)
	assert.Equal(t, []string{"absl", "MutexLock"}, cc.Guards[0].Scoped)
	assert.Equal(t, invariants.Exclusive, cc.Guards[0].Mode)
	assert.Equal(t, []string{"ReaderMutexLock"}, cc.Guards[1].Scoped)
	assert.Equal(t, invariants.Shared, cc.Guards[1].Mode)
	assert.Equal(t, 9, cc.Guards[1].Pos.Line)
	assert.Equal(t, []string{"Lock", "WriterLock"}, cc.LockCalls.Exclusive)
	assert.Equal(t, []string{"ReaderLock"}, cc.LockCalls.Shared)
	assert.Equal(t, []string{"Unlock"}, cc.LockCalls.Unlock)
	assert.Empty(t, rs.Guards, "guard classes are the C family's")
	assert.Equal(t, []string{"Lock", "lock_exclusive"}, rs.LockCalls.Exclusive)
	assert.Empty(t, rs.LockCalls.Unlock, "a Rust guard is released by its drop")
	assert.Empty(t, goInv.Guards)
	assert.True(t, goInv.LockCalls.Empty())
}

// TestLoadGuardErrors checks that a malformed declaration is an error at
// its position, never ignored.
func TestLoadGuardErrors(t *testing.T) {
	const head = "version: 1\ninvariants:\n  - id: a\n    why: w\n    lang: cpp\n    files: a.cc\n    function: f\n    hold: {lock: mu_}\n"
	for _, tc := range []struct{ name, src, want string }{
		{"unknown guard key", head + "    guards: [{type: G, mod: shared}]\n", `:9:24: guards[0]: unknown key "mod"; did you mean "mode"?`},
		{"missing type", head + "    guards: [{mode: shared}]\n", ":9:14: guards[0]: missing `type`"},
		{"bad mode", head + "    guards: [{type: G, mode: read}]\n", `:9:30: guards[0].mode "read": want exclusive or shared`},
		{"template arguments", head + "    guards: [{type: 'G<M>'}]\n", `:9:21: guards[0].type "G<M>": want a class name`},
		{"unknown lock_calls key", head + "    lock_calls: {exclusve: [L]}\n", `:9:18: lock_calls: unknown key "exclusve"; did you mean "exclusive"?`},
		{"call with receiver", head + "    lock_calls: {exclusive: [mu.Lock]}\n", `:9:30: lock_calls.exclusive[0] "mu.Lock": want the name of the call`},
		{"empty lock_calls", head + "    lock_calls: {}\n", ":9:17: lock_calls must declare at least one of exclusive, shared, unlock"},
		{"guards on go", "version: 1\ninvariants:\n  - {id: a, why: w, package: example.com/m/p, function: F, call: {to: G}, guards: [{type: G}]}\n", ":3:75: invariant a: `guards` is for lang"},
		{"guards on rust", "version: 1\ninvariants:\n  - {id: a, why: w, lang: rust, files: a.rs, function: f, hold: {lock: m}, guards: [{type: G}]}\n", ":3:76: invariant a: `guards` is for the C family"},
		{"unlock on rust", "version: 1\ninvariants:\n  - {id: a, why: w, lang: rust, files: a.rs, function: f, hold: {lock: m}, lock_calls: {unlock: [u]}}\n", ":3:76: invariant a: `lock_calls.unlock` is for the C family"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := invariants.Parse(registry.Specs(), "inv.yaml", []byte(tc.src), "")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestLangDidYouMean checks that a misspelt lang names the one meant.
func TestLangDidYouMean(t *testing.T) {
	src := "version: 1\ninvariants:\n  - {id: a, why: w, lang: rsut, files: a.rs, function: f, call: {to: g}}\n"
	_, _, err := invariants.Parse(registry.Specs(), "inv.yaml", []byte(src), "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `:3:27: invariant a: lang "rsut" is not supported; did you mean "rust"?`)
}
