package driver

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
)

// ChangedLines are the lines of the repository changed since a revision:
// by file (absolute, cleaned), the added or modified line numbers, and
// for a deletion the line after which lines were removed (0 at the top);
// nil for a whole file (an untracked file).
type ChangedLines map[string]map[int]bool

// ChangedSince lists the lines that differ between rev and the working
// tree of the repository at root, committed or not, with the untracked
// files (not ignored) as changed throughout: what a change under review
// adds, as golangci-lint's --new-from-rev sees it.
func ChangedSince(root, rev string) (ChangedLines, error) {
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("-new-from-rev %q: a revision, not a flag", rev)
	}
	git := func(args ...string) ([]byte, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("-new-from-rev %s: git %s: %w: %s", rev, args[0], err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	if _, err := git("rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("-new-from-rev %s: not a revision of the repository at %s", rev, root)
	}
	diff, err := git("diff", "--no-color", "--no-ext-diff", "--no-renames", "-U0", rev, "--")
	if err != nil {
		return nil, err
	}
	out := ChangedLines{}
	var file string
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			file = ""
			if name, ok := strings.CutPrefix(line, "+++ b/"); ok {
				file = filepath.Join(root, filepath.FromSlash(name))
				if out[file] == nil {
					out[file] = map[int]bool{}
				}
			}
		case strings.HasPrefix(line, "@@ ") && file != "":
			start, count, err := hunkTarget(line)
			if err != nil {
				return nil, fmt.Errorf("-new-from-rev %s: %w", rev, err)
			}
			for l := start; l < start+count; l++ {
				out[file][l] = true
			}
			if count == 0 {
				// A deletion: the lines went after line start. A lock
				// deleted above a statement changes what the statement
				// means, so the place counts as changed.
				out[file][start] = true
			}
		}
	}
	untracked, err := git("ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	for _, name := range strings.Split(string(untracked), "\x00") {
		if name != "" {
			out[filepath.Join(root, filepath.FromSlash(name))] = nil
		}
	}
	return out, nil
}

// hunkTarget reads the new side of a hunk header, "@@ -a,b +c,d @@":
// its first line and its number of lines (1 when ",d" is absent).
func hunkTarget(header string) (int, int, error) {
	fields := strings.Fields(header)
	if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, fmt.Errorf("unreadable hunk header %q", header)
	}
	startS, countS, hasCount := strings.Cut(fields[2][1:], ",")
	start, err := strconv.Atoi(startS)
	if err != nil {
		return 0, 0, fmt.Errorf("unreadable hunk header %q", header)
	}
	count := 1
	if hasCount {
		if count, err = strconv.Atoi(countS); err != nil {
			return 0, 0, fmt.Errorf("unreadable hunk header %q", header)
		}
	}
	return start, count, nil
}

// Mark sets to StatusUnchanged the findings that statuses holds as new
// and that lie where nothing changed since the revision. A finding with
// no place, and one in an invariants file (an invariant that cannot be
// verified: a rename in the code breaks it without touching its line),
// stays new: it fails the run whatever changed.
//
// A finding is often reported on a line the change did not touch: a
// deleted Lock makes the next statement the one where the lock is not
// held, and the function's name line reports a lock never taken. So the
// unit of "changed" is wider than the line: in a Go file, the function
// declaration that holds the finding (a change anywhere in it counts); in
// a file of another language, which this package does not parse, the
// whole file. Both err toward failing: a finding that the change may have
// caused is never passed as old.
func (c ChangedLines) Mark(fs []core.Finding, statuses []Status) {
	funcs := map[string][]lineRange{}
	for i, f := range fs {
		if statuses[i] != StatusNew || f.Pos.Filename == "" || (f.Invariant != nil && f.Pos.Filename == f.Invariant.Pos.File) {
			continue
		}
		file := filepath.Clean(f.Pos.Filename)
		lines, ok := c[file]
		if ok && lines == nil {
			continue // an untracked file
		}
		region := lineRange{f.Pos.Line, f.Pos.Line}
		if strings.HasSuffix(file, ".go") {
			ranges, seen := funcs[file]
			if !seen {
				ranges = goFuncRanges(file)
				funcs[file] = ranges
			}
			for _, r := range ranges {
				if r.from <= f.Pos.Line && f.Pos.Line <= r.to {
					region = r
					break
				}
			}
		} else if len(lines) > 0 {
			continue // another language: any change in the file counts
		}
		if region.from == region.to {
			// A finding's own line: a deletion just above it (recorded
			// at the line before) is a change of it too.
			region.from--
		}
		changed := false
		for l := region.from; l <= region.to && !changed; l++ {
			changed = lines[l]
		}
		if !changed {
			statuses[i] = StatusUnchanged
		}
	}
}

// lineRange is an inclusive range of lines.
type lineRange struct{ from, to int }

// goFuncRanges lists the lines of the function declarations of a Go
// file, or none when it does not parse (each finding is then its own
// line).
func goFuncRanges(file string) []lineRange {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []lineRange
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			out = append(out, lineRange{fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
		}
	}
	return out
}
