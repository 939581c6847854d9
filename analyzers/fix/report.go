package fix

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/guardlint/guardlint/analyzers/core"
)

// Print writes the report: the revert's verdict with the findings that
// catch it, then the verdict on each hunk the change added.
func (r *Report) Print(w io.Writer, dir string) {
	c := r.Change
	fmt.Fprintf(w, "revert %s (%s)\n", c.Short, c.Title)
	if len(r.Failing) > 0 {
		fmt.Fprintf(w, "the invariants fail before anything is reverted; fix these first:\n")
		for _, f := range r.Failing {
			fmt.Fprintf(w, "  %s\n", f.Format(dir))
		}
		fmt.Fprintf(w, "revert %s: not proved\n", c.Short)
		return
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "  not checked: %s (%s)\n", s.File, s.Why)
	}
	switch r.Verdict {
	case Caught:
		by := r.Catchers()
		fmt.Fprintf(w, "caught by %s: %s\n", plural(len(by), "invariant"), strings.Join(named(by), ", "))
		for _, f := range r.Findings {
			fmt.Fprintf(w, "  %s\n", f.Format(dir))
		}
	case Void:
		fmt.Fprintf(w, "void: the reverted tree does not type-check, so no invariant was checked:\n  %s\n", indent(r.Detail))
	case Missed:
		fmt.Fprintf(w, "missed: every invariant holds on the reverted tree\n")
	}
	if len(r.Hunks) > 0 {
		files := map[string]bool{}
		for _, h := range r.Hunks {
			files[h.File] = true
		}
		fmt.Fprintf(w, "hunks the change added, each removed alone (%s in %s):\n", plural(len(r.Hunks), "hunk"), plural(len(files), "file"))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, h := range r.Hunks {
			what := ""
			switch h.Verdict {
			case Caught:
				what = strings.Join(h.By, ", ")
			case Void:
				what = "does not type-check: " + firstLine(h.Detail)
			case NoCode:
				what = "comments and blank lines only"
			case Uncovered:
				what = "no invariant fires"
			}
			fmt.Fprintf(tw, "  %s\t%s:%s\t%s\n", h.Verdict, h.File, hunkRange(h.Hunk), what)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "revert %s: %s", c.Short, r.Verdict)
	if n := len(r.Uncovered()); n > 0 {
		fmt.Fprintf(w, "; %d of %s uncovered", n, plural(len(r.Hunks), "hunk"))
	}
	fmt.Fprintf(w, " (%.1fs)\n", r.Elapsed.Seconds())
}

// named writes the run-wide error's empty id readably.
func named(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		if id == "" {
			id = "(an error of the run)"
		}
		out[i] = id
	}
	return out
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// firstLine returns the first line of a type-checking failure that says
// what is wrong (go list's "# package" headers say nothing).
func firstLine(s string) string {
	s = strings.TrimPrefix(s, "guardlint checks only code that type-checks:\n")
	for _, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "-: #") && !strings.HasPrefix(t, "#") {
			return t
		}
	}
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n  ") }

// findingLines formats findings one per line, for tests and messages.
func findingLines(fs []core.Finding, dir string) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Format(dir)
	}
	return out
}
