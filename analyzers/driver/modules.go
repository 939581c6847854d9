package driver

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/mod/modfile"
)

// The Go modules a run loads packages from.
//
// guardlint runs in any directory of any repository: a Rust crate with no
// go.mod at all, a C++ tree with a Go module in go/, a repository of
// several modules. go list works inside one module, so the driver finds
// the modules that hold the invariants' packages and runs one load per
// module, with the run's patterns translated into each. A module is found
// from the invariants, not from the patterns: the module around the
// working directory, the module around each invariants file and, only
// when a package is still without one, every module under the repository
// root.

// Module is a Go module: its root directory and its module path.
type Module struct {
	Dir  string
	Path string
}

// Unit is one load of a run: a module and the run's patterns that fall
// inside it, written relative to the module's root.
type Unit struct {
	Module   Module
	Patterns []string
}

// moduleAt returns the module whose go.mod is nearest at or above dir.
func moduleAt(dir string) (*Module, bool) {
	root, err := invariants.ModuleRoot(dir)
	if err != nil || root == "" {
		return nil, false
	}
	return readModule(root)
}

// readModule reads the module path of the go.mod in dir.
func readModule(dir string) (*Module, bool) {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil, false
	}
	path := modfile.ModulePath(data)
	if path == "" {
		return nil, false
	}
	return &Module{Dir: dir, Path: path}, true
}

// modulesUnder lists the Go modules at or under root, skipping the
// directories that the go command's ./... skips (names starting with a
// dot or an underscore, testdata, vendor).
func modulesUnder(root string) []*Module {
	var out []*Module
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable directory holds no module we can load
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
			return filepath.SkipDir
		}
		if m, ok := readModule(path); ok {
			out = append(out, m)
		}
		return nil
	})
	return out
}

// owns reports whether package path pkg belongs to module path mod.
func owns(mod, pkg string) bool {
	return pkg == mod || strings.HasPrefix(pkg, mod+"/")
}

// modules maps the invariants' Go packages to the modules they live in.
type modules struct {
	home  *Module            // the module around the run's directory, if any
	known []*Module          // every module found so far
	owner map[string]*Module // package path -> module, nil when none holds it
}

// findModules finds the modules of the Go packages the invariants name,
// looking from dir.
func findModules(set *invariants.Set, dir string) *modules {
	ms := &modules{owner: map[string]*Module{}}
	seen := map[string]bool{}
	add := func(m *Module, ok bool) {
		if ok && !seen[m.Dir] {
			seen[m.Dir] = true
			ms.known = append(ms.known, m)
		}
	}
	home, ok := moduleAt(dir)
	if ok {
		ms.home = home
	}
	add(home, ok)
	for _, f := range set.Files {
		if abs, err := filepath.Abs(f.Path); err == nil {
			add(moduleAt(filepath.Dir(abs)))
		}
	}
	// Before the names are resolved (Set.Resolve), a name may be read in
	// more than one package: every reading's package gets its module.
	pkgs := append(goPackages(set), set.Candidates()...)
	if ms.assign(pkgs) {
		for _, m := range modulesUnder(RepoRoot(dir)) {
			add(m, true)
		}
		ms.assign(pkgs)
	}
	// A package no module of the repository holds may be a dependency of
	// the module around dir (an invariant on a vendored or required
	// package): go list there finds it, or says it does not exist.
	for p, m := range ms.owner {
		if m == nil {
			ms.owner[p] = ms.home
		}
	}
	return ms
}

// assign records the owner of each package among the known modules, the
// one with the longest module path, and reports whether a package is left
// without one.
func (ms *modules) assign(pkgs []string) bool {
	missing := false
	for _, p := range pkgs {
		var best *Module
		for _, m := range ms.known {
			if owns(m.Path, p) && (best == nil || len(m.Path) > len(best.Path)) {
				best = m
			}
		}
		ms.owner[p] = best
		missing = missing || best == nil
	}
	return missing
}

// lookupDir is where the existence of package p is asked of go list: its
// module, else the module around the run's directory (p may be a
// dependency), else nowhere.
func (ms *modules) lookupDir(p string) string {
	if _, assigned := ms.owner[p]; !assigned {
		ms.assign([]string{p})
	}
	if m := ms.owner[p]; m != nil {
		return m.Dir
	}
	if ms.home != nil {
		return ms.home.Dir
	}
	return ""
}

