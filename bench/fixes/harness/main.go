// Command harness runs `guardlint suggest` and `guardlint prove --revert`
// on the fix corpus of bench/fixes (selected.tsv, picked by bench/fixes/gen;
// expect.yaml, what each commit's author would keep, written before suggest
// ran on it) and prints the table and the rates of docs/fixes.md.
//
//	go run ./bench/fixes/harness -bin GUARDLINT -mirrors DIR [-only REPO,...] [-commits N] [-work DIR]
//	go run ./bench/fixes/harness -bin GUARDLINT -releases
//
// Per commit, in a scratch clone of the repository at the commit (a
// shared clone of the mirror, so that it costs no copy of the history):
//
//   - suggest: `guardlint suggest COMMIT`, its exit status and the
//     invariants it prints;
//   - clean: those invariants checked on the fixed tree (`guardlint`
//     with them as the invariants file): no finding is the target;
//   - merit: of the invariants that fire when the commit is reverted
//     (`guardlint prove --revert`), how many fire on their merits and how
//     many only because a name they use is gone from the reverted tree
//     (a finding that cannot verify);
//   - revert: prove --revert's verdict, with the hunks it leaves uncovered;
//   - match: whether one of the printed invariants is one the author
//     would keep: the same kind, and every name expect.yaml writes equal
//     to the invariant's by its last segment (`run` names `(worker).run`,
//     `mutex_` names `base_sink::mutex_`, `get_kernel` names
//     `Device::get_kernel(int)`).
//
// The rates: proposals that fail on the fixed code (target 0), commits
// with a matching proposal among those whose expectation a kind can
// express (target 75%), and the most proposals on a commit of one hunk
// (target 10).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/registry"
	"go.yaml.in/yaml/v3"
)

type commit struct {
	Repo, Lang, Commit, Parent, Subject string
}

type expectation struct {
	Commit string              `yaml:"commit"`
	Keep   []map[string]string `yaml:"keep"`
	None   string              `yaml:"none"`
	// Inexpressible says why the invariants written under keep, found
	// on re-reading the diff to be beyond every kind, are: keep stays as
	// written, and the commit leaves the rate's denominator, saying so.
	Inexpressible string `yaml:"inexpressible"`
}

// result is one row of the table.
type result struct {
	commit
	Expressible bool
	// Kinds are the kinds of the expectation that this build has.
	KindsKnown bool
	// Inexpressible is expect.yaml's reason, for a commit whose written
	// invariants no kind can state after all.
	Inexpressible string
	Exit          int
	Proposals     int
	Hunks         int
	Clean         string // "yes", "no: ...", "-" (nothing to check)
	Merit         int    // invariants that fire on the revert on their merits
	NameOnly      int    // those that fire only because a name is gone
	Revert        string // prove --revert's last line verdict
	Uncovered     int
	Match         bool
	// Printed are the printed invariants, as "kind target name".
	Printed []string
	Note    string
	Seconds float64
}

var kindNames = []string{"hold", "requires", "excludes", "call", "forbid", "order", "owns", "guarded_by", "lockorder", "neveracquires"}

