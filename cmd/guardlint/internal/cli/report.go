package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/guardlint/guardlint/analyzers/core"

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
func writeFindings(w io.Writer, opts *options, set *invariants.Set, res *driver.Result, statuses []driver.Status) error {
	rep := driver.Report{Root: driver.RepoRoot(opts.dir), Set: set, Findings: res.Findings, Statuses: statuses}
	switch opts.format {
	case formatJSON:
		return driver.JSON(w, rep)
	case formatSARIF:
		return driver.SARIF(w, rep, sarifVersion())
	}
	for i, f := range res.Findings {
		line := textLine(f, opts.dir, rep.Root)
		if statuses != nil && statuses[i] != driver.StatusNew {
			// A finding that does not fail the run says why first.
			line = string(statuses[i]) + ": " + line
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// textLine is a finding as one line, its file relative to dir, the
// directory the command runs in, so that a terminal or an editor opens
// it. A file above dir but inside the repository (the invariants file at
// the root, when the command runs in a module below it) is written with
// "../" rather than as an absolute path, which would name the machine's
// directories; only a file outside the repository keeps its absolute
// path.
func textLine(f core.Finding, dir, root string) string {
	// A warning or a note says so before its message, as compilers do;
	// an error, the default, keeps the line every tool already parses.
	f.Message = driver.SeverityPrefix(driver.SeverityOf(f)) + f.Message
	if f.Pos.Filename == "" || !filepath.IsAbs(f.Pos.Filename) {
		return f.Format(dir)
	}
	if _, inside := relPathOK(root, f.Pos.Filename); inside {
		if rel, err := filepath.Rel(dir, f.Pos.Filename); err == nil {
			f.Pos.Filename = rel
		}
	}
	return f.Format(dir)
}

// relPathOK reports p relative to root and whether it lies inside root.
func relPathOK(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(rel) {
		return p, false
	}
	return rel, true
}
