//go:build !linux

package runtime

import "errors"

// errNoDriver marks a CUDA driver that cannot be loaded; the CUDA backend
// is built for Linux only.
var errNoDriver = errors.New("no usable CUDA driver: the CUDA backend is built for linux only")

// cudaBackend is absent outside Linux.
type cudaBackend struct{ backend }

// newCUDABackend always fails outside Linux.
func newCUDABackend(config) (*cudaBackend, error) { return nil, errNoDriver }

// cudaDeviceCount always fails outside Linux.
func cudaDeviceCount() (int, error) { return 0, errNoDriver }

// compileAndLoad always fails outside Linux.
func (b *cudaBackend) compileAndLoad(name, source string) error { return errNoDriver }
