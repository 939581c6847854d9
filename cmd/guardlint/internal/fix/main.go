package fix

import (
	"errors"
	"fmt"
	"io"

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
