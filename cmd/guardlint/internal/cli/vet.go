package cli

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
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
// Without it, $GUARDLINT_CONFIG and then the nearest guardlint.yaml at or
// above the package directory, up to the repository root, are used.
func Vet() {
	if slices.Contains(os.Args[1:], "-V=full") || slices.Contains(os.Args[1:], "--V=full") {
		os.Exit(printToolID(os.Stdout, os.Stderr, os.Getenv))
	}
	flag.String("config", "", "comma-separated invariants files or directories (default: $"+driver.EnvConfig+", else the nearest "+driver.DefaultFile+" up to the repository root)")
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
			unitchecker.Main(driver.AnalysisSuite(guardconf.Static(set), driver.NativeElsewhere)...)
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
		unitchecker.Main(driver.AnalysisSuite(guardconf.Static(set), driver.NativeElsewhere)...)
	}
	// Describing the tool: unitchecker does no analysis then.
	unitchecker.Main(driver.AnalysisSuite(func() (*invariants.Set, error) { return nil, driver.ErrNoConfig }, driver.NativeElsewhere)...)
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

// printToolID answers go vet's -V=full, which names the tool in go vet's
// cache: go vet replays a package's earlier result when the tool, the
// package and the vet flags are the same. The invariants files are none
// of these, so the identity includes their digest: edit an invariant and
// go vet runs the tool again, instead of replaying a pass for a file that
// is now broken, or a finding for an invariant that is now fixed.
//
// go vet parses the line: "<name> version devel ... buildID=<id>" makes
// <id> the identity (cmd/go toolID), which here is a hash of the
// executable, as unitchecker computes it, and of the invariants found from
// the directory go vet runs in (with $GUARDLINT_CONFIG). A -config flag
// given to go vet is not passed to -V=full, so its files cannot be part
// of the identity; docs/go-vet.md says to prefer $GUARDLINT_CONFIG.
func printToolID(stdout, stderr io.Writer, getenv func(string) string) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return ExitFailure
	}
	f, err := os.Open(exe)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return ExitFailure
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return ExitFailure
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return ExitFailure
	}
	digest := driver.DigestPaths(nil, getenv, wd)
	fmt.Fprintf(h, "\x00invariants %s", digest)
	fmt.Fprintf(stdout, "%s version devel %s invariants=%s buildID=%x\n", exe, version(), digest, h.Sum(nil))
	return ExitClean
}
