// Command metal measures guardlint's reading of real Metal shaders, the
// MLX kernels kept in ../shared/corpus (relative to the repository root),
// and writes the mutants of their bounds checks.
//
//	go run ./bench/metal -corpus DIR [-erase A,B] [-rate=false]  # the parse rate
//	go run ./bench/metal -corpus DIR -mutants OUT        # OUT/guardlint.yaml, OUT/mutants/
//	go run ./bench/metal -score FINDINGS.json            # guardlint -json on OUT/guardlint.yaml
//
// The parse rate counts every function definition that the front end
// finds in the .metal and .h files of the corpus under `lang: metal`, and
// those that hold an ERROR or MISSING node (which guardlint cannot
// verify); each of those is printed with the line of its first error.
// -erase gives the macros an invariant would erase (`erase:`).
//
// The mutants revert the bounds check of each kernel in `checks`: the
// check deleted, moved below the access it guards, and put under `#if 0`.
// guardlint.yaml holds an order invariant (first: the check, then: the
// access) on each kernel of the corpus and on each mutant; -score checks
// that guardlint is silent on the kernels and flags every mutant.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/cfamily"
	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// check is a kernel's bounds check and the access it guards.
type check struct {
	file, kernel string
	// stmt is the text of the guard clause, as it stands in the file; the
	// first pattern is its condition.
	stmt, first string
	// access is the text of the statement holding the access, and then
	// the access's pattern.
	access, then string
}

// checks are the kernels whose bounds checks the mutants revert.
var checks = []check{
	{
		file: "conv.metal", kernel: "depthwise_conv_2d",
		stmt:   "if (oh >= params.oS[0] || ow >= params.oS[1]) {\n    return;\n  }",
		first:  "oh >= params.oS[0] || ow >= params.oS[1]",
		access: "out[c] = static_cast<T>(o);", then: "out[c]",
	},
	{
		file: "reduction/reduce_col.h", kernel: "col_reduce_small",
		stmt:   "if (column >= reduction_stride) {\n    return;\n  }",
		first:  "column >= reduction_stride",
		access: "in += in_idx + column;", then: "in_idx + column",
	},
}

func main() {
	corpus := flag.String("corpus", "", "the MLX kernels directory")
	erase := flag.String("erase", "", "comma-separated macros to erase, as an invariant's erase")
	mutants := flag.String("mutants", "", "write the bounds-check mutants and their invariants here")
	require := flag.Bool("rate", true, "fail when fewer than 95% of the definitions parse")
	score := flag.String("score", "", "read guardlint's -json findings on the mutants' invariants from this file")
	flag.Parse()
	if *score != "" {
		if err := scoreRun(*score); err != nil {
			fail(err)
		}
		return
	}
	if *corpus == "" {
		fail(fmt.Errorf("-corpus DIR is required"))
	}
	var macros []string
	if *erase != "" {
		macros = strings.Split(*erase, ",")
	}
	if *mutants != "" {
		if err := writeMutants(*corpus, *mutants, macros); err != nil {
			fail(err)
		}
		return
	}
	if err := parseRate(*corpus, macros, *require); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "metal:", err)
	os.Exit(2)
}

// parseRate prints how many function definitions parse, and each that
// does not.
func parseRate(dir string, macros []string, require bool) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && (strings.HasSuffix(p, ".metal") || strings.HasSuffix(p, ".h")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	total, bad := 0, 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := syntax.Parse("metal", p, syntax.EraseMacros(src, macros))
		if err != nil {
			return err
		}
		lines := strings.Split(string(src), "\n")
		for _, fn := range (cfamily.Language{Lang: "metal"}).Functions(f, &model.Config{}) {
			total++
			if b := syntax.FirstBad(fn.Node); b != nil {
				bad++
				pos := f.Position(b.Start)
				rel, _ := filepath.Rel(dir, p)
				fmt.Printf("does not parse: %s:%d %s (%s): %s\n", rel, f.Position(fn.Name.Start).Line, strings.Join(fn.Path, "::"), b.Kind, strings.TrimSpace(lines[pos.Line-1]))
			}
		}
	}
	rate := 100 * float64(total-bad) / float64(total)
	fmt.Printf("%d files, %d function definitions: %d parse (%.1f%%), %d do not\n", len(files), total, total-bad, rate, bad)
	if require && rate < 95 {
		return fmt.Errorf("fewer than 95%% of the definitions parse")
	}
	return nil
}

