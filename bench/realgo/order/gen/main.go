// Command gen lists the lock orders and lock exclusions that the comments
// of the real Go corpus document, and checks that the order corpus
// (bench/realgo/order/guardlint.yaml) states each of them as an
// invariant, or says why it cannot.
//
//	go run ./bench/realgo/order/gen            # list what the rule picks
//	go run ./bench/realgo/order/gen -check     # fail unless the corpus covers exactly that
//	go run ./bench/realgo/order/gen -packages  # the packages the corpus's invariants concern
//
// The rule was written before guardlint first ran over the corpus, and is
// not narrowed after seeing results: a documented order or exclusion that
// guardlint judges wrongly is a bug to fix or a limit to document, never a
// comment to leave out. A comment line is picked when
//
//  1. it is in a non-test Go file that the go command compiles for the
//     host platform, of a package of the standard library (the "std"
//     pattern) or of the modules pinned in
//     bench/realgo/corpus/go.mod (github.com/hashicorp/golang-lru/v2,
//     github.com/nats-io/nats.go, github.com/patrickmn/go-cache,
//     go.etcd.io/bbolt), every package of each;
//  2. it matches, ignoring case, the regular expression pickRE: a lock
//     order ("lock order", "locking order", "lock ordering"), an
//     acquisition before another ("acquire before", "lock X before",
//     "before the X lock"), or a lock that must not be held ("should not
//     be held", "must not be held", "not be called while holding", "is not
//     held while", "must not hold", "should not hold", "without holding").
//
// Each picked line is stated, in the corpus file, by a lock_order or
// excludes invariant whose ref is the line (std:path:line for the standard
// library, module@version/path:line for a module), or listed in
// unexpressed below with the reason no invariant of guardlint can state it
// (the lock is not a sync mutex; the comment speaks of no lock ordering).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/guardlint/guardlint/analyzers/golang/mutate"
	"github.com/guardlint/guardlint/analyzers/registry"
	"golang.org/x/tools/go/packages"
)

// pickRE is the corpus rule's expression (see the package comment).
var pickRE = regexp.MustCompile(`(?i)(lock(ing)?[ -]order(ing)?|acquire[sd]? before|\block \w+ before\b|before the \w+ lock|(should|must) not be held|not be called while holding|is not held while|must not hold|should not hold|without holding)`)

// modules are the pinned modules of the corpus.
var modules = []string{
	"github.com/hashicorp/golang-lru/v2",
	"github.com/nats-io/nats.go",
	"github.com/patrickmn/go-cache",
	"go.etcd.io/bbolt",
}

// unexpressed holds the picked lines that no invariant states, with why.
var unexpressed = map[string]string{
	"std:internal/chacha8rand/chacha8.go:51": "the per-m lock is the runtime's, not a sync mutex",
	"std:net/http/h2_bundle.go:7678":         "reqHeaderMu is a channel used as a semaphore, not a sync mutex",
	"std:runtime/coro.go:161":                runtimeLocks,
	"std:runtime/malloc.go:910":              runtimeLocks,
	"std:runtime/malloc.go:931":              runtimeLocks,
	"std:runtime/mgcpacer.go:692":            runtimeLocks,
	"std:runtime/mheap.go:1218":              runtimeLocks,
	"std:runtime/mheap.go:831":               runtimeLocks,
	"std:runtime/mpagealloc.go:445":          runtimeLocks,
	"std:runtime/mprof.go:1144":              runtimeLocks,
	"std:runtime/proc.go:1519":               runtimeLocks,
	"std:runtime/proc.go:3029":               runtimeLocks,
	"std:runtime/proc.go:6682":               runtimeLocks,
	"std:runtime/runtime2.go:563":            runtimeLocks,
	"std:runtime/rwmutex.go:40":              runtimeLocks,
	"std:runtime/rwmutex.go:56":              runtimeLocks,
	"std:runtime/rwmutex.go:58":              runtimeLocks,
	"std:runtime/select.go:173":              runtimeLocks,
	"std:runtime/select.go:206":              runtimeLocks,
	"std:runtime/select.go:329":              runtimeLocks,
	"std:runtime/select.go:363":              runtimeLocks,
	"std:runtime/select.go:83":               runtimeLocks,
	"std:runtime/time.go:1211":               runtimeLocks,
	"std:runtime/time.go:694":                runtimeLocks,
	"std:runtime/time.go:835":                runtimeLocks,
	"std:runtime/trace.go:465":               runtimeLocks,
}

// runtimeLocks is why the runtime's comments are not stated: its locks are
// runtime.mutex values (with lock ranks the runtime checks itself under
// GOEXPERIMENT=staticlockranking), channel locks and scan bits, not
// sync.Mutex or sync.RWMutex.
const runtimeLocks = "the runtime's own locks (runtime.mutex, channel locks, scan bits), not sync mutexes"