// harness is the command; it returns the exit status, so that the
// deferred removal of the scratch directory runs before main exits.
func harness() int {
	bin := flag.String("bin", "", "the guardlint binary")
	mirrors := flag.String("mirrors", "", "directory of the repositories' git directories (OWNER+NAME or OWNER+NAME/repo)")
	only := flag.String("only", "", "comma-separated repositories to run (default all)")
	max := flag.Int("commits", 0, "at most this many commits per repository (0: all)")
	work := flag.String("work", "", "scratch directory (default a temporary one)")
	jsonOut := flag.String("json", "", "write the rows as JSON to this file")
	from := flag.String("from", "", "print the table and rates of rows saved with -json (comma-separated files, in order) instead of running")
	checkOnly := flag.Bool("check", false, "only check the corpus files: every picked commit has its expectation, and each expectation names a kind and its keys")
	releases := flag.Bool("releases", false, "rerun the commits of releases.tsv, each rebuilt from two releases of its module that the Go module proxy serves, and exit 1 when a row departs from results.md's")
	gate := flag.Bool("gate", false, "exit 1 when a target is missed: a proposal fails on the fixed code, or a commit of one hunk has more than 10")
	flag.Parse()
	if *checkOnly {
		check(checkCorpus(filepath.Join("bench", "fixes")))
		fmt.Println("bench/fixes: every picked commit has its written expectation")
		return 0
	}
	if *from != "" {
		var rows []*result
		for _, f := range strings.Split(*from, ",") {
			data, err := os.ReadFile(f)
			check(err)
			var part []*result
			check(json.Unmarshal(data, &part))
			rows = append(rows, part...)
		}
		printTable(rows)
		return 0
	}
	if *bin == "" || (*mirrors == "") == !*releases {
		fmt.Fprintln(os.Stderr, "usage: harness -bin GUARDLINT -mirrors DIR [-only REPO,...] [-commits N] [-work DIR]\n       harness -bin GUARDLINT -releases [-work DIR]")
		return 2
	}
	here := filepath.Join("bench", "fixes")
	commits, err := readSelected(filepath.Join(here, "selected.tsv"))
	check(err)
	expects, err := readExpect(filepath.Join(here, "expect.yaml"))
	check(err)
	if *work == "" {
		*work, err = os.MkdirTemp("", "fixes")
		check(err)
		defer os.RemoveAll(*work)
	}
	if *releases {
		if departed := rerunReleases(*bin, *work, commits, expects); departed > 0 {
			return 1
		}
		return 0
	}
	kinds := knownKinds()
	perRepo := map[string]int{}
	var rows []*result
	for _, c := range commits {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), c.Repo) {
			continue
		}
		if *max > 0 && perRepo[c.Repo] >= *max {
			continue
		}
		perRepo[c.Repo]++
		e := findExpect(expects, c.Commit)
		if e == nil {
			check(fmt.Errorf("%s %s: no expectation in expect.yaml", c.Repo, c.Commit))
		}
		r := run(*bin, *mirrors, *work, c, e, kinds)
		rows = append(rows, r)
		fmt.Fprintf(os.Stderr, "%s %s: %d proposals, clean %s, revert %s, match %v (%.0fs)%s\n", c.Repo, c.Commit[:10], r.Proposals, r.Clean, r.Revert, r.Match, r.Seconds, noteSuffix(r.Note))
	}
	status := 0
	failing, most := printTable(rows)
	if *gate && (failing > 0 || most > 10) {
		fmt.Fprintf(os.Stderr, "harness: %d commits with a proposal failing on the fixed code, %d proposals on a commit of one hunk\n", failing, most)
		status = 1
	}
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(rows, "", "  ")
		check(os.WriteFile(*jsonOut, data, 0o644))
	}
	return status
}

func main() { os.Exit(harness()) }

func noteSuffix(n string) string {
	if n == "" {
		return ""
	}
	return "; " + n
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

func readSelected(path string) ([]commit, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []commit
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if i == 0 {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 6", path, i+1, len(f))
		}
		out = append(out, commit{Repo: f[0], Lang: f[1], Commit: f[2], Parent: f[3], Subject: f[5]})
	}
	return out, nil
}

func readExpect(path string) ([]expectation, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []expectation
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, e := range out {
		if (len(e.Keep) == 0) == (e.None == "") {
			return nil, fmt.Errorf("%s: commit %s: give keep or none, one of them", path, e.Commit)
		}
		if e.Inexpressible != "" && len(e.Keep) == 0 {
			return nil, fmt.Errorf("%s: commit %s: inexpressible says why a written keep is beyond every kind; give the keep as written", path, e.Commit)
		}
	}
	return out, nil
}

func findExpect(es []expectation, sha string) *expectation {
	for i := range es {
		if strings.HasPrefix(sha, es[i].Commit) {
			return &es[i]
		}
	}
	return nil
}

// knownKinds are the kinds of this source tree's registry, which the
// binary is built from.
func knownKinds() map[string]bool {
	known := map[string]bool{}
	for _, s := range registry.Specs() {
		known[string(s.Name)] = true
	}
	return known
}