// writeMutants writes the invariants on the kernels and their mutants.
func writeMutants(corpus, out string, macros []string) error {
	abs, err := filepath.Abs(corpus)
	if err != nil {
		return err
	}
	var yaml strings.Builder
	yaml.WriteString("version: 1\ninvariants:\n")
	inv := func(id, file string, c check) {
		fmt.Fprintf(&yaml, "  - id: %s\n    why: a thread past the end of the grid must not touch memory\n    lang: metal\n    files: %q\n", id, file)
		if len(macros) > 0 {
			fmt.Fprintf(&yaml, "    erase: [%s]\n", strings.Join(macros, ", "))
		}
		fmt.Fprintf(&yaml, "    function: %s\n    order: {first: %q, then: %q}\n", c.kernel, c.first, c.then)
	}
	for i, c := range checks {
		path := filepath.Join(abs, c.file)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(data)
		// The check is the one statement of its text in the file; the
		// access it guards is the first of its text after it (a header
		// holds several kernels, which repeat the access).
		at := strings.Index(src, c.stmt)
		if at < 0 || strings.Count(src, c.stmt) != 1 || !strings.Contains(src[at:], c.access) {
			return fmt.Errorf("%s: the check of %s is not where this program expects it", c.file, c.kernel)
		}
		inv(fmt.Sprintf("kernel-%d", i), path, c)
		before, after := src[:at], src[at+len(c.stmt):]
		use := strings.Index(after, c.access) + len(c.access)
		for _, m := range []struct{ op, text string }{
			{"removed", before + after},
			{"moved", before + after[:use] + "\n  " + c.stmt + after[use:]},
			{"if0", before + "#if 0\n  " + c.stmt + "\n#endif" + after},
		} {
			op, text := m.op, m.text
			id := fmt.Sprintf("kernel-%d.%s", i, op)
			p := filepath.Join(out, "mutants", id, filepath.Base(c.file))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				return err
			}
			mp, err := filepath.Abs(p)
			if err != nil {
				return err
			}
			inv(id, mp, c)
		}
	}
	return os.WriteFile(filepath.Join(out, "guardlint.yaml"), []byte(yaml.String()), 0o644)
}

// scoreRun reads guardlint's findings on the invariants writeMutants
// wrote: none may be on a kernel as it stands (kernel-N), and every
// mutant (kernel-N.OP) must have one of its own.
func scoreRun(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc struct {
		Findings []struct {
			ID, File, Message string
			Line              int
		} `json:"findings"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	flagged := map[string]bool{}
	alarms := 0
	for _, f := range doc.Findings {
		flagged[f.ID] = true
		if !strings.Contains(f.ID, ".") {
			alarms++
			fmt.Printf("false alarm: %s %s:%d: %s\n", f.ID, f.File, f.Line, f.Message)
		}
	}
	missed, total := 0, 0
	for i := range checks {
		for _, op := range []string{"removed", "moved", "if0"} {
			total++
			if id := fmt.Sprintf("kernel-%d.%s", i, op); !flagged[id] {
				missed++
				fmt.Printf("missed: %s (%s in %s)\n", id, checks[i].kernel, checks[i].file)
			}
		}
	}
	fmt.Printf("%d kernels' bounds checks: %d reported as they stand; %d mutants: %d flagged, %d missed\n", len(checks), alarms, total, total-missed, missed)
	if alarms > 0 || missed > 0 {
		return fmt.Errorf("false alarms or missed mutants (above)")
	}
	return nil
}
