package gpu_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/guardlint/guardlint/runtime"
	"github.com/stretchr/testify/require"
)

// TestMain names the backend the guards run on and how many devices it
// has, so that a log shows whether a run exercised CUDA or the CPU backend
// and whether the multi-device guards could run.
func TestMain(m *testing.M) {
	n, err := runtime.DeviceCount()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gpu_test: cannot count devices: %v\n", err)
		os.Exit(1)
	}
	d, err := runtime.Open()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gpu_test: cannot open a device: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("gpu_test: backend %s, kernels %s, device %s, %d device(s)\n", d.Backend(), d.KernelSource(), d, n)
	if err := d.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "gpu_test: close: %v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// read returns a copy of a buffer's contents.
func read(t testing.TB, b *runtime.Buffer) []float32 {
	t.Helper()
	got, err := b.Floats()
	require.NoError(t, err)
	return got
}

// addMul is the host's (a+b)*c, rounded to float32 after each operation as
// the two kernels round.
func addMul(a, b, c []float32) []float32 {
	return rttest.Ramp(len(a), func(i int) float32 {
		s := float32(a[i] + b[i])
		return float32(s * c[i])
	})
}
