//go:build linux

package cuda

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// nvrtcLibraryNames are tried in order; the unversioned name exists only
// where the toolkit's development files are installed.
var nvrtcLibraryNames = []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}

// nvrtcResultNames maps nvrtcResult codes to their names. NVRTC's own
// nvrtcGetErrorString returns a bare C pointer, which this binding avoids.
var nvrtcResultNames = map[int]string{
	1: "NVRTC_ERROR_OUT_OF_MEMORY", 2: "NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
	3: "NVRTC_ERROR_INVALID_INPUT", 4: "NVRTC_ERROR_INVALID_PROGRAM", 5: "NVRTC_ERROR_INVALID_OPTION",
	6: "NVRTC_ERROR_COMPILATION", 7: "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
	11: "NVRTC_ERROR_INTERNAL_ERROR",
}

// NVRTC holds the resolved entry points of the runtime compiler.
type NVRTC struct {
	Library string // the file name that loaded

	create, destroy, compile, logSize, getLog, ptxSize, getPTX uintptr
}

var (
	nvrtcOnce sync.Once
	nvrtcLib  *NVRTC
	nvrtcErr  error
)

// LoadNVRTC opens the NVRTC library once per process.
func LoadNVRTC() (*NVRTC, error) {
	nvrtcOnce.Do(func() { nvrtcLib, nvrtcErr = loadNVRTC() })
	return nvrtcLib, nvrtcErr
}

// loadNVRTC opens the first NVRTC library that loads.
func loadNVRTC() (*NVRTC, error) {
	var errs []error
	for _, name := range nvrtcLibraryNames {
		h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n := &NVRTC{Library: name}
		syms := []struct {
			dst  *uintptr
			name string
		}{
			{&n.create, "nvrtcCreateProgram"}, {&n.destroy, "nvrtcDestroyProgram"},
			{&n.compile, "nvrtcCompileProgram"}, {&n.logSize, "nvrtcGetProgramLogSize"},
			{&n.getLog, "nvrtcGetProgramLog"}, {&n.ptxSize, "nvrtcGetPTXSize"}, {&n.getPTX, "nvrtcGetPTX"},
		}
		for _, s := range syms {
			p, err := purego.Dlsym(h, s.name)
			if err != nil {
				return nil, fmt.Errorf("resolve %s in %s: %w", s.name, name, err)
			}
			*s.dst = p
		}
		return n, nil
	}
	return nil, fmt.Errorf("load NVRTC (tried %s): %w", strings.Join(nvrtcLibraryNames, ", "), errors.Join(errs...))
}

//go:uintptrescapes
func (n *NVRTC) call(op string, fn uintptr, args ...uintptr) error {
	r, _, _ := purego.SyscallN(fn, args...)
	if r == 0 {
		return nil
	}
	name, ok := nvrtcResultNames[int(r)]
	if !ok {
		name = "NVRTC_ERROR_UNKNOWN"
	}
	return &Error{Op: op, Code: int(r), Name: name, Message: "NVRTC call failed"}
}

// Compile compiles CUDA C++ source to PTX with the given options. A
// compilation failure returns an *Error whose Log holds the compiler log.
func (n *NVRTC) Compile(source, name string, options []string) ([]byte, error) {
	var pin goruntime.Pinner
	defer pin.Unpin()
	src, cname := cString(source), cString(name)
	prog := new(uintptr)
	if err := n.call("nvrtcCreateProgram", n.create, uintptr(unsafe.Pointer(prog)),
		uintptr(unsafe.Pointer(&src[0])), uintptr(unsafe.Pointer(&cname[0])), 0, 0, 0); err != nil {
		return nil, err
	}
	defer func() { _ = n.call("nvrtcDestroyProgram", n.destroy, uintptr(unsafe.Pointer(prog))) }()

	// The option array holds Go pointers to the option strings, so both the
	// strings and the array are pinned while NVRTC reads them.
	opts := make([]unsafe.Pointer, len(options)+1)
	for i, o := range options {
		c := cString(o)
		pin.Pin(&c[0])
		opts[i] = unsafe.Pointer(&c[0])
	}
	pin.Pin(&opts[0])
	compileErr := n.call("nvrtcCompileProgram", n.compile, *prog, uintptr(len(options)), uintptr(unsafe.Pointer(&opts[0])))
	if compileErr != nil {
		var e *Error
		if errors.As(compileErr, &e) {
			e.Message = "compilation of " + name + " failed"
			e.Log = n.log(*prog)
		}
		return nil, compileErr
	}
	size := new(uintptr)
	if err := n.call("nvrtcGetPTXSize", n.ptxSize, *prog, uintptr(unsafe.Pointer(size))); err != nil {
		return nil, err
	}
	ptx := make([]byte, *size)
	if *size > 0 {
		if err := n.call("nvrtcGetPTX", n.getPTX, *prog, uintptr(unsafe.Pointer(&ptx[0]))); err != nil {
			return nil, err
		}
	}
	for len(ptx) > 0 && ptx[len(ptx)-1] == 0 {
		ptx = ptx[:len(ptx)-1]
	}
	return ptx, nil
}

// log returns the program's compile log, or a note when it cannot be read.
func (n *NVRTC) log(prog uintptr) string {
	size := new(uintptr)
	if err := n.call("nvrtcGetProgramLogSize", n.logSize, prog, uintptr(unsafe.Pointer(size))); err != nil || *size <= 1 {
		return "(no compile log)"
	}
	buf := make([]byte, *size)
	if err := n.call("nvrtcGetProgramLog", n.getLog, prog, uintptr(unsafe.Pointer(&buf[0]))); err != nil {
		return "(compile log unreadable)"
	}
	return strings.TrimRight(string(buf), "\x00\n")
}
