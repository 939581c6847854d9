package nativecheck_test

import (
	"syscall"
	"testing"

	"github.com/guardlint/guardlint/analyzers/nativecheck"
	"github.com/guardlint/guardlint/invariants"
)

// Benchmarks over the inputs of hostile_test.go, for the figures in
// docs/reliability.md. Peak memory is the process's, so run one benchmark
// per process (-bench '^BenchmarkX$').

// reportPeak reports the peak resident set size of the process so far.
func reportPeak(b *testing.B) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
	}
}

// benchCheck checks the files and invariants b.N times, writing them once.
func benchCheck(b *testing.B, files map[string][]byte, yaml string) {
	benchSet(b, loadTree(b, files, yaml))
}

// benchSet checks a loaded set b.N times and reports the peak memory.
func benchSet(b *testing.B, set *invariants.Set) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nativecheck.Check(set, nativecheck.Options{})
	}
	b.StopTimer()
	reportPeak(b)
}

func BenchmarkA50MBCPPFile(b *testing.B) {
	benchCheck(b, map[string][]byte{"huge.cc": hugeCPP(b, 50<<20)}, hugeYAML)
}

func BenchmarkNesting100000Deep(b *testing.B) {
	for _, shape := range deepShapes {
		b.Run(shape.name, func(b *testing.B) {
			benchCheck(b, map[string][]byte{shape.file: shape.src(100_000)}, deepYAML(shape.lang, shape.file))
		})
	}
}

func BenchmarkAGlobThatWalksALargeTree(b *testing.B) {
	root := largeTree(b, 1000, 20_000)
	benchSet(b, loadConfig(b, root, "version: 1\ninvariants:\n  - {id: f-calls, why: w, lang: c, files: \"tree/**/*.c\", function: f, call: {to: g}}\n"))
}
