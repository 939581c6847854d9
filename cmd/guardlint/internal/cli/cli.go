// Package cli is guardlint's command line: flags, configuration
// discovery, package loading, running the analyzers, printing findings and
// choosing the exit code. The go vet protocol is in vet.go.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/cmd/guardlint/internal/prove"
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
	verbose  io.Writer // phase timings, or nil
	format   string    // formatText, formatJSON or formatSARIF
	patterns []string
	// parseBudget bounds each tree-sitter parse (docs/reliability.md).
	parseBudget time.Duration
}

func (o *options) engine() driver.Options {
	return driver.Options{Dir: o.dir, Patterns: o.patterns, Tests: o.tests, Verbose: o.verbose, ParseBudget: o.parseBudget}
}

// Main runs the standalone command and returns its exit code.
func Main(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) > 0 && args[0] == "prove" {
		return prove.Main(args[1:], stdout, stderr, getenv)
	}
	opts, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitClean
		}
		return ExitConfig
	}
	paths, err := driver.ConfigPaths(driver.SplitList(opts.config), getenv, opts.dir)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return ExitConfig
	}
	set, err := driver.Load(paths...)
	if err != nil {
		driver.PrintConfigError(stderr, err, opts.dir)
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
	if err := writeFindings(stdout, opts, set, res); err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return ExitFailure
	}
	if len(res.Findings) > 0 {
		return ExitFindings
	}
	return ExitClean
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("guardlint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := &options{}
	fs.StringVar(&opts.config, "config", "", "comma-separated invariants files or directories (default: $"+driver.EnvConfig+", else "+driver.DefaultFile+" at the module root)")
	fs.StringVar(&opts.dir, "C", "", "run as if started in `dir`")
	fs.BoolVar(&opts.tests, "tests", false, "also analyse test files")
	verbose := fs.Bool("v", false, "print the time of each phase to stderr")
	jsonOut := fs.Bool("json", false, "print the findings as one JSON document (docs/output.md)")
	sarifOut := fs.Bool("sarif", false, "print the findings as a SARIF 2.1.0 log (docs/output.md)")
	fs.DurationVar(&opts.parseBudget, "parse-budget", syntax.DefaultBudget, "time a C, C++, CUDA or Rust parse may take, and as long again per MiB of the file; a file not parsed in time is a finding")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: guardlint [flags] [packages]\n\nChecks the invariants declared in guardlint.yaml (or -config) over the packages (default ./...).\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nExit status: 0 clean, 1 findings, 2 unusable configuration, 3 packages failed to load.\n")
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	format, err := outputFormat(*jsonOut, *sarifOut)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint: %v\n", err)
		return nil, err
	}
	opts.format = format
	if opts.parseBudget <= 0 {
		fmt.Fprintf(stderr, "guardlint: -parse-budget must be positive, not %v\n", opts.parseBudget)
		return nil, errors.New("bad -parse-budget")
	}
	if opts.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "guardlint: %v\n", err)
			return nil, err
		}
		opts.dir = wd
	} else if abs, err := filepath.Abs(opts.dir); err == nil {
		opts.dir = abs
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
