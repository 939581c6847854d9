package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/guardconf"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// IsVet reports whether the arguments are those of go vet calling a vet
// tool: -flags or -V to describe the tool, or one *.cfg file to analyse a
// package.
func IsVet(args []string) bool {
	for _, a := range args {
		if a == "-flags" || a == "--flags" || strings.HasPrefix(a, "-V") {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// Vet runs guardlint under go vet's unit protocol. It never returns.
//
// The -config flag is registered on the command line, so go vet lists it
// (through -flags) and passes it on: go vet -vettool=... -config=FILE.
// Without it, $GUARDLINT_CONFIG and then guardlint.yaml at the root of
// the module around the package directory are used.
func Vet() {
	flag.String("config", "", "comma-separated invariants files or directories (default: $"+driver.EnvConfig+", else "+driver.DefaultFile+" at the module root)")
	args := os.Args[1:]
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		unit, err := readUnit(args[len(args)-1])
		if err != nil {
			fmt.Fprintf(os.Stderr, "guardlint: %v\n", err)
			os.Exit(ExitFailure)
		}
		if unit.VetxOnly {
			// A dependency, analysed only for the facts of the requires
			// rule, whose findings go vet does not print. Its invariants
			// are found the same way; a dependency without any (the
			// standard library) has no facts to give.
			set, err := loadForVet(args, unit.Dir)
			if err != nil {
				set = &invariants.Set{}
			}
			unitchecker.Main(registry.Analyzers(guardconf.Static(set))...)
		}
		// Load the invariants before handing over to unitchecker: go vet
		// prints a tool's stderr when it fails, but not an analyzer's
		// error in -json mode, and a broken configuration must be seen.
		set, err := loadForVet(args, unit.Dir)
		if err == nil {
			err = set.Resolve(unit.packages())
		}
		if err != nil {
			driver.PrintConfigError(os.Stderr, err, unit.Dir)
			os.Exit(ExitFindings)
		}
		unitchecker.Main(registry.Analyzers(guardconf.Static(set))...)
	}
	// Describing the tool: unitchecker does no analysis then.
	unitchecker.Main(registry.Analyzers(func() (*invariants.Set, error) { return nil, driver.ErrNoConfig })...)
}

// unit is the part of go vet's per-package configuration guardlint reads.
type unit struct {
	Dir      string // the package directory
	VetxOnly bool   // a dependency, analysed only for facts
	// The package and its imports: the packages the invariants' names are
	// read against in this unit.
	ImportPath  string
	PackageFile map[string]string // import path -> export data
}

// packages returns the import paths of the package and its imports.
func (u *unit) packages() []string {
	return append(slices.Collect(maps.Keys(u.PackageFile)), u.ImportPath)
}

func readUnit(path string) (*unit, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	u := &unit{}
	if err := json.Unmarshal(data, u); err != nil {
		return nil, fmt.Errorf("go vet configuration %s: %w", path, err)
	}
	return u, nil
}

// loadForVet finds and loads the invariants for one go vet unit; the
// package directory is where discovery starts.
func loadForVet(args []string, dir string) (*invariants.Set, error) {
	config := ""
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "config" || !strings.HasPrefix(a, "-") {
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		config = value
	}
	paths, err := driver.ConfigPaths(driver.SplitList(config), os.Getenv, dir)
	if err != nil {
		return nil, err
	}
	return driver.Load(paths...)
}
