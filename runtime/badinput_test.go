package runtime

import (
	"errors"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/guardlint/guardlint/internal/rttest"
	"github.com/stretchr/testify/require"
)

func TestBadInputIsAClearError(t *testing.T) {
	d := rttest.Open(t, Open)
	x := rttest.Array(t, FromSlice, d, []float32{1, 2, 3, 4})
	y := rttest.Array(t, FromSlice, d, []float32{1, 2, 3, 4, 5})

	t.Run("shape mismatch", func(t *testing.T) {
		_, err := Add(x, y).Data()
		require.ErrorIs(t, err, ErrShape)
		require.ErrorContains(t, err, "[4] and [5]")
		m := rttest.Array(t, FromSlice, d, []float32{1, 2, 3, 4}, 2, 2)
		require.ErrorIs(t, Eval(Mul(x, m)), ErrShape)
	})
	t.Run("bad shapes and lengths", func(t *testing.T) {
		_, err := FromSlice(d, []float32{1, 2, 3}, 2, 2)
		require.ErrorIs(t, err, ErrLength)
		require.ErrorIs(t, Uniform(d, 3, 0).Err(), ErrShape)
		_, err = x.Item()
		require.ErrorIs(t, err, ErrShape)
		b := rttest.Upload(t, d, make([]float32, 4))
		require.ErrorIs(t, b.Write(make([]float32, 3)), ErrLength)
		require.ErrorIs(t, b.Read(make([]float32, 5)), ErrLength)
		cb, err := d.NewCommandBuffer()
		require.NoError(t, err)
		small := rttest.Upload(t, d, make([]float32, 3))
		require.ErrorIs(t, cb.Add(b, b, small), ErrLength)
		require.ErrorIs(t, cb.Sum(b, b), ErrLength)
		_, err = d.NewBuffer(0)
		require.ErrorIs(t, err, ErrInvalidArgument)
		require.ErrorIs(t, Softcap(x, 0).Err(), ErrInvalidArgument)
		require.NoError(t, cb.Wait())
		require.NoError(t, cb.release())
	})
	t.Run("freed buffers", func(t *testing.T) {
		b := rttest.Upload(t, d, make([]float32, 4))
		require.NoError(t, b.Free())
		require.ErrorIs(t, b.Free(), ErrFreed)
		_, err := b.Floats()
		require.ErrorIs(t, err, ErrFreed)
		require.ErrorIs(t, b.Write(make([]float32, 4)), ErrFreed)
		cb, err := d.NewCommandBuffer()
		require.NoError(t, err)
		out := rttest.Upload(t, d, make([]float32, 4))
		require.ErrorIs(t, cb.Add(out, b, out), ErrFreed)
		require.NoError(t, cb.Wait())
		require.NoError(t, cb.release())

		a := rttest.Array(t, FromSlice, d, []float32{1, 2, 3, 4})
		require.NoError(t, a.Free())
		_, err = a.Data()
		require.ErrorIs(t, err, ErrFreed)
		require.ErrorIs(t, Eval(Add(a, x)), ErrFreed)
		require.ErrorIs(t, a.Free(), ErrFreed)
	})
	t.Run("arrays on different devices", func(t *testing.T) {
		other := rttest.Open(t, Open, WithBackend(BackendCPU))
		z := rttest.Array(t, FromSlice, other, []float32{1, 2, 3, 4})
		require.ErrorIs(t, Add(x, z).Err(), ErrDevices)
		cb, err := d.NewCommandBuffer()
		require.NoError(t, err)
		zb := rttest.Upload(t, other, make([]float32, 4))
		xb := rttest.Upload(t, d, make([]float32, 4))
		require.ErrorIs(t, cb.Add(xb, xb, zb), ErrDevices)
		require.NoError(t, cb.Wait())
		require.NoError(t, cb.release())
	})
	t.Run("out of memory", func(t *testing.T) {
		dev := d
		if d.Backend() == BackendCPU {
			dev = rttest.Open(t, Open, WithBackend(BackendCPU), WithCPUMemoryLimit(1<<30))
		}
		var held []*Buffer
		var err error
		for range 64 {
			var b *Buffer
			if b, err = dev.NewBuffer(1<<32 - 1); err != nil {
				break
			}
			held = append(held, b)
		}
		require.ErrorIs(t, err, ErrOutOfMemory)
		for _, b := range held {
			require.NoError(t, b.Free())
		}
		require.NoError(t, dev.flushCache())
	})
}