func gitDir(mirrors, repo string) string {
	d := filepath.Join(mirrors, strings.Replace(repo, "/", "+", 1))
	if _, err := os.Stat(filepath.Join(d, "repo")); err == nil {
		return filepath.Join(d, "repo")
	}
	return d
}

func run(bin, mirrors, work string, c commit, e *expectation, kinds map[string]bool) *result {
	start := time.Now()
	r := newResult(c, e, kinds)
	defer func() { r.Seconds = time.Since(start).Seconds() }()
	dir := filepath.Join(work, strings.Replace(c.Repo, "/", "+", 1)+"-"+c.Commit[:10])
	os.RemoveAll(dir)
	if out, err := exec.Command("git", "clone", "--quiet", "--shared", "--no-checkout", gitDir(mirrors, c.Repo), dir).CombinedOutput(); err != nil {
		r.Note = "clone: " + firstLine(string(out))
		return r
	}
	defer os.RemoveAll(dir)
	if out, err := git(dir, "checkout", "--quiet", "--detach", c.Commit); err != nil {
		r.Note = "checkout: " + firstLine(out)
		return r
	}
	measure(bin, dir, c.Commit, c.Parent, e, r)
	return r
}

// measure runs suggest, the check at the fix and prove --revert on the
// commit REV (whose first parent is PARENT) checked out in dir, and
// fills r, the row of the corpus's commit.
func measure(bin, dir, rev, parent string, e *expectation, r *result) {
	hunks, _ := git(dir, "diff", "-U0", parent, rev)
	r.Hunks = strings.Count(hunks, "\n@@ ")
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "suggest", rev)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	r.Exit = exitCode(cmd.Run())
	props := parseProposals(stdout.Bytes())
	r.Proposals = len(props)
	for _, p := range props {
		target := strings.Join(append(p.names["function"], p.names["field"]...), ",")
		var rest []string
		for k, v := range p.names {
			if k != "function" && k != "field" {
				rest = append(rest, k+"="+strings.Join(v, ","))
			}
		}
		slices.Sort(rest)
		r.Printed = append(r.Printed, p.kind+" "+target+" "+strings.Join(rest, " "))
	}
	if r.Exit > 1 {
		r.Note = "suggest exit " + fmt.Sprint(r.Exit) + ": " + firstLine(stderr.String())
	} else if len(props) == 0 {
		r.Note = nothingWhy(stdout.String(), stderr.String())
	}
	for _, k := range e.Keep {
		for _, p := range props {
			if matches(k, p) {
				r.Match = true
			}
		}
	}
	if len(props) == 0 {
		r.Clean, r.Revert = "-", "-"
		return
	}
	cfg := filepath.Join(dir, "guardlint-fixes-harness.yaml")
	if err := os.WriteFile(cfg, stdout.Bytes(), 0o644); err != nil {
		r.Note = err.Error()
		return
	}
	// Clean at the fix: the invariants checked on the fixed tree.
	var now bytes.Buffer
	cmd = exec.Command(bin, "-config", cfg, "./...")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &now, &now
	switch code := exitCode(cmd.Run()); code {
	case 0:
		r.Clean = "yes"
	case 1:
		r.Clean = "no: " + firstLine(findingLines(now.String()))
	default:
		r.Clean = fmt.Sprintf("exit %d: %s", code, firstLine(now.String()))
	}
	// The revert: which invariants fire, on their merits or for a name.
	var reverted bytes.Buffer
	cmd = exec.Command(bin, "prove", "--revert", rev, "-config", cfg, "./...")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &reverted, &reverted
	exitCode(cmd.Run())
	r.Revert, r.Uncovered, r.Merit, r.NameOnly = readRevert(reverted.String())
}

// newResult is the row of commit c before anything ran: what its
// expectation says.
func newResult(c commit, e *expectation, kinds map[string]bool) *result {
	r := &result{commit: c, Expressible: len(e.Keep) > 0 && e.Inexpressible == "", KindsKnown: true, Inexpressible: e.Inexpressible}
	for _, k := range e.Keep {
		if !kinds[k["kind"]] {
			r.KindsKnown = false
		}
	}
	return r
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-c", "core.quotepath=off"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

func findingLines(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, ": invariant ") {
			return l
		}
	}
	return s
}

