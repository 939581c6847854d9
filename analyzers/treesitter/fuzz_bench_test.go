package treesitter

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/guardlint/guardlint/invariants"
)

// BenchmarkFuzzCorpus runs the body of each front end's fuzz target over
// every input kept in its corpus (testdata/fuzz/<target>): the inputs
// that once cost seconds after the parse stay in the corpus, and this is
// their figure (docs/benchmarks.md). cpu-ms/op is the process's CPU time,
// which a machine shared with other work disturbs less than ns/op.
func BenchmarkFuzzCorpus(b *testing.B) {
	targets := map[string]invariants.Lang{"FuzzC": invariants.LangC, "FuzzCPP": invariants.LangCPP, "FuzzCUDA": invariants.LangCUDA, "FuzzRust": invariants.LangRust}
	paths, err := filepath.Glob("testdata/fuzz/Fuzz*/*")
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range paths {
		lang, ok := targets[filepath.Base(filepath.Dir(p))]
		if !ok {
			continue
		}
		src := corpusValue(b, p)
		b.Run(filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				frontEnd(b, lang, src)
			}
			b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}

// corpusValue decodes a fuzz corpus file of one []byte value.
func corpusValue(tb testing.TB, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	header, value, ok := strings.Cut(strings.TrimSpace(string(data)), "\n")
	lit, ok2 := strings.CutPrefix(value, "[]byte(")
	if !ok || !ok2 || header != "go test fuzz v1" || !strings.HasSuffix(lit, ")") {
		tb.Fatalf("%s: not a fuzz corpus file of one []byte value", path)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return []byte(s)
}

// cpuTime is the CPU time of the process so far, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
