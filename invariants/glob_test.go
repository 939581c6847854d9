package invariants

import (
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGlobReaches(t *testing.T) {
	for _, tc := range []struct {
		glob, dir string
		want      bool
	}{
		{"src/*/kernels/*.cu", "src", true},
		{"src/*/kernels/*.cu", "src/a", true},
		{"src/*/kernels/*.cu", "src/a/kernels", true},
		{"src/*/kernels/*.cu", "src/a/tests", false},
		{"src/*/kernels/*.cu", "src/a/kernels/x", false},
		{"src/**/*.rs", "src/a/b/c", true},
		{"src/**", "src", true},
		{"a.c", "a.c", false},
		{"lib/*.c", "src", false},
	} {
		assert.Equal(t, tc.want, GlobReaches(tc.glob, tc.dir), "%s under %s", tc.glob, tc.dir)
	}
}

func TestManyDoubleStarsCostLittle(t *testing.T) {
	// Against a path that does not match, trying every split for each
	// `**` would try some 10^13 splits (the test would not end); the
	// matcher reads each segment once.
	glob := strings.Repeat("**/", 12) + "z"
	name := strings.Repeat("a/", 60) + "b"
	assert.False(t, MatchGlob(glob, name))
	assert.True(t, MatchGlob(glob, strings.Repeat("a/", 60)+"z"))
}

// matchByBacktracking is the definition MatchGlob must agree with: a `**`
// segment takes any number of path segments, tried one split after the
// other.
func matchByBacktracking(glob, name []string) bool {
	if len(glob) == 0 {
		return len(name) == 0
	}
	if glob[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if matchByBacktracking(glob[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, err := path.Match(glob[0], name[0])
	return err == nil && ok && matchByBacktracking(glob[1:], name[1:])
}

// FuzzMatchGlob checks the glob matcher against the backtracking
// definition, and GlobReaches against it: a directory above a matching
// path must be reported as one the glob reaches into, or the walk would
// skip the match.
func FuzzMatchGlob(f *testing.F) {
	for _, s := range [][2]string{
		{"src/**/*.rs", "src/x/y/a.rs"}, {"**/a/**/b", "a/b"}, {"src/*/kernels/*.cu", "src/m/kernels/k.cu"},
		{"**", "a/b"}, {"a/[b-d]?/**", "a/cx/y"}, {"**/**/x", "x"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, name string) {
		g, n := strings.Split(glob, "/"), strings.Split(name, "/")
		if len(g) > 12 || len(n) > 12 {
			return // the backtracking definition is exponential in the number of `**`
		}
		got, want := MatchGlob(glob, name), matchByBacktracking(g, n)
		if got != want {
			t.Fatalf("MatchGlob(%q, %q) = %v, want %v", glob, name, got, want)
		}
		if !got {
			return
		}
		for i := 1; i < len(n); i++ {
			if dir := strings.Join(n[:i], "/"); !GlobReaches(glob, dir) {
				t.Fatalf("%q matches %q, but GlobReaches(%q, %q) is false", glob, name, glob, dir)
			}
		}
	})
}