// isHome reports whether m is the module around the run's directory.
func (ms *modules) isHome(m *Module) bool {
	return ms.home != nil && ms.home.Dir == m.Dir
}

// goPackages lists the Go packages the invariants name, sorted.
func goPackages(set *invariants.Set) []string {
	seen := map[string]bool{}
	var out []string
	for _, inv := range set.Invariants {
		for _, p := range inv.Packages() {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// units returns the loads of a run over patterns from dir: one per module
// that holds an invariant's package and that a pattern reaches.
func (ms *modules) units(dir string, patterns []string) []Unit {
	var mods []*Module
	seen := map[string]bool{}
	for _, m := range ms.owner {
		if m != nil && !seen[m.Dir] {
			seen[m.Dir] = true
			mods = append(mods, m)
		}
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Dir < mods[j].Dir })
	ps := map[string][]string{} // module dir -> its patterns
	for _, p := range patterns {
		if isDirPattern(p) {
			for _, m := range mods {
				ps[m.Dir] = append(ps[m.Dir], ms.translate(m, dir, p)...)
			}
			continue
		}
		named := false
		for _, m := range mods {
			if t := importPattern(m, p); t != "" {
				ps[m.Dir] = append(ps[m.Dir], t)
				named = true
			}
		}
		// A meta pattern (all, std) or the import path of a dependency
		// is the go command's business in the module around dir.
		for _, m := range mods {
			if !named && ms.isHome(m) {
				ps[m.Dir] = append(ps[m.Dir], p)
			}
		}
	}
	var out []Unit
	for _, m := range mods {
		if len(ps[m.Dir]) > 0 {
			out = append(out, Unit{Module: *m, Patterns: ps[m.Dir]})
		}
	}
	return out
}

// importPattern returns import path pattern p as a pattern of module m:
// p itself when it lies in m, m's packages when p covers m (example.com/...
// for example.com/app), or "" when it does not reach m.
func importPattern(m *Module, p string) string {
	if p == "all" || p == "std" || p == "cmd" {
		return ""
	}
	prefix, recursive := strings.CutSuffix(p, "/...")
	switch {
	case owns(m.Path, prefix):
		return p
	case recursive && owns(prefix, m.Path):
		return m.Path + "/..."
	}
	return ""
}

// translate returns directory pattern p of a run in dir as patterns of
// module m: none when p does not reach into m. A pattern that names a
// directory (., ./x, ../x, /abs, each with an optional /...) reaches the
// module that holds that directory, and with /... also every module below
// it. (An import path pattern reaches the modules whose path it names,
// see importPattern, or else the module around dir.)
func (ms *modules) translate(m *Module, dir, p string) []string {
	recursive := strings.HasSuffix(p, "/...")
	path := strings.TrimSuffix(p, "/...")
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	path = filepath.Clean(path)
	if rel, err := filepath.Rel(m.Dir, path); err == nil && filepath.IsLocal(rel) {
		if ms.deepest(path) != m {
			return nil // the directory lies in a module nested inside m
		}
		switch {
		case rel == "." && recursive:
			return []string{"./..."}
		case rel == ".":
			return []string{"."}
		case recursive:
			return []string{"./" + filepath.ToSlash(rel) + "/..."}
		}
		return []string{"./" + filepath.ToSlash(rel)}
	}
	if rel, err := filepath.Rel(path, m.Dir); recursive && err == nil && filepath.IsLocal(rel) {
		return []string{"./..."}
	}
	return nil
}

// deepest returns the known module with the deepest root at or above
// path.
func (ms *modules) deepest(path string) *Module {
	var best *Module
	for _, m := range ms.known {
		rel, err := filepath.Rel(m.Dir, path)
		if err == nil && (rel == "." || filepath.IsLocal(rel)) && (best == nil || len(m.Dir) > len(best.Dir)) {
			best = m
		}
	}
	return best
}

// isDirPattern reports whether a package pattern names a directory
// rather than an import path, as the go command tells them apart.
func isDirPattern(p string) bool {
	return p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || filepath.IsAbs(p)
}

// Units returns the loads of a run over patterns from dir: one per module
// that holds a package the invariants name and that a pattern reaches,
// with the patterns written relative to the module. The prover loads its
// packages through them, as Run does.
func Units(set *invariants.Set, dir string, patterns []string) []Unit {
	return findModules(set, dir).units(dir, patterns)
}
