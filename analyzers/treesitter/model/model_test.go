package model

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func toks(s string) []string { return strings.Fields(s) }

func TestMatchCall(t *testing.T) {
	for _, tc := range []struct {
		callee, call, pattern string
		want                  bool
	}{
		{"enc . retain", "enc . retain ( )", "enc . retain", true},
		{"self . enc . retain", "self . enc . retain ( )", "enc . retain", true},
		{"enc -> retain", "enc -> retain ( )", "retain", true},
		{"enc . retainCount", "enc . retainCount ( )", "enc . retain", false},
		{"unretain", "unretain ( )", "retain", false},
		{"buf . retain", "buf . retain ( )", "enc . retain", false},
		{"msg_send !", "msg_send ! [ encoder , retain ]", "msg_send ! [ encoder , retain ]", true},
		{"msg_send !", "msg_send ! [ self . encoder , retainCount ]", "msg_send ! [ encoder , retain ]", false},
		{"msg_send !", "msg_send ! [ encoder , retain ]", "msg_send !", true},
		{"f", "f ( x )", "f ( )", false},
	} {
		c := &Call{Callee: toks(tc.callee), Tokens: toks(tc.call)}
		assert.Equal(t, tc.want, MatchCall(c, toks(tc.pattern)), "%q ~ %q", tc.call, tc.pattern)
	}
}

func TestMatchLock(t *testing.T) {
	assert.True(t, MatchLock(toks("this -> mu"), toks("mu")))
	assert.True(t, MatchLock(toks("self . mu"), toks("mu")))
	assert.True(t, MatchLock(toks("mu"), toks("self . mu")))
	assert.False(t, MatchLock(toks("other . mu"), toks("mu")))
	assert.False(t, MatchLock(toks("self . mu2"), toks("self . mu")))
}

func TestFuncMatches(t *testing.T) {
	f := &Func{Path: []string{"gpu", "CommandBuffer", "encode"}}
	assert.True(t, f.Matches([]string{"encode"}))
	assert.True(t, f.Matches([]string{"CommandBuffer", "encode"}))
	assert.True(t, f.Matches([]string{"gpu", "CommandBuffer", "encode"}))
	assert.True(t, f.Matches([]string{"", "gpu", "CommandBuffer", "encode"}), "anchored at the top")
	assert.False(t, f.Matches([]string{"", "CommandBuffer", "encode"}), "anchored, but not at the top")
	assert.False(t, f.Matches([]string{"Buffer", "encode"}))
	assert.False(t, f.Matches([]string{"x", "gpu", "CommandBuffer", "encode"}))
}

func TestMatchInsideMacro(t *testing.T) {
	c := &Call{Callee: toks("assert !"), Tokens: toks("assert ! ( self . enc . retain ( ) )"), Inner: toks("( self . enc . retain ( ) )")}
	assert.True(t, MatchCall(c, toks("enc . retain")))
	assert.True(t, MatchCall(c, toks("enc . retain ( )")))
	assert.False(t, MatchCall(c, toks("enc . release")))
	named := &Call{Callee: toks("log !"), Inner: toks(`( "{}" , enc . retain )`)}
	assert.False(t, MatchCall(named, toks("enc . retain")), "named, not called")
}

// A lock is named by its object or its address alike; an expression's
// address is not the expression.
func TestMatchLockAddress(t *testing.T) {
	assert.True(t, MatchLock(toks("storage"), toks("& storage")))
	assert.True(t, MatchLock(toks("& storage"), toks("storage")))
	assert.True(t, MatchLock(toks("& this -> mu_"), toks("mu_")))
	assert.False(t, MatchLock(toks("& other"), toks("& storage")))
	assert.False(t, MatchExpr(toks("buf"), toks("& buf")))
	assert.True(t, MatchExpr(toks("this -> buf"), toks("buf")))
}
