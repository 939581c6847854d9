package treesitter

import (
	"testing"

	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
)

func TestPrefilter(t *testing.T) {
	cpp := NewPrefilter(invariants.LangCPP, []string{"gpu", "CommandBuffer", "~CommandBuffer"})
	assert.True(t, cpp.Match([]byte("namespace gpu { CommandBuffer::~CommandBuffer() {} }")))
	assert.False(t, cpp.Match([]byte("namespace gpu2 { CommandBuffer::~CommandBuffer() {} }")), "gpu only as part of a word")
	rs := NewPrefilter(invariants.LangRust, []string{"Vec", "push"})
	assert.True(t, rs.Match([]byte("impl<T> Vec<T> {\n    pub fn\tpush(&mut self) {}\n}")))
	assert.False(t, rs.Match([]byte("impl<T> Vec<T> { fn pop() { self.push(1) } }")), "push called, not defined")
	assert.False(t, rs.Match([]byte("impl<T> Vec<T> { fn push_all() {} }")), "another function")
	assert.False(t, rs.Match([]byte("impl<T> VecDeque<T> { fn push() {} }")), "Vec only as part of a word")
}

func TestExpand(t *testing.T) {
	files, err := expand("testdata", invariants.Glob{Pattern: "**/[e]*.rs"}, nil)
	assert.NoError(t, err)
	assert.Equal(t, []string{"testdata/rust/encoder.rs"}, files)
	files, err = expand("testdata", invariants.Glob{Pattern: "cpp/registry.cc"}, nil)
	assert.NoError(t, err)
	assert.Equal(t, []string{"testdata/cpp/registry.cc"}, files)
	files, err = expand("testdata", invariants.Glob{Pattern: "nowhere/*.cc"}, nil)
	assert.NoError(t, err)
	assert.Empty(t, files)
	_, err = expand("testdata", invariants.Glob{Pattern: "cpp/absent.cc"}, nil)
	assert.Error(t, err)
}
