package invariants

import (
	"path"
	"path/filepath"
	"strings"
)

// matchSegment matches one path segment against one glob segment, with the
// syntax of path.Match.
func matchSegment(pattern, name string) (bool, error) {
	return path.Match(pattern, name)
}

// MatchGlob reports whether a slash-separated path matches a glob whose
// segments follow path.Match and where a `**` segment matches any number
// of directories, none included. Both are taken as written: the caller
// makes them relative to the same directory.
func MatchGlob(glob, name string) bool {
	g := strings.Split(glob, "/")
	at := globStart(g)
	for _, seg := range strings.Split(name, "/") {
		at = globStep(g, at, seg)
	}
	return at[len(g)]
}

// GlobReaches reports whether some path strictly under dir can match the
// glob, so that a walk can skip a directory that cannot hold a match:
// `src/*/kernels/*.cu` need not enter `src/a/tests`.
func GlobReaches(glob, dir string) bool {
	g := strings.Split(glob, "/")
	at := globStart(g)
	for _, seg := range strings.Split(dir, "/") {
		at = globStep(g, at, seg)
	}
	// A glob segment is still to match a name under dir.
	for i := 0; i < len(g); i++ {
		if at[i] {
			return true
		}
	}
	return false
}

// The matchers run the glob as a set of positions, the way an NFA runs:
// at[i] says that the segments read so far can be matched by g[:i]. Each
// path segment costs one step over the glob, so a path of n segments
// against a glob of m costs n·m segment matches, however many `**` the
// glob holds; trying every split for each `**` costs n to the power of
// their number.

// globStart is the set of positions before any segment is read.
func globStart(g []string) []bool {
	at := make([]bool, len(g)+1)
	at[0] = true
	return globClose(g, at)
}

// globStep reads one path segment.
func globStep(g []string, at []bool, seg string) []bool {
	next := make([]bool, len(g)+1)
	for i := 0; i < len(g); i++ {
		if !at[i] {
			continue
		}
		if g[i] == "**" {
			next[i] = true // `**` takes the segment and may take more
			continue
		}
		if ok, err := path.Match(g[i], seg); err == nil && ok {
			next[i+1] = true
		}
	}
	return globClose(g, next)
}

// globClose adds the positions after a `**` that matches no segment.
func globClose(g []string, at []bool) []bool {
	for i := 0; i < len(g); i++ {
		if at[i] && g[i] == "**" {
			at[i+1] = true
		}
	}
	return at
}

// GlobRoot places a files glob: pattern is the glob made absolute against
// base (slash-separated; `**` for any depth), root the directory its
// leading segments without wildcards name, where a walk starts, and
// literal is true when the glob has no wildcard and root is the file
// itself. The tree-sitter front end expands globs from it, and the result
// cache lists the files it hashes the same way.
func GlobRoot(base, glob string) (pattern, root string, literal bool) {
	pattern = filepath.ToSlash(glob)
	if !filepath.IsAbs(glob) {
		pattern = filepath.ToSlash(filepath.Join(base, glob))
	}
	segs := strings.Split(pattern, "/")
	static := 0
	for static < len(segs) && !strings.ContainsAny(segs[static], "*?[") {
		static++
	}
	root = strings.Join(segs[:static], "/")
	if root == "" {
		root = "/"
	}
	return pattern, root, static == len(segs)
}
