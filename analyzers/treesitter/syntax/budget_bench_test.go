package syntax

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// The benchmarks behind the choice of ParseWithin's mechanism; the figures
// are in docs/reliability.md.

// realFiles is the C++ of testdata/cpp and the CUDA of testdata/cuda.
func realFiles(b *testing.B) [][]byte {
	var out [][]byte
	for _, g := range []string{"../testdata/cpp/*.cc", "../testdata/cuda/*.cu"} {
		paths, _ := filepath.Glob(g)
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, data)
		}
	}
	return out
}

// BenchmarkParseWithin parses real files the way the front end does: on a
// goroutine of its own, with the progress callback and the watchdog.
func BenchmarkParseWithin(b *testing.B) {
	files := realFiles(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range files {
			if _, err := ParseWithin("cpp", "x.cc", src, DefaultBudget); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseUnbounded parses the same files with neither callback nor
// goroutine: what the budget costs is the difference.
func BenchmarkParseUnbounded(b *testing.B) {
	files := realFiles(b)
	g, err := grammarOf("cpp")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range files {
			p := sitter.NewParser()
			if err := p.SetLanguage(g.lang); err != nil {
				b.Fatal(err)
			}
			tree := p.Parse(src, nil)
			c := tree.Walk()
			copyTree(c, g, string(src))
			lineStarts(src)
			c.Close()
			tree.Close()
			p.Close()
		}
	}
}

// BenchmarkProcessStart starts this test binary and waits for it: the
// least a parse in a subprocess of its own would cost, before the source
// goes in and the tree comes back through a pipe.
func BenchmarkProcessStart(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if out, err := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$").CombinedOutput(); err != nil {
			b.Fatal(err, string(out))
		}
	}
}

// BenchmarkAbandonedParse measures what a parse the watchdog gives up on
// costs while it runs: the CPU it burns and the memory it grows by, per
// second, on the input tree-sitter-rust loops on, with the progress
// callback made deaf as if tree-sitter never called it.
func BenchmarkAbandonedParse(b *testing.B) {
	const watch = 2 * time.Second
	for i := 0; i < b.N; i++ {
		ignoreStop.Store(true)
		rss0, cpu0 := rss(b), cpuTime()
		if _, err := ParseWithin("rust", "loops.rs", []byte(loops), time.Millisecond); err == nil {
			b.Fatal("the parse finished")
		}
		start := time.Now()
		time.Sleep(watch)
		grew, burnt := rss(b)-rss0, cpuTime()-cpu0
		elapsed := time.Since(start).Seconds()
		ignoreStop.Store(false)
		for abandoned.Load() != 0 {
			time.Sleep(time.Millisecond)
		}
		b.ReportMetric(float64(grew)/(1<<20)/elapsed, "MiB/s")
		b.ReportMetric(burnt.Seconds()/elapsed, "cores")
	}
}

// rss is the resident set size of this process in bytes.
func rss(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Skip("no VmRSS")
	return 0
}

// cpuTime is the user and system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkParseWithin50MB parses and copies 50 MB of the same C++, over
// and over: what a large file takes against its budget (510 s by
// default).
func BenchmarkParseWithin50MB(b *testing.B) {
	var src []byte
	for len(src) < 50<<20 {
		for _, f := range realFiles(b) {
			src = append(src, f...)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ParseWithin("cpp", "huge.cc", src, DefaultBudget); err != nil {
			b.Fatal(err)
		}
	}
}
