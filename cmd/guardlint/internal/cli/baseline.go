package cli

import (
	"fmt"
	"path/filepath"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
)

// comparison is what -baseline, -write-baseline and -new-from-rev make
// of a run's findings.
type comparison struct {
	// statuses, parallel to the findings; nil when none of the flags was
	// given.
	statuses []driver.Status
	// fixed are the baseline's entries no finding matches any more.
	fixed []driver.BaselineEntry
	// written is the number of findings written to -write-baseline, -1
	// when not given.
	written int
}

// compare applies the flags to the findings, in this order: the baseline
// marks what it holds, -new-from-rev marks the findings on unchanged
// lines among the rest, and -write-baseline writes the file (and then
// every finding it holds is baselined: writing a baseline passes).
func compare(opts *options, fs []core.Finding) (*comparison, error) {
	c := &comparison{written: -1}
	if opts.baseline == "" && opts.writeBaseline == "" && opts.newFromRev == "" {
		return c, nil
	}
	root := driver.RepoRoot(opts.dir)
	c.statuses = make([]driver.Status, len(fs))
	for i := range c.statuses {
		c.statuses[i] = driver.StatusNew
	}
	if opts.baseline != "" {
		b, err := driver.ReadBaseline(inDir(opts.dir, opts.baseline))
		if err != nil {
			return nil, err
		}
		c.fixed = b.Compare(root, fs, c.statuses)
	}
	if opts.newFromRev != "" {
		changed, err := driver.ChangedSince(root, opts.newFromRev)
		if err != nil {
			return nil, err
		}
		changed.Mark(fs, c.statuses)
	}
	if opts.writeBaseline != "" {
		keep := fs
		if opts.baseline != "" {
			keep = driver.Baselined(fs, c.statuses)
		}
		if err := driver.WriteBaseline(inDir(opts.dir, opts.writeBaseline), root, keep); err != nil {
			return nil, fmt.Errorf("-write-baseline: %w", err)
		}
		c.written = len(keep)
		if opts.baseline == "" {
			for i := range c.statuses {
				c.statuses[i] = driver.StatusBaselined
			}
		}
	}
	return c, nil
}

// summary is what the comparison adds to the summary line.
func (c *comparison) summary() string {
	if c.statuses == nil {
		return ""
	}
	n := map[driver.Status]int{}
	for _, s := range c.statuses {
		n[s]++
	}
	s := fmt.Sprintf("; %d new", n[driver.StatusNew])
	if n[driver.StatusBaselined] > 0 {
		s += fmt.Sprintf(", %d baselined", n[driver.StatusBaselined])
	}
	if n[driver.StatusUnchanged] > 0 {
		s += fmt.Sprintf(", %d on unchanged lines", n[driver.StatusUnchanged])
	}
	if len(c.fixed) > 0 {
		s += fmt.Sprintf(", %d fixed since the baseline", len(c.fixed))
	}
	if c.written >= 0 {
		s += fmt.Sprintf("; baseline written with %s", plural(c.written, "finding"))
	}
	return s
}

// inDir makes a path given on the command line relative to the
// directory the command runs in (-C).
func inDir(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}
