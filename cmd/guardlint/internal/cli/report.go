package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/invariants"
)

// Output formats of the standalone command.
const (
	formatText  = "text"  // one line per finding, file:line:col: message
	formatJSON  = "json"  // -json, see docs/output.md
	formatSARIF = "sarif" // -sarif, SARIF 2.1.0
)

// outputFormat picks the format from the -json and -sarif flags.
func outputFormat(jsonOut, sarifOut bool) (string, error) {
	switch {
	case jsonOut && sarifOut:
		return "", errors.New("-json and -sarif exclude each other")
	case jsonOut:
		return formatJSON, nil
	case sarifOut:
		return formatSARIF, nil
	}
	return formatText, nil
}

// writeFindings prints the findings of a run in the chosen format. The
// machine-readable formats print one document even when nothing was
// found, so that a consumer can tell "clean" from "did not run".
func writeFindings(w io.Writer, opts *options, set *invariants.Set, res *driver.Result) error {
	rep := driver.Report{Root: driver.RepoRoot(opts.dir), Set: set, Findings: res.Findings}
	switch opts.format {
	case formatJSON:
		return driver.JSON(w, rep)
	case formatSARIF:
		return driver.SARIF(w, rep, sarifVersion())
	}
	for _, f := range res.Findings {
		if _, err := fmt.Fprintln(w, f.Format(opts.dir)); err != nil {
			return err
		}
	}
	return nil
}
