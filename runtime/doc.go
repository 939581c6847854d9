// Package runtime is a small MLX-like GPU runtime: float32 device buffers,
// command buffers that spread kernel dispatches over the lanes of pooled
// encoders, and lazy arrays evaluated with [Eval].
//
// Two backends implement it with the same semantics. The CUDA backend calls
// the driver API through purego (no cgo): lanes are non-blocking CUDA
// streams, barriers are events, kernels come from PTX embedded at build time
// or from NVRTC at run time. The CPU backend runs the same kernels in Go:
// lanes are goroutines with queues and events are completion signals, so
// barrier and ownership mistakes give wrong results on machines without a
// GPU too. Both present several devices ([DeviceCount], [WithOrdinal]): the
// CUDA devices of the machine, or two CPU devices unless told otherwise,
// so that multi-device code is exercised without a GPU as well. See
// docs/runtime.md.
//
// This package's name shadows the standard library's runtime; it imports
// that one as goruntime.
package runtime
