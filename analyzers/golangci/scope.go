package golangci

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/packages"
)

// checkPackagesExist fails when an invariant names a package that does
// not exist in the module at dir.
//
// golangci-lint runs the analyzers on the packages it is given, one at a
// time; an invariant whose package was renamed or deleted concerns none of
// them and would never be reported. The standalone command reports it as
// "cannot verify: package ... not found"; here there is no package to put
// that finding in, so it stops the run instead, the way a broken
// invariants file does. Packages are looked up with go list, once per
// BuildAnalyzers call.
func checkPackagesExist(set *invariants.Set, dir string) error {
	if err := resolveNames(set, dir); err != nil {
		return err
	}
	byPkg := map[string][]*invariants.Invariant{}
	for _, inv := range set.Invariants {
		for _, p := range inv.Packages() {
			byPkg[p] = append(byPkg[p], inv)
		}
	}
	if len(byPkg) == 0 {
		return nil
	}
	paths := make([]string, 0, len(byPkg))
	for p := range byPkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: dir}, paths...)
	if err != nil {
		return fmt.Errorf("guardlint: looking up the invariants' packages: %w", err)
	}
	found := map[string]bool{}
	for _, p := range pkgs {
		if len(p.Errors) == 0 {
			found[p.PkgPath] = true
		}
	}
	var lines []string
	for _, p := range paths {
		if found[p] {
			continue
		}
		for _, inv := range byPkg[p] {
			lines = append(lines, fmt.Sprintf("%s:%d:%d: invariant %s: cannot verify: package %s not found",
				relPath(dir, inv.Pos.File), inv.Pos.Line, inv.Pos.Col, inv.ID, p))
		}
	}
	if len(lines) > 0 {
		return fmt.Errorf("guardlint: invariants name packages that do not exist:\n%s", strings.Join(lines, "\n"))
	}
	return nil
}

// resolveNames reads the names whose path has a dot in its last element
// against the packages that exist in the module at dir: golangci-lint
// hands the plugin no list of packages before it analyses them.
func resolveNames(set *invariants.Set, dir string) error {
	var known []string
	if candidates := set.Candidates(); len(candidates) > 0 {
		pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: dir}, candidates...)
		if err != nil {
			return fmt.Errorf("guardlint: looking up the invariants' packages: %w", err)
		}
		for _, p := range pkgs {
			if len(p.Errors) == 0 {
				known = append(known, p.PkgPath)
			}
		}
	}
	var list invariants.ErrorList
	if err := set.Resolve(known); errors.As(err, &list) {
		lines := make([]string, len(list))
		for i, e := range list {
			lines[i] = fmt.Sprintf("%s:%d:%d: %s", relPath(dir, e.Pos.File), e.Pos.Line, e.Pos.Col, e.Msg)
		}
		return fmt.Errorf("guardlint: names in the invariants are ambiguous:\n%s", strings.Join(lines, "\n"))
	}
	return nil
}
