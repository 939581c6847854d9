package driver

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
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
// from the invariants, not from the patterns: each package is read as
// go build compiles it for the module of its invariants file (build.go)
// and, only when that build does not provide it, among every module
// under the repository root.

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
	// dep marks the packages that their owner does not hold but compiles
	// as a dependency (a required module, a replace target, the vendor
	// directory): go list resolves them by import path in the owner's
	// directory, as go build does.
	dep map[string]bool
	// shadows are, for a dependency, the modules of the repository that
	// declare the same module path and were not taken (see build.go).
	shadows map[string][]*Module
	// builtFor is, for a package with shadows, the main module whose
	// build took it.
	builtFor map[string]*Module
	// builds are the builds of the invariants files' modules, by module
	// directory.
	builds map[string]*build
	// under is the modules under the repository root, once walked.
	under []*Module
	root  string
	// Notes say which copy was taken where two could be meant.
	Notes []string
}

// findModules finds the modules of the Go packages the invariants name,
// looking from dir. A package of an invariant is looked up in the build of
// the module that holds its invariants file (build.go); an invariants
// file in no module looks in the module around dir, then in every module
// under the repository root. Two invariants files that mean different
// modules by the same package are an error: one run type-checks one copy
// of a package.
func findModules(set *invariants.Set, dir string) (*modules, error) {
	ms := &modules{owner: map[string]*Module{}, dep: map[string]bool{}, shadows: map[string][]*Module{},
		builtFor: map[string]*Module{},
		builds:   map[string]*build{}, root: RepoRoot(dir)}
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
	// The build of each invariants file's module; a file in no module
	// (one at the root of a repository that keeps its Go module in a
	// subdirectory) reads its packages as the module around dir builds
	// them.
	fileBuild := map[string]*build{}
	for _, f := range set.Files {
		abs, err := filepath.Abs(f.Path)
		if err != nil {
			continue
		}
		m, ok := moduleAt(filepath.Dir(abs))
		if !ok {
			if m, ok = home, home != nil; !ok {
				continue
			}
		}
		add(m, true)
		b := ms.builds[m.Dir]
		if b == nil {
			if b, err = buildOf(m); err != nil {
				return nil, err
			}
			ms.builds[m.Dir] = b
			for _, w := range b.mains {
				add(w, true)
			}
		}
		fileBuild[f.Path] = b
	}
	// Before the names are resolved (Set.Resolve), a name may be read in
	// more than one package: every reading's package gets its module.
	type need struct {
		b    *build // nil for an invariants file in no module
		file string
	}
	needs := map[string][]need{}
	var pkgs []string
	for _, inv := range set.Invariants {
		one := &invariants.Set{Invariants: []*invariants.Invariant{inv}}
		for _, p := range append(inv.Packages(), one.Candidates()...) {
			if needs[p] == nil {
				pkgs = append(pkgs, p)
			}
			needs[p] = append(needs[p], need{fileBuild[inv.Pos.File], inv.Pos.File})
		}
	}
	sort.Strings(pkgs)
	defer func() { ms.Notes = slices.Compact(ms.Notes) }()
	for _, p := range pkgs {
		var taken *Module
		var takenBy string
		for _, n := range needs[p] {
			m, dep := ms.resolve(n.b, p)
			if taken != nil && (m != taken || dep != ms.dep[p]) {
				return nil, fmt.Errorf("package %s is not the same package for %s (%s) and for %s (%s): one run checks one copy of a package; check them in two runs, one per invariants file",
					p, core.RelPath(dir, takenBy), ms.describe(dir, taken, ms.dep[p]), core.RelPath(dir, n.file), ms.describe(dir, m, dep))
			}
			taken, takenBy = m, n.file
			ms.owner[p], ms.dep[p] = m, dep
		}
		// A package the build takes from elsewhere than the file's own
		// module (a dependency, another module of the go.work) may have
		// a copy in the repository that a reader could take for it.
		if ms.dep[p] {
			for _, u := range ms.modulesUnder() {
				if owns(u.Path, p) && u.Dir != taken.Dir {
					ms.shadows[p] = append(ms.shadows[p], u)
					ms.builtFor[p] = taken
				}
			}
		}
	}
	return ms, nil
}

// resolve returns the module package p is loaded from for an invariants
// file whose module has build b (nil when the file is in no module), and
// whether p is a dependency of that module rather than one of its
// packages.
func (ms *modules) resolve(b *build, p string) (*Module, bool) {
	if b != nil {
		// A package of another module of the go.work is compiled into
		// this module's build as a dependency is: go list in this module
		// resolves it through the workspace.
		if m := b.mainOf(p); m != nil {
			return b.main, m.Dir != b.main.Dir
		}
		if b.provides(p) {
			return b.main, true
		}
	}
	// The build does not provide p: a module of the repository that
	// nothing here requires may (a repository-wide invariants file).
	var best *Module
	var tied []*Module
	for _, m := range ms.modulesUnder() {
		switch {
		case !owns(m.Path, p):
		case best == nil || len(m.Path) > len(best.Path):
			best, tied = m, nil
		case len(m.Path) == len(best.Path):
			tied = append(tied, m)
		}
	}
	if best != nil {
		if len(tied) > 0 {
			dirs := make([]string, len(tied))
			for i, m := range tied {
				dirs[i] = core.RelPath(ms.root, m.Dir)
			}
			ms.Notes = append(ms.Notes, fmt.Sprintf("package %s: took the module at %s; %s declare%s the same module path %s",
				p, core.RelPath(ms.root, best.Dir), strings.Join(dirs, ", "), verbS(len(tied)), best.Path))
		}
		return best, false
	}
	// Nothing provides it: go list in the module of the file says it
	// does not exist (or finds it in the standard library).
	if b != nil {
		return b.main, false
	}
	return nil, false
}

// verbS is the ending of a verb in the present with n subjects.
func verbS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// describe says where a package is taken from, for an error.
func (ms *modules) describe(dir string, m *Module, dep bool) string {
	switch {
	case m == nil:
		return "in no module"
	case dep:
		return "a dependency of the module at " + core.RelPath(dir, m.Dir)
	}
	return "the module at " + core.RelPath(dir, m.Dir)
}

// modulesUnder returns the modules under the repository root, walking
// the tree once, and only when asked.
func (ms *modules) modulesUnder() []*Module {
	if ms.under == nil {
		ms.under = modulesUnder(ms.root)
		if ms.under == nil {
			ms.under = []*Module{}
		}
		for _, m := range ms.under {
			ms.addKnown(m)
		}
	}
	return ms.under
}

// addKnown adds m to the known modules unless it is there.
func (ms *modules) addKnown(m *Module) {
	for _, k := range ms.known {
		if k.Dir == m.Dir {
			return
		}
	}
	ms.known = append(ms.known, m)
}

// assign records the owner of each package among the known modules, the
// one with the longest module path, and reports whether a package is left
// without one: for a package asked about after findModules.
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
		if d := ms.deepest(path); d == nil || d.Dir != m.Dir {
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
func Units(set *invariants.Set, dir string, patterns []string) ([]Unit, error) {
	ms, err := findModules(set, dir)
	if err != nil {
		return nil, err
	}
	return ms.units(dir, patterns), nil
}
