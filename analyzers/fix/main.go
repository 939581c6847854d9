package fix

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/cliflag"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/invariants"
)

// RevertFlags are the flags of `guardlint prove --revert`.
type RevertFlags struct {
	// Rev is the commit or range to revert.
	Rev string
	// Paths limit the revert (comma-separated pathspecs).
	Paths string
	// AllowUncovered passes a caught revert with uncovered hunks.
	AllowUncovered bool
}

// ProveMain runs `guardlint prove --revert` once the prover's flags are
// parsed and the invariants loaded, and returns the exit code: 0 when the
// revert is caught and every hunk it added is (unless allowed otherwise),
// 1 when the revert or a hunk passes, 2 when the revert cannot be made,
// 3 when the packages fail to load.
func ProveMain(set *invariants.Set, flags RevertFlags, opts Options, stdout, stderr io.Writer) int {
	opts.Paths = driver.SplitList(flags.Paths)
	rep, err := Prove(set, flags.Rev, opts)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint prove: %v\n", err)
		if isApplyError(err) {
			fmt.Fprintf(stderr, "guardlint prove: the change was made before later ones that touch the same lines; revert the files that hold the fix with -paths\n")
		}
		if isApplyError(err) || errors.Is(err, ErrShallow) || isRevError(err) {
			return driver.ExitConfig
		}
		return driver.ExitFailure
	}
	rep.Print(stdout, opts.Dir)
	if !rep.OK(flags.AllowUncovered) {
		return driver.ExitFindings
	}
	return driver.ExitClean
}

// isRevError reports whether err is about the revision or paths given.
func isRevError(err error) bool {
	var re *revError
	return errors.As(err, &re)
}

// revError is a revision or path the command line names wrongly.
type revError struct{ msg string }

func (e *revError) Error() string { return e.msg }

// SuggestMain runs `guardlint suggest` with its arguments and returns the
// exit code: 0 when it printed at least one proven invariant, 1 when it
// found none, 2 for a wrong command line or a revert that cannot be
// made, 3 when the packages fail to load.
func SuggestMain(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := cliflag.NewFlagSet("guardlint suggest")
	var (
		cfgFlag, dir, paths string
		verbose, tests      bool
		build               cliflag.Build
	)
	fs.StringVar(&cfgFlag, "config", "", "comma-separated invariants files or directories the suggestions are meant for (default: as for guardlint); their directory is where files globs start")
	fs.StringVar(&dir, "C", "", "run as if started in `dir`")
	fs.StringVar(&paths, "paths", "", "look only at these comma-separated paths of the change")
	build.Register(fs)
	fs.BoolVar(&verbose, "v", false, "print phase times to stderr")
	fs.BoolVar(&tests, "tests", false, "propose from test code too: Go test files, files under tests/ or benches/, Rust's #[cfg(test)] and #[test]")
	usage := func() {
		fmt.Fprintf(stderr, "usage: guardlint suggest [flags] REV [packages]\n\nProposes invariants from the diff of the commit or range REV and prints, in the invariants file format, those that hold now and fire when REV is reverted (docs/fixes.md).\n\nFlags:\n")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nExit status: 0 invariants printed, 1 none to suggest, 2 unusable command line or a revert that does not apply, 3 packages failed to load.\n")
	}
	if err := cliflag.Parse(fs, args, stderr, usage); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return driver.ExitClean
		}
		return driver.ExitConfig
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "guardlint suggest: give the commit or range to suggest invariants for\n")
		usage()
		return driver.ExitConfig
	}
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint suggest: %v\n", err)
		return driver.ExitConfig
	}
	opts := Options{Dir: abs, Patterns: fs.Args()[1:], Paths: driver.SplitList(paths), BuildFlags: build.Flags(), Tests: tests}
	if verbose {
		opts.Verbose = stderr
	}
	// The suggestions are meant for the invariants file the run would
	// find; without one, for the repository's top level.
	target := ""
	if cfg, err := driver.ConfigPaths(driver.SplitList(cfgFlag), getenv, abs); err == nil {
		target = filepath.Dir(cfg[0])
		if info, err := os.Stat(cfg[0]); err == nil && info.IsDir() {
			target = cfg[0]
		}
	} else if root, err := git(abs, "rev-parse", "--show-toplevel"); err == nil {
		target = strings.TrimSpace(root)
	} else {
		target = abs
	}
	s, err := Suggest(fs.Arg(0), target, opts)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint suggest: %v\n", err)
		if isApplyError(err) || errors.Is(err, ErrShallow) || isRevError(err) {
			return driver.ExitConfig
		}
		return driver.ExitFailure
	}
	s.Print(stdout)
	if len(s.Proven) == 0 {
		return driver.ExitFindings
	}
	return driver.ExitClean
}
