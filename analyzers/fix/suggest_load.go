package fix

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/golang/live"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/packages"
)

// goLoad is what suggest could load of the Go packages a change
// touches, on one side of it, and what it left out with the reason.
type goLoad struct {
	pkgs  []*packages.Package
	lives map[string]*live.Info
	left  []string
}

// loadGoModules loads the packages of the changed directories the way
// `go build ./...` would in each one's own module: the directories are
// grouped by the nearest go.mod above them (up to the repository root),
// each group is loaded from its module's root, and a package that does
// not load is left out with its first error instead of costing the
// others. A directory with no go.mod above it (a repository from before
// Go modules) is left out, saying so. root is the repository's top
// level; view, when set, is the reverted tree.
func loadGoModules(opts Options, root string, dirs []string, view *overlay.Files) (*goLoad, error) {
	out := &goLoad{lives: map[string]*live.Info{}}
	ov, err := view.Go(nil)
	if err != nil {
		return nil, err
	}
	byModule := map[string][]string{}
	var modules []string
	for _, d := range dirs {
		mod := moduleRootUnder(d, root)
		if mod == "" {
			rel, _ := filepath.Rel(root, d)
			out.left = append(out.left, fmt.Sprintf("%s: no go.mod in it or above it in the repository (a repository from before Go modules): its Go files are not loaded; add a go.mod, or run suggest on a later commit", filepath.ToSlash(rel)))
			continue
		}
		if _, ok := byModule[mod]; !ok {
			modules = append(modules, mod)
		}
		byModule[mod] = append(byModule[mod], d)
	}
	for _, mod := range modules {
		var patterns []string
		for _, d := range byModule[mod] {
			rel, err := filepath.Rel(mod, d)
			if err != nil {
				return nil, err
			}
			patterns = append(patterns, "./"+filepath.ToSlash(rel))
		}
		pkgs, err := packages.Load(&packages.Config{
			Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax | packages.NeedTypes |
				packages.NeedTypesSizes | packages.NeedTypesInfo | packages.NeedModule | packages.NeedImports,
			Dir: mod, Overlay: ov, BuildFlags: opts.BuildFlags, Tests: opts.Tests,
		}, patterns...)
		relMod, _ := filepath.Rel(root, mod)
		if err != nil {
			out.left = append(out.left, fmt.Sprintf("the module at %s: %s", filepath.ToSlash(relMod), firstLine(err.Error())))
			continue
		}
		var kept []*packages.Package
		for _, p := range pkgs {
			if errs := loadErrors(p); len(errs) > 0 {
				out.left = append(out.left, fmt.Sprintf("package %s (module at %s): %s", p.PkgPath, filepath.ToSlash(relMod), firstLine(errs[0])))
				continue
			}
			kept = append(kept, p)
		}
		if len(kept) == 0 {
			continue
		}
		lives, err := driver.Live(&invariants.Set{}, kept)
		if err != nil {
			out.left = append(out.left, fmt.Sprintf("the module at %s: %s", filepath.ToSlash(relMod), firstLine(err.Error())))
			continue
		}
		out.pkgs = append(out.pkgs, kept...)
		for id, l := range lives {
			out.lives[id] = l
		}
	}
	return out, nil
}

// loadErrors are the errors of a package and of what it imports.
func loadErrors(p *packages.Package) []string {
	var errs []string
	packages.Visit([]*packages.Package{p}, nil, func(q *packages.Package) {
		for _, e := range q.Errors {
			if !slices.Contains(errs, e.Error()) {
				errs = append(errs, e.Error())
			}
		}
	})
	return errs
}

// moduleRootUnder is the directory of the nearest go.mod at or above
// dir that is inside root, or "".
func moduleRootUnder(dir, root string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if d == root || !strings.HasPrefix(d, root) || filepath.Dir(d) == d {
			return ""
		}
	}
}
