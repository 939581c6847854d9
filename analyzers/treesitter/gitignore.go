package treesitter

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/invariants"
)

// A glob with wildcards leaves out what git ignores: build output
// (`target/`, `build/`) holds generated copies of the sources, and a
// copy made a function "defined 2 times". The rules are those of the
// .gitignore files of the repository the glob walks in, from its top
// (the directory that holds .git) down to each file's directory; a file
// is ignored when the last rule that matches it ignores it, or when a
// directory above it is ignored (git does not look into an ignored
// directory, so no rule re-includes a file there). The global excludes
// file and .git/info/exclude, which belong to one clone and not to the
// project, are not read. Outside a repository nothing is ignored. A
// file a glob names without wildcards is read whatever git says, and an
// invariant with `include_ignored: true` reads ignored files too.

// ignoreRule is one line of a .gitignore.
type ignoreRule struct {
	glob     string // slash-separated, in the syntax of invariants.MatchGlob
	anchored bool   // matched against the path from the file's directory; else against the base name
	negate   bool   // `!`: re-includes
	dirOnly  bool   // trailing `/`: matches directories only
}

// gitIgnore answers for one repository, caching each directory's rules
// and verdict.
type gitIgnore struct {
	top   string // the repository's top, absolute, slash-separated
	view  *overlay.Files
	rules map[string][]ignoreRule // by directory, absolute and slash-separated
	dirs  map[string]bool         // ignored directories
}

// newGitIgnore finds the repository that holds dir and returns its
// rules, or nil when dir is in none.
func newGitIgnore(dir string, view *overlay.Files) *gitIgnore {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	for d := abs; ; {
		if view.Exists(filepath.Join(d, ".git")) {
			return &gitIgnore{top: filepath.ToSlash(d), view: view, rules: map[string][]ignoreRule{}, dirs: map[string]bool{}}
		}
		up := filepath.Dir(d)
		if up == d {
			return nil
		}
		d = up
	}
}

// ignored reports whether git ignores a path (a file, or a directory
// when isDir), absolute or relative to the working directory.
func (g *gitIgnore) ignored(p string, isDir bool) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	return g.ignoredAbs(filepath.ToSlash(abs), isDir)
}

func (g *gitIgnore) ignoredAbs(p string, isDir bool) bool {
	if p == g.top || !strings.HasPrefix(p, g.top+"/") {
		return false
	}
	parent := path.Dir(p)
	if parent != g.top {
		ignored, ok := g.dirs[parent]
		if !ok {
			ignored = g.ignoredAbs(parent, true)
			g.dirs[parent] = ignored
		}
		if ignored {
			return true
		}
	}
	ignored := false
	// Deeper files take precedence, and within a file later lines.
	for d := g.top; ; {
		rel := strings.TrimPrefix(p, d+"/")
		for _, r := range g.rulesOf(d) {
			if r.matches(rel, isDir) {
				ignored = !r.negate
			}
		}
		if d == parent {
			break
		}
		next := strings.IndexByte(p[len(d)+1:], '/')
		d = p[:len(d)+1+next]
	}
	return ignored
}

// rulesOf reads the .gitignore of a directory once.
func (g *gitIgnore) rulesOf(dir string) []ignoreRule {
	if r, ok := g.rules[dir]; ok {
		return r
	}
	var rules []ignoreRule
	if src, err := g.view.ReadFile(filepath.FromSlash(dir + "/.gitignore")); err == nil {
		rules = parseGitIgnore(string(src))
	}
	g.rules[dir] = rules
	return rules
}

// parseGitIgnore reads the rules of a .gitignore: blank lines and `#`
// comments are skipped, `\#` and `\!` are literal, trailing spaces are
// dropped, `!` negates, a trailing `/` matches directories only, and a
// pattern with a `/` before its end is anchored at the file's directory
// (a leading `/` only anchors); any other pattern matches a base name at
// any depth.
func parseGitIgnore(src string) []ignoreRule {
	var out []ignoreRule
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, "\r")
		if !strings.HasSuffix(line, "\\ ") {
			line = strings.TrimRight(line, " ")
		}
		if line == "" || line[0] == '#' {
			continue
		}
		var r ignoreRule
		switch {
		case line[0] == '!':
			r.negate, line = true, line[1:]
		case strings.HasPrefix(line, `\#`), strings.HasPrefix(line, `\!`):
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			r.anchored, line = true, strings.TrimPrefix(line, "/")
		}
		r.glob = line
		out = append(out, r)
	}
	return out
}

// matches reports whether the rule matches a path relative to the
// directory of its .gitignore.
func (r ignoreRule) matches(rel string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if r.anchored {
		return invariants.MatchGlob(r.glob, rel)
	}
	return invariants.MatchGlob(r.glob, path.Base(rel))
}
