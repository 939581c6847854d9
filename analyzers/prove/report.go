package prove

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
)

// letter is a verdict in the matrix.
var letter = map[Verdict]string{Killed: "K", Survived: "S", Void: "V"}

// Print writes the kill matrix, then every survivor, void mutant,
// vacuous or failing invariant with its reason, then a summary line.
// Paths are relative to dir.
func (r *Report) Print(w io.Writer, dir string) {
	for _, k := range registry.Kinds {
		r.printKind(w, k.Name)
	}
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	for _, ir := range r.Invariants {
		id := ir.Invariant.ID
		for _, f := range ir.Failing {
			add("failing   %s: %s", id, f.Format(dir))
		}
		for _, v := range ir.Vacuous {
			add("vacuous   %s: %s", id, v)
		}
		if ir.Skipped != "" && len(ir.Failing) == 0 {
			add("skipped   %s: %s", id, ir.Skipped)
		}
		for _, res := range ir.Results {
			switch res.Verdict {
			case Survived:
				add("survived  %s %s %s: %s", id, res.Mutant.Target, res.Mutant.Op, res.Detail)
			case Void:
				add("void      %s %s %s: %s", id, res.Mutant.Target, res.Mutant.Op, engineRel(dir, res.Detail))
			}
		}
		if len(ir.Results) > 0 && ir.Count(Killed) == 0 {
			add("unproved  %s: no mutant was killed", id)
		}
	}
	if len(lines) > 0 {
		fmt.Fprintln(w)
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	total := r.Mutants()
	count := func(v Verdict) int {
		n := 0
		for _, res := range total {
			if res.Verdict == v {
				n++
			}
		}
		return n
	}
	fmt.Fprintf(w, "\n%d invariants, %d mutants: %d killed, %d survived, %d void (%.1fs)\n",
		len(r.Invariants), len(total), count(Killed), count(Survived), count(Void), r.Elapsed.Seconds())
}

// printKind writes the matrix of one rule kind: one row per invariant and
// target (and site, when a target has several), one column per revert, in
// the order of the legend line.
func (r *Report) printKind(w io.Writer, kind invariants.Kind) {
	var ops []string
	seen := map[string]bool{}
	type row struct {
		id, target string
		cells      map[string]Verdict
	}
	var rows []*row
	byKey := map[string]*row{}
	for _, ir := range r.Invariants {
		if ir.Invariant.Kind() != kind {
			continue
		}
		for _, res := range ir.Results {
			m := res.Mutant
			// The reverts of one of several sites in a function (op@line)
			// are a row of their own: target@line.
			op, line, _ := strings.Cut(m.Op, "@")
			if !seen[op] {
				seen[op] = true
				ops = append(ops, op)
			}
			target := m.Target
			if line != "" {
				target += "@" + line
			}
			key := m.Invariant.ID + "\x00" + target
			rw := byKey[key]
			if rw == nil {
				rw = &row{id: m.Invariant.ID, target: target, cells: map[string]Verdict{}}
				byKey[key] = rw
				rows = append(rows, rw)
			}
			rw.cells[op] = res.Verdict
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: %s\n", kind, strings.Join(ops, " "))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, rw := range rows {
		cells := make([]string, len(ops))
		for i, op := range ops {
			cells[i] = "-"
			if v, ok := rw.cells[op]; ok {
				cells[i] = letter[v]
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", rw.id, rw.target, strings.Join(cells, " "))
	}
	tw.Flush()
}

// engineRel shortens absolute paths inside dir in a message.
func engineRel(dir, msg string) string {
	if dir == "" {
		return msg
	}
	return strings.ReplaceAll(msg, strings.TrimSuffix(dir, "/")+"/", "")
}

// Show prints one mutant: its verdict and the mutated function as the
// mutant has it. It returns the exit code: 0 when found, 2 when no mutant
// has that name.
func (r *Report) Show(w io.Writer, dir, name string) int {
	for _, res := range r.Mutants() {
		m := res.Mutant
		if m.Name != name {
			continue
		}
		fmt.Fprintf(w, "%s: %s %s", m.Name, res.Verdict, res.Detail)
		if m.Files == nil {
			fmt.Fprintln(w)
			return exitProved
		}
		fmt.Fprintf(w, "\n%s:%d-%d (%s)\n", core.RelPath(dir, m.Site.File), m.Site.Start, m.Site.End, m.Site.Func)
		lines := strings.Split(string(m.Files[m.Site.File]), "\n")
		for i := m.Site.Start; i <= m.Site.End && i <= len(lines); i++ {
			fmt.Fprintf(w, "%5d  %s\n", i, lines[i-1])
		}
		for file, data := range m.Files {
			if file != m.Site.File {
				fmt.Fprintf(w, "%s:\n%s", core.RelPath(dir, file), data)
			}
		}
		return exitProved
	}
	fmt.Fprintf(w, "no mutant named %s\n", name)
	return exitConfig
}

// PrintMutants writes one line per mutant: verdict, name (for -show) and
// detail.
func (r *Report) PrintMutants(w io.Writer, dir string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, res := range r.Mutants() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", res.Verdict, res.Mutant.Name, engineRel(dir, res.Detail))
	}
	tw.Flush()
	fmt.Fprintln(w)
}
