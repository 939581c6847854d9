package invariants

import (
	"path"
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
	return matchSegs(strings.Split(glob, "/"), strings.Split(name, "/"))
}

// matchSegs matches path segments against glob segments, `**` spanning
// any number of them.
func matchSegs(glob, name []string) bool {
	for len(glob) > 0 {
		if glob[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegs(glob[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(glob[0], name[0]); err != nil || !ok {
			return false
		}
		glob, name = glob[1:], name[1:]
	}
	return len(name) == 0
}