// nothingWhy is the reason suggest gave for proposing nothing: its
// "nothing to suggest" line, else its first note.
func nothingWhy(stdout, stderr string) string {
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, "nothing to suggest") {
			return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "[]# "))
		}
	}
	return firstLine(stderr)
}

// proposal is one printed invariant, its names by key.
type proposal struct {
	kind  string
	names map[string][]string
}

func parseProposals(out []byte) []proposal {
	var doc struct {
		Invariants []map[string]any `yaml:"invariants"`
	}
	if err := yaml.Unmarshal(out, &doc); err != nil {
		return nil
	}
	var ps []proposal
	for _, inv := range doc.Invariants {
		p := proposal{names: map[string][]string{}}
		for k, v := range inv {
			switch {
			case k == "function" || k == "field":
				p.names[k] = append(p.names[k], fmt.Sprint(v))
			case k == "functions":
				p.names["function"] = append(p.names["function"], asList(v)...)
			case slices.Contains(kindNames, k):
				p.kind = k
				if m, ok := v.(map[string]any); ok {
					for rk, rv := range m {
						p.names[rk] = append(p.names[rk], asList(rv)...)
					}
				}
			}
		}
		ps = append(ps, p)
	}
	return ps
}

func asList(v any) []string {
	switch v := v.(type) {
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, fmt.Sprint(x))
		}
		return out
	default:
		return []string{fmt.Sprint(v)}
	}
}

// matches reports whether the proposal is the expected invariant.
func matches(want map[string]string, p proposal) bool {
	if want["kind"] != p.kind {
		return false
	}
	for k, v := range want {
		if k == "kind" {
			continue
		}
		if !slices.ContainsFunc(p.names[k], func(n string) bool { return last(n) == last(v) }) {
			return false
		}
	}
	return true
}

var params = regexp.MustCompile(`\([^()]*\)$|\[[^\[\]]*\]`)

// last is a name's last segment, without a parameter list, type
// arguments or a receiver's parentheses.
func last(name string) string {
	name = strings.TrimSpace(name)
	for {
		n := params.ReplaceAllString(name, "")
		if n == name {
			break
		}
		name = n
	}
	name = strings.NewReplacer("(*", "", "(", "", ")", "", "&", "", "!", "").Replace(name)
	for _, sep := range []string{"::", "->", "."} {
		if i := strings.LastIndex(name, sep); i >= 0 {
			name = name[i+len(sep):]
		}
	}
	return name
}

var revertLine = regexp.MustCompile(`^revert \S+: (\w+)(?:; (\d+) of \d+ hunks? uncovered)?`)

// readRevert reads prove --revert's output: its verdict, the uncovered
// hunks, and the invariants caught on merit or only for a missing name.
func readRevert(out string) (verdict string, uncovered, merit, nameOnly int) {
	verdict = "error: " + firstLine(out)
	byID := map[string]bool{} // id -> fires on merit
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	inCaught := false
	for sc.Scan() {
		l := sc.Text()
		if m := revertLine.FindStringSubmatch(l); m != nil {
			verdict = m[1]
			if m[2] != "" {
				_, _ = fmt.Sscan(m[2], &uncovered) // a digit string: the regexp matched it
			}
		}
		if strings.HasPrefix(l, "caught by ") {
			inCaught = true
			continue
		}
		if inCaught && !strings.HasPrefix(l, "  ") {
			inCaught = false
		}
		if inCaught {
			i := strings.Index(l, ": invariant ")
			if i < 0 {
				continue
			}
			rest := l[i+len(": invariant "):]
			id := rest[:strings.IndexByte(rest+":", ':')]
			onMerit := !strings.Contains(rest, "cannot verify")
			byID[id] = byID[id] || onMerit
		}
	}
	for _, m := range byID {
		if m {
			merit++
		} else {
			nameOnly++
		}
	}
	return verdict, uncovered, merit, nameOnly
}

