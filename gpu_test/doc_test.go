// Package gpu_test holds the GPU regression guards of the runtime: tests
// that use only the runtime's exported API (and the switches of
// internal/testhooks) and fail when the barrier, the encoder retain, the
// evaluation lock, the stream registry's locks or the per-device default
// stream goes.
//
// The tests run on the backend the runtime picks: CUDA when libcuda.so.1
// loads, the CPU backend otherwise. GUARDLINT_RT_BACKEND and
// GUARDLINT_RT_KERNELS force a backend or a CUDA kernel source. In CI they
// run on the CPU backend under go test -race; on a GPU machine they run
// from a binary built by scripts/build-gpu-tests (see README, "GPU tests").
//
// The multi-device guards (devices_test.go) open every device that
// runtime.DeviceCount reports, one per ordinal: Eval spread over the
// devices, goroutines on every device at once, arrays carried between
// devices, and the barrier and retain discriminators on each device. They
// skip, saying why, where there are fewer than two devices; the CPU
// backend presents two (GUARDLINT_RT_CPU_DEVICES), so CI runs them.
//
// The stream guards (streams_test.go) open the windows that the locks
// close: goroutines making streams (NewStream registers them without the
// evaluation lock) while others evaluate and read the registry, and a
// stream closed under an evaluation on it. They prove they can fail
// through the mutants of guardlint prove (scripts/gpu-prove): with a lock
// reverted the race detector reports a data race on the CPU backend, and
// on a GPU the Go runtime's map checks, a panic or a wrong result show it.
//
// The guards that switch a hook on prove that they can fail: they run their
// scenario once as shipped and expect exact results, then once with the
// barrier or the retain switched off and expect stale results. The hooks are
// process-global, so no test here runs in parallel with another.
package gpu_test