func main() {
	check := flag.Bool("check", false, "fail unless the corpus file covers exactly the picked lines")
	dir := flag.String("dir", "bench/realgo/corpus", "the module that pins the corpus")
	corpus := flag.String("corpus", "bench/realgo/order/guardlint.yaml", "the order corpus")
	list := flag.Bool("packages", false, "print the packages the corpus's invariants concern, for the run")
	flag.Parse()
	if *list {
		printPackages(*corpus)
		return
	}
	patterns := []string{"std"}
	for _, m := range modules {
		patterns = append(patterns, m+"/...")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedModule, Dir: *dir}, patterns...)
	if err != nil {
		fail(err)
	}
	picked := map[string]string{}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			for line, text := range commentLines(f) {
				if pickRE.MatchString(text) {
					picked[ref(p, f, line)] = strings.TrimSpace(text)
				}
			}
		}
	}
	refs := sortedKeys(picked)
	if !*check {
		for _, r := range refs {
			fmt.Printf("%s\t%s\n", r, picked[r])
		}
		return
	}
	stated, err := statedRefs(*corpus)
	if err != nil {
		fail(err)
	}
	var problems []string
	for _, r := range refs {
		_, why := unexpressed[r]
		switch {
		case stated[r] && why:
			problems = append(problems, r+": stated by an invariant and listed as unexpressed")
		case !stated[r] && !why:
			problems = append(problems, fmt.Sprintf("%s: picked (%q) but neither stated nor listed as unexpressed", r, picked[r]))
		}
	}
	for _, r := range sortedKeys(stated) {
		if _, ok := picked[r]; !ok {
			problems = append(problems, r+": stated, but the rule does not pick it")
		}
	}
	for _, r := range sortedKeys(unexpressed) {
		if _, ok := picked[r]; !ok {
			problems = append(problems, r+": listed as unexpressed, but the rule does not pick it")
		}
	}
	if len(problems) > 0 {
		fail(fmt.Errorf("%s does not cover what the rule picks:\n%s", *corpus, strings.Join(problems, "\n")))
	}
	fmt.Printf("%s: %d picked lines, %d stated by invariants, %d unexpressed\n", *corpus, len(refs), len(refs)-len(unexpressed), len(unexpressed))
}

// printPackages prints, one per line, the packages the corpus's
// invariants name (their locks', their targets'), and those their
// reverts land in: what a run over the corpus must load.
func printPackages(corpus string) {
	set, err := registry.Load(corpus)
	if err != nil {
		fail(err)
	}
	seen := map[string]bool{}
	for _, inv := range set.Invariants {
		for _, p := range append(inv.Packages(), mutate.Packages(inv)...) {
			if !seen[p] {
				seen[p] = true
				fmt.Println(p)
			}
		}
	}
}

// commentLines returns the lines of a file's // and /* */ comments, by
// line number.
func commentLines(path string) map[int]string {
	f, err := os.Open(path)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	out := map[int]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20) // generated tables have long lines
	inBlock := false
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		switch {
		case inBlock:
			out[n] = text
			inBlock = !strings.Contains(text, "*/")
		default:
			if i := strings.Index(text, "//"); i >= 0 {
				out[n] = text[i:]
			} else if i := strings.Index(text, "/*"); i >= 0 {
				out[n] = text[i:]
				inBlock = !strings.Contains(text, "*/")
			}
		}
	}
	if err := sc.Err(); err != nil {
		fail(err)
	}
	return out
}

// ref names a line of a package's file: std:path:line, or
// module@version/path:line.
func ref(p *packages.Package, file string, line int) string {
	if p.Module == nil {
		rel, _ := filepath.Rel(stdSrc(), file)
		return fmt.Sprintf("std:%s:%d", filepath.ToSlash(rel), line)
	}
	rel, _ := filepath.Rel(p.Module.Dir, file)
	return fmt.Sprintf("%s@%s/%s:%d", p.Module.Path, p.Module.Version, filepath.ToSlash(rel), line)
}

// statedRefs reads the refs of the corpus file's invariants.
func statedRefs(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if r, ok := strings.CutPrefix(strings.TrimSpace(l), "ref: "); ok {
			out[r] = true
		}
	}
	return out, nil
}

var stdDir string

// stdSrc is the directory of the standard library's sources, as the go
// command finds them.
func stdSrc() string {
	if stdDir == "" {
		pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedFiles}, "errors")
		if err != nil || len(pkgs) == 0 || len(pkgs[0].GoFiles) == 0 {
			fail(fmt.Errorf("locating the standard library: %w", err))
		}
		stdDir = filepath.Dir(filepath.Dir(pkgs[0].GoFiles[0]))
	}
	return stdDir
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