// checkCorpus checks the corpus files without running anything: every
// commit of selected.tsv has one expectation, each keep names a kind of
// kindNames and at least one name, and no expectation is left over.
func checkCorpus(dir string) error {
	commits, err := readSelected(filepath.Join(dir, "selected.tsv"))
	if err != nil {
		return err
	}
	expects, err := readExpect(filepath.Join(dir, "expect.yaml"))
	if err != nil {
		return err
	}
	used := map[string]bool{}
	for _, c := range commits {
		var found []string
		for _, e := range expects {
			if strings.HasPrefix(c.Commit, e.Commit) {
				found = append(found, e.Commit)
			}
		}
		if len(found) != 1 {
			return fmt.Errorf("%s %s: %d expectations, want 1", c.Repo, c.Commit, len(found))
		}
		used[found[0]] = true
	}
	for _, e := range expects {
		if !used[e.Commit] {
			return fmt.Errorf("expect.yaml: commit %s is not in selected.tsv", e.Commit)
		}
		for _, k := range e.Keep {
			if !slices.Contains(kindNames, k["kind"]) || len(k) < 2 {
				return fmt.Errorf("expect.yaml: commit %s: %v: give a kind and a name", e.Commit, k)
			}
		}
	}
	return nil
}

func printTable(rows []*result) (failingCommits, mostOneHunk int) {
	fmt.Println("| repository | commit | subject | author would keep | proposals (hunks) | clean at the fix | fires on the revert: merit / name only | prove --revert | match |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	var (
		failing, expressible, expressibleKnown, matched, matchedKnown, maxOneHunk, total, inexpressible int
	)
	for _, r := range rows {
		if r.Inexpressible != "" {
			inexpressible++
		}
		if strings.HasPrefix(r.Clean, "no") {
			failing++
		}
		if r.Expressible {
			expressible++
			if r.KindsKnown {
				expressibleKnown++
			}
			if r.Match {
				matched++
				if r.KindsKnown {
					matchedKnown++
				}
			}
		}
		if r.Hunks == 1 && r.Proposals > maxOneHunk {
			maxOneHunk = r.Proposals
		}
		total += r.Proposals
		fmt.Println(tableRow(r))
	}
	fmt.Println()
	fmt.Printf("commits: %d; proposals: %d; proposals failing on the fixed code: %d (of commits)\n", len(rows), total, failing)
	fmt.Printf("a matching proposal: %d of %d commits whose written invariant a kind can express (%s); %d of %d with the kinds of this build (%s)\n",
		matched, expressible, pct(matched, expressible), matchedKnown, expressibleKnown, pct(matchedKnown, expressibleKnown))
	if inexpressible > 0 {
		fmt.Printf("(%d commits whose written invariant names a kind are left out of these rates: on re-reading, no kind can state it (expect.yaml says why); counted with them, %d of %d (%s))\n",
			inexpressible, matched, expressible+inexpressible, pct(matched, expressible+inexpressible))
	}
	fmt.Printf("most proposals on a commit of one hunk: %d\n", maxOneHunk)
	return failing, maxOneHunk
}

// tableRow is r's row of the table, every figure of the commit in it:
// the rerun from releases compares rows as printed.
func tableRow(r *result) string {
	keep := "none"
	if r.Inexpressible != "" {
		keep = "a kind as written; none on re-reading: " + strings.ReplaceAll(r.Inexpressible, "|", "\\|")
	}
	match := "-"
	if r.Expressible {
		keep, match = "a kind", "no"
		if !r.KindsKnown {
			keep = "a kind not in this build"
		}
		if r.Match {
			match = "yes"
		}
	}
	subject := r.Subject
	if len(subject) > 60 {
		subject = subject[:57] + "..."
	}
	subject = strings.ReplaceAll(subject, "|", "\\|")
	revert := r.Revert
	if r.Uncovered > 0 {
		revert += fmt.Sprintf(", %d uncovered", r.Uncovered)
	}
	note := ""
	if r.Note != "" {
		note = " (" + strings.ReplaceAll(r.Note, "|", "\\|") + ")"
	}
	return fmt.Sprintf("| %s | `%s` | %s | %s | %d (%d)%s | %s | %d / %d | %s | %s |", r.Repo, r.Commit[:10], subject, keep, r.Proposals, r.Hunks, note, r.Clean, r.Merit, r.NameOnly, revert, match)
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}
