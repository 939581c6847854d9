package prove

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/guardlint/guardlint/analyzers/cliflag"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/fix"
)

// Exit codes, the standalone command's: driver.ExitClean when every
// invariant fired on every revert, driver.ExitFindings when a mutant
// survived or an invariant fails, is vacuous or unproved.
const (
	exitProved   = driver.ExitClean
	exitUnproved = driver.ExitFindings
	exitConfig   = driver.ExitConfig
	exitFailure  = driver.ExitFailure
)

// Main runs `guardlint prove` with the arguments after "prove" and returns
// its exit code.
func Main(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := cliflag.NewFlagSet("guardlint prove")
	var (
		opts    Options
		tcfg    TestOptions
		cfgFlag string
		verbose bool
		show    string
		revert  fix.RevertFlags
		build   cliflag.Build
	)
	fs.StringVar(&cfgFlag, "config", "", "comma-separated invariants files or directories (default: as for guardlint)")
	fs.StringVar(&opts.Dir, "C", "", "run as if started in `dir`")
	fs.IntVar(&opts.Jobs, "jobs", 0, "mutants checked at once (default GOMAXPROCS)")
	build.Register(fs)
	fs.BoolVar(&opts.Exact, "exact", false, "check each mutant with a full load of the packages (slow; the reference for the fast check)")
	ops := fs.String("ops", "", "comma-separated reverts to make (the matrix's column names, e.g. lock-deleted,locked-late); default every one")
	fs.BoolVar(&verbose, "v", false, "list every mutant with its verdict, and print phase times to stderr")
	fs.StringVar(&show, "show", "", "print the mutated function of the mutant `NAME` (the names -v lists) and its verdict")
	fs.StringVar(&tcfg.Command, "test", "", "also run `CMD` (through sh -c) on a copy of the tree per mutant and report which mutants it detects; exit status 125 says the mutant does not build")
	fs.DurationVar(&tcfg.Timeout, "test-timeout", 10*time.Minute, "time limit of CMD per mutant; a mutant that runs past it counts as detected")
	fs.StringVar(&tcfg.Out, "test-out", "", "directory given to CMD as $GUARDLINT_MUTANT_OUT (default: a temporary directory)")
	fs.IntVar(&tcfg.Jobs, "test-jobs", 1, "mutants tested at once")
	// Guarding a fix commit (docs/fixes.md): the flags of --revert.
	fs.StringVar(&revert.Rev, "revert", "", "instead of mutating, revert the commit or range `REV` of the git history (or a patch of a chain) in memory and require the invariants to catch it, hunk by hunk")
	fs.StringVar(&revert.Paths, "paths", "", "with -revert: revert only these comma-separated paths")
	fs.BoolVar(&revert.AllowUncovered, "allow-uncovered", false, "with -revert: pass a caught revert even when removing one of its hunks alone passes")
	usage := func() {
		fmt.Fprintf(stderr, "usage: guardlint prove [flags] [packages]\n\nMutates the code each invariant guards, the ways reverts happen, and checks that the invariant fires for each mutant.\n\nFlags:\n")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nExit status: 0 every invariant proved, 1 a mutant survived or an invariant is failing (in any language), vacuous or unproved, 2 unusable configuration or command line, 3 packages failed to load.\n")
	}
	if err := cliflag.Parse(fs, args, stderr, usage); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitProved
		}
		return exitConfig
	}
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "guardlint prove: %v\n", err)
			return exitConfig
		}
		opts.Dir = wd
	} else if abs, err := filepath.Abs(opts.Dir); err == nil {
		opts.Dir = abs
	}
	opts.Patterns = fs.Args()
	opts.Ops = driver.SplitList(*ops)
	opts.BuildFlags = build.Flags()
	if verbose {
		opts.Verbose = stderr
	}
	if f, ok := stderr.(*os.File); ok && IsTerminal(f) {
		opts.Progress = stderr
	}
	paths, err := driver.ConfigPaths(driver.SplitList(cfgFlag), getenv, opts.Dir)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint prove: %v\n", err)
		return exitConfig
	}
	set, err := driver.Load(paths...)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint prove: %v\n", err)
		return exitConfig
	}
	if revert.Rev != "" {
		return fix.ProveMain(set, revert, fix.Options{Dir: opts.Dir, Patterns: opts.Patterns, Jobs: opts.Jobs, BuildFlags: opts.BuildFlags, Verbose: opts.Verbose}, stdout, stderr)
	}
	rep, err := Run(set, opts)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint prove: %v\n", err)
		return exitFailure
	}
	if show != "" {
		return rep.Show(stdout, opts.Dir, show)
	}
	if verbose {
		rep.PrintMutants(stdout, opts.Dir)
	}
	rep.Print(stdout, opts.Dir)
	code := exitProved
	if !rep.Proved() {
		code = exitUnproved
	}
	if tcfg.Command != "" {
		tcfg.Dir = opts.Dir
		tr, err := RunTests(rep, tcfg, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "guardlint prove: %v\n", err)
			return exitFailure
		}
		tr.Print(stdout)
	}
	return code
}
