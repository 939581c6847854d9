// Package cli is guardlint's command line: subcommands, flags,
// configuration discovery, package loading, running the analyzers,
// printing findings and choosing the exit code. The go vet protocol is in
// vet.go, the subcommands other than the check itself in commands.go.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/guardlint/guardlint/analyzers/cliflag"
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/invariants"
)

// Exit codes of the standalone command, as the driver defines them.
const (
	ExitClean    = driver.ExitClean
	ExitFindings = driver.ExitFindings
	ExitConfig   = driver.ExitConfig
	ExitFailure  = driver.ExitFailure
)

// options are the parsed command line.
type options struct {
	config   string
	dir      string
	tests    bool
	build    cliflag.Build
	verbose  io.Writer // phase timings, or nil
	format   string    // formatText, formatJSON or formatSARIF
	patterns []string
	// parseBudget bounds each tree-sitter parse (docs/reliability.md).
	parseBudget time.Duration
	// failOn is the lightest severity that fails the run (-fail-on).
	failOn invariants.Severity
	// only and skip select invariants by id or glob (-only, -skip).
	only, skip []string
	// cache is the result cache's directory, "" with -cache=false.
	cache string
	// baseline and writeBaseline are the -baseline and -write-baseline
	// files, newFromRev the -new-from-rev revision; "" when not given.
	baseline, writeBaseline, newFromRev string
}

func (o *options) engine() driver.Options {
	return driver.Options{Dir: o.dir, Patterns: o.patterns, Tests: o.tests, Verbose: o.verbose, ParseBudget: o.parseBudget, BuildFlags: o.build.Flags(), Cache: o.cache}
}

// Main runs the standalone command and returns its exit code.
func Main(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) > 0 {
		if cmd := command(args[0]); cmd != nil {
			return cmd.run(args[1:], stdout, stderr, getenv)
		}
		if guess := unknownCommand(args[0]); guess != "" {
			fmt.Fprintf(stderr, "guardlint: unknown command %q; did you mean %s?\nRun 'guardlint help' for usage.\n", args[0], guess)
			return ExitConfig
		}
	}
	opts, err := parseFlags(args, stdout, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) || errors.Is(err, errVersion) {
			return ExitClean
		}
		return ExitConfig
	}
	set, code := loadInvariants(opts.config, opts.dir, getenv, stderr)
	if set == nil {
		return code
	}
	if err := set.Select(opts.only, opts.skip); err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return ExitConfig
	}
	res, err := driver.Run(set, opts.engine())
	if err != nil {
		// A name the packages leave ambiguous is an error of the invariants file.
		driver.PrintConfigError(stderr, err, opts.dir)
		if errors.As(err, new(invariants.ErrorList)) {
			return ExitConfig
		}
		return ExitFailure
	}
	cmp, err := compare(opts, res.Findings)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return ExitConfig
	}
	if err := writeFindings(stdout, opts, set, res, cmp.statuses); err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return ExitFailure
	}
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, "guardlint: "+n)
	}
	for _, e := range cmp.fixed {
		fmt.Fprintf(stderr, "guardlint: fixed since the baseline: %s:%d: %s\n", e.File, e.Line, e.Message)
	}
	fmt.Fprintln(stderr, summary(res, set, opts.patterns)+cmp.summary())
	for i, f := range res.Findings {
		if (cmp.statuses == nil || cmp.statuses[i] == driver.StatusNew) && driver.Fails(f, opts.failOn) {
			return ExitFindings
		}
	}
	return ExitClean
}

// loadInvariants finds and loads the invariants as every command does,
// printing why when it cannot: it returns the set, or nil and the exit
// code.
func loadInvariants(config, dir string, getenv func(string) string, stderr io.Writer) (*invariants.Set, int) {
	paths, err := driver.ConfigPaths(driver.SplitList(config), getenv, dir)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return nil, ExitConfig
	}
	set, err := driver.Load(paths...)
	if err != nil {
		driver.PrintConfigError(stderr, err, dir)
		return nil, ExitConfig
	}
	return set, ExitClean
}

// errVersion says that -version was given and answered.
var errVersion = errors.New("version printed")