func TestArraysOfAClosedDevice(t *testing.T) {
	d, err := Open()
	require.NoError(t, err)
	x := rttest.Array(t, FromSlice, d, []float32{1, 2, 3, 4})
	b := rttest.Upload(t, d, []float32{1, 2})
	lazy := Add(x, x)
	cb, err := d.NewCommandBuffer()
	require.NoError(t, err)
	require.NoError(t, cb.Add(b, b, b))
	require.NoError(t, d.Close())
	require.ErrorIs(t, cb.Wait(), ErrDeviceClosed)
	require.ErrorIs(t, cb.Add(b, b, b), ErrDeviceClosed)
	require.NoError(t, d.Close(), "closing twice is harmless")

	require.ErrorIs(t, Eval(lazy), ErrDeviceClosed)
	_, err = x.Data()
	require.ErrorIs(t, err, ErrDeviceClosed)
	var nilArray *Array
	_, err = nilArray.Data()
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = b.Floats()
	require.ErrorIs(t, err, ErrDeviceClosed)
	_, err = d.NewBuffer(4)
	require.ErrorIs(t, err, ErrDeviceClosed)
	_, err = d.NewCommandBuffer()
	require.ErrorIs(t, err, ErrDeviceClosed)
	_, err = FromSlice(d, []float32{1})
	require.ErrorIs(t, err, ErrDeviceClosed)
	require.ErrorIs(t, Synchronize(d), ErrDeviceClosed)
	require.NoError(t, b.Free(), "freeing after Close is not an error")
}

func TestBackendSelection(t *testing.T) {
	t.Setenv(EnvBackend, "tpu")
	_, err := Open()
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.ErrorContains(t, err, EnvBackend)

	t.Setenv(EnvBackend, "cpu")
	d := rttest.Open(t, Open)
	require.Equal(t, BackendCPU, d.Backend())

	t.Setenv(EnvKernels, "precompiled")
	_, err = Open()
	require.ErrorIs(t, err, ErrInvalidArgument)
	t.Setenv(EnvKernels, "")

	_, err = Open(WithLanes(1))
	require.ErrorIs(t, err, ErrInvalidArgument, "one lane would hide a missing barrier")

	cu, err := Open(WithBackend(BackendCUDA))
	if err == nil {
		require.Equal(t, BackendCUDA, cu.Backend())
		require.NoError(t, cu.Close())
		return
	}
	require.ErrorIs(t, err, ErrBackendUnavailable, "forcing CUDA where it cannot load is a clear error")
	require.ErrorContains(t, err, "libcuda.so.1")
}

func TestKernelThatFailsToCompile(t *testing.T) {
	d := rttest.Open(t, Open)
	cu, ok := d.backend.(*cudaBackend)
	if !ok {
		t.Skip("NVRTC is used by the CUDA backend only")
	}
	err := cu.compileAndLoad("broken.cu", `extern "C" __global__ void broken(float* x) { x[0] = not_declared; }`)
	require.ErrorIs(t, err, ErrCompile)
	require.ErrorContains(t, err, "NVRTC_ERROR_COMPILATION")
	require.ErrorContains(t, err, "not_declared", "the NVRTC log is in the error")
}

// TestLeakNetFreesDroppedBuffers: a buffer dropped without Free is freed by
// the leak net at the next Synchronize.
func TestLeakNetFreesDroppedBuffers(t *testing.T) {
	d := rttest.Open(t, Open)
	base := d.Stats().LiveBuffers
	func() {
		for range 8 {
			_, err := d.NewBuffer(1024)
			require.NoError(t, err)
		}
	}()
	require.Equal(t, base+8, d.Stats().LiveBuffers)
	deadline := time.Now().Add(5 * time.Second)
	for d.Stats().LiveBuffers > base && time.Now().Before(deadline) {
		goruntime.GC()
		require.NoError(t, Synchronize(d))
		time.Sleep(time.Millisecond)
	}
	require.Equal(t, base, d.Stats().LiveBuffers)
}

func TestErrorsWrapContext(t *testing.T) {
	d := rttest.Open(t, Open)
	_, err := Add(rttest.Array(t, FromSlice, d, []float32{1}), nil).Data()
	require.True(t, errors.Is(err, ErrInvalidArgument))
	require.ErrorContains(t, err, "add")
}

// TestLeakNetFreesDroppedEvalOutputs: the outputs of an evaluation, fused
// or not, whose arrays are dropped without Free are freed by the leak net
// too; Eval registers their nets while the device computes.
func TestLeakNetFreesDroppedEvalOutputs(t *testing.T) {
	for _, fused := range []bool{true, false} {
		d := rttest.Open(t, Open, WithFusion(fused))
		x := rttest.Array(t, FromSlice, d, rttest.Ramp(1024, func(i int) float32 { return float32(i) }))
		base := d.Stats().LiveBuffers
		func() {
			for range 4 {
				r := Mul(Add(x, x), x)
				require.NoError(t, Eval(r))
			}
		}()
		require.Equal(t, base+8, d.Stats().LiveBuffers, "fused=%v: two outputs per evaluation", fused)
		deadline := time.Now().Add(5 * time.Second)
		for d.Stats().LiveBuffers > base && time.Now().Before(deadline) {
			goruntime.GC()
			require.NoError(t, Synchronize(d))
			time.Sleep(time.Millisecond)
		}
		require.Equal(t, base, d.Stats().LiveBuffers, "fused=%v", fused)
		goruntime.KeepAlive(x)
	}
}
