package driver

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// What go build compiles for the module that holds an invariants file.
//
// A repository may keep a second copy of a module: an edited fork in
// third_party/, a testdata module, a module vendored by hand, each with a
// go.mod that declares the same module path as the dependency. Matching
// packages to modules by path alone would check that copy, while go build
// compiles the version its requirements name (from the module cache or
// the vendor directory). So a package of an invariant is looked up the
// way go build looks it up for the module of the invariants file: in the
// main modules (that module, or every module the go.work that governs it
// uses), else in the modules its requirements and replace directives
// provide, which go list resolves from that module's directory. Only a
// package that the build does not provide at all is looked for among the
// other modules of the repository (a repository-wide invariants file
// naming a module that nothing requires).

// build is what go build compiles for one main module.
type build struct {
	main *Module
	// work is the go.work file that governs main, or "" when none does.
	work string
	// mains are the main modules: main alone, or with a go.work every
	// module it uses.
	mains []*Module
	// provided are the module paths that the main modules' requirements
	// and replace directives (and the go.work's) name: their packages are
	// dependencies, compiled from wherever go list resolves them.
	provided []string
}

// buildOf reads the build of main module m: its go.mod, and the go.work
// that the go command would use from m's directory.
func buildOf(m *Module) (*build, error) {
	b := &build{main: m, mains: []*Module{m}}
	work, err := goWork(m.Dir)
	if err != nil {
		return nil, err
	}
	modFiles := []string{filepath.Join(m.Dir, "go.mod")}
	if work != "" {
		data, err := os.ReadFile(work)
		if err != nil {
			return nil, fmt.Errorf("reading the workspace of %s: %w", m.Dir, err)
		}
		wf, err := modfile.ParseWork(work, data, nil)
		if err != nil {
			return nil, fmt.Errorf("the workspace of %s: %w", m.Dir, err)
		}
		b.work = work
		b.mains = nil
		for _, u := range wf.Use {
			dir := filepath.FromSlash(u.Path)
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(filepath.Dir(work), dir)
			}
			if um, ok := readModule(filepath.Clean(dir)); ok {
				b.mains = append(b.mains, um)
			}
		}
		for _, r := range wf.Replace {
			b.provided = append(b.provided, r.Old.Path)
		}
		modFiles = modFiles[:0]
		for _, um := range b.mains {
			modFiles = append(modFiles, filepath.Join(um.Dir, "go.mod"))
		}
	}
	for _, path := range modFiles {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		mf, err := modfile.ParseLax(path, data, nil)
		if err != nil {
			return nil, err
		}
		for _, r := range mf.Require {
			b.provided = append(b.provided, r.Mod.Path)
		}
		for _, r := range mf.Replace {
			b.provided = append(b.provided, r.Old.Path)
		}
	}
	return b, nil
}

// goWork returns the go.work file the go command uses in dir (it honours
// GOWORK, which go list will honour too), or "" when none.
func goWork(dir string) (string, error) {
	cmd := exec.Command("go", "env", "GOWORK")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOWORK in %s: %w: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	work := strings.TrimSpace(string(out))
	if work == "off" {
		return "", nil
	}
	return work, nil
}

// mainOf returns the main module of the build that holds package p, the
// one with the longest module path, or nil.
func (b *build) mainOf(p string) *Module {
	var best *Module
	for _, m := range b.mains {
		if owns(m.Path, p) && (best == nil || len(m.Path) > len(best.Path)) {
			best = m
		}
	}
	return best
}

// provides reports whether p lies in a module that the build's
// requirements or replace directives name.
func (b *build) provides(p string) bool {
	for _, mod := range b.provided {
		if owns(mod, p) {
			return true
		}
	}
	return false
}

// taken says, for each invariant's package that is a dependency while a
// module of the repository declares the same module path, which copy the
// run checked: the directory go list resolved it to (the module cache,
// the vendor directory, a replace target) and the copies it left.
func (ms *modules) taken(dir string, lists []unitList) []string {
	if len(ms.shadows) == 0 {
		return nil
	}
	where := map[string]string{}
	for _, l := range lists {
		packages.Visit(l.listed, nil, func(p *packages.Package) {
			if len(p.GoFiles) > 0 && len(ms.shadows[p.PkgPath]) > 0 {
				where[p.PkgPath] = filepath.Dir(p.GoFiles[0])
			}
		})
	}
	var out []string
	for _, p := range slices.Sorted(maps.Keys(ms.shadows)) {
		at, ok := where[p]
		if !ok {
			continue // not listed in this run: nothing was taken
		}
		var left []string
		for _, m := range ms.shadows[p] {
			if rel, err := filepath.Rel(m.Dir, at); err == nil && (rel == "." || filepath.IsLocal(rel)) {
				continue // the copy taken is this module (a replace target)
			}
			left = append(left, core.RelPath(dir, m.Dir))
		}
		if len(left) == 0 {
			continue
		}
		owner := ms.builtFor[p]
		out = append(out, fmt.Sprintf("package %s: checked %s, which go build compiles for the module at %s; %s declare%s the same module path and %s checked only by invariants files in %s",
			p, core.RelPath(dir, at), core.RelPath(dir, owner.Dir), strings.Join(left, ", "), verbS(len(left)), isAre(len(left)), itThem(len(left))))
	}
	return out
}

// isAre and itThem agree with n subjects.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// withDeps adds to the packages go list matched in module m the
// invariants' packages that m's build compiles as dependencies, found in
// their import graph: a run checks what go build compiles for its
// patterns, and a package that nothing of them imports is not compiled.
func (ms *modules) withDeps(m Module, listed []*packages.Package) []*packages.Package {
	roots := map[string]bool{}
	for _, p := range listed {
		roots[p.PkgPath] = true
	}
	var deps []*packages.Package
	packages.Visit(listed, nil, func(p *packages.Package) {
		if o := ms.owner[p.PkgPath]; o != nil && ms.dep[p.PkgPath] && o.Dir == m.Dir && !roots[p.PkgPath] {
			roots[p.PkgPath] = true
			deps = append(deps, p)
		}
	})
	return append(listed, deps...)
}