func parseFlags(args []string, stdout, stderr io.Writer) (*options, error) {
	fs := cliflag.NewFlagSet("guardlint")
	opts := &options{}
	commonFlags(fs, &opts.config, &opts.dir)
	fs.BoolVar(&opts.tests, "tests", false, "also analyse test files")
	verbose := fs.Bool("v", false, "print the time of each phase to stderr")
	jsonOut := fs.Bool("json", false, "print the findings as one JSON document (docs/output.md)")
	sarifOut := fs.Bool("sarif", false, "print the findings as a SARIF 2.1.0 log (docs/output.md)")
	// Flags added since: keep new ones in this block.
	opts.build.Register(fs)
	showVersion := fs.Bool("version", false, "print guardlint's version and exit")
	fs.DurationVar(&opts.parseBudget, "parse-budget", core.DefaultParseBudget, "time a C, C++, CUDA or Rust parse may take, and as long again per MiB of the file; a file not parsed in time is a finding")
	failOn := fs.String("fail-on", string(invariants.SeverityError), "the lightest `severity` whose findings fail the run (exit 1): error, warning or note; lighter findings are printed and pass")
	fs.StringVar(&opts.baseline, "baseline", "", "a baseline `file` (written by -write-baseline): the findings it records are printed as baselined and do not fail the run; those gone are reported as fixed")
	fs.StringVar(&opts.writeBaseline, "write-baseline", "", "write the findings to a baseline `file` and pass; with -baseline, write only the findings still in it, so the file shrinks as they are fixed")
	fs.StringVar(&opts.newFromRev, "new-from-rev", "", "only findings on lines changed since `rev` (committed or not, and untracked files) fail the run; the others are printed as unchanged")
	useCache := fs.Bool("cache", true, "replay the result of a run whose inputs (sources and their dependencies, native files, invariants, guardlint itself) are all unchanged, from "+cacheDirText())
	only := fs.String("only", "", "check only the invariants whose `ids` (comma-separated ids or globs such as gpu-*) match")
	skip := fs.String("skip", "", "do not check the invariants whose `ids` (comma-separated ids or globs) match")
	if err := cliflag.Parse(fs, args, stderr, func() { usage(fs, stderr) }); err != nil {
		return nil, err
	}
	if *showVersion {
		fmt.Fprintln(stdout, versionLine())
		return nil, errVersion
	}
	format, err := outputFormat(*jsonOut, *sarifOut)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return nil, err
	}
	opts.format = format
	if opts.failOn, err = invariants.ParseSeverity(*failOn); err != nil {
		fmt.Fprintf(stderr, "guardlint: -fail-on: %v\n", err)
		return nil, err
	}
	opts.only, opts.skip = driver.SplitList(*only), driver.SplitList(*skip)
	if *useCache {
		opts.cache = driver.DefaultCacheDir()
	}
	if opts.parseBudget <= 0 {
		fmt.Fprintf(stderr, "guardlint: -parse-budget must be positive, not %v\n", opts.parseBudget)
		return nil, errors.New("bad -parse-budget")
	}
	if opts.dir, err = absDir(opts.dir); err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return nil, err
	}
	if *verbose {
		opts.verbose = stderr
	}
	opts.patterns = fs.Args()
	if len(opts.patterns) == 0 {
		opts.patterns = []string{"./..."}
	}
	return opts, nil
}

// cacheDirText names the cache directory in the help.
func cacheDirText() string {
	if dir := driver.DefaultCacheDir(); dir != "" {
		return dir
	}
	return "the user cache directory (none here)"
}

// commonFlags registers the flags every command that reads invariants
// has: -config and -C.
func commonFlags(fs *flag.FlagSet, config, dir *string) {
	fs.StringVar(config, "config", "", "comma-separated invariants files or directories (default: $"+driver.EnvConfig+", else the nearest "+driver.DefaultFile+" in the current directory or a parent, up to the repository root)")
	fs.StringVar(dir, "C", "", "run as if started in `dir`")
}

// absDir returns dir made absolute, or the working directory for "".
func absDir(dir string) (string, error) {
	if dir == "" {
		return os.Getwd()
	}
	return filepath.Abs(dir)
}
