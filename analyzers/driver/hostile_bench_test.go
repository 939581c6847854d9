package driver

import (
	"syscall"
	"testing"
)

// Benchmarks over the inputs of hostile_test.go, for the figures in
// docs/reliability.md; run one per process, since peak memory is the
// process's (and, for the go command that loading runs, its children's).

// reportPeaks reports the peak resident set size of this process and of
// the largest child it waited for (the go command, the compiler).
func reportPeaks(b *testing.B) {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) == nil && syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) == nil {
		b.ReportMetric(float64(self.Maxrss)/1024, "peak-RSS-MiB")
		b.ReportMetric(float64(children.Maxrss)/1024, "child-peak-RSS-MiB")
	}
}

func BenchmarkA20MBGoFile(b *testing.B) {
	src := bigGo(20 << 20)
	for i := 0; i < b.N; i++ {
		if _, err := runModule(b, src, bigYAML); err != nil {
			b.Fatal(err)
		}
	}
	reportPeaks(b)
}

func BenchmarkGoNesting100000Deep(b *testing.B) {
	for _, shape := range []string{"braces", "parentheses", "if chain"} {
		b.Run(shape, func(b *testing.B) {
			src := deepGo(shape, 100_000)
			for i := 0; i < b.N; i++ {
				if _, err := runModule(b, src, deepYAML); err == nil {
					b.Fatal("the file was accepted")
				}
			}
			reportPeaks(b)
		})
	}
}
