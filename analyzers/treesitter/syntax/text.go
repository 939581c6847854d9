package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotText is what parsing a file that is not text returns; the error
// is a *NotTextError.
var ErrNotText = errors.New("not a text file")

// NotTextError is a file with a NUL byte, which no C, C++, CUDA or Rust
// source holds: a binary file (an object file, an image) that a `files`
// glob matched, or text in UTF-16. tree-sitter would parse it into
// errors, and a symbol name in an object file could even pass the
// prefilter, so it is refused with the position of the byte.
type NotTextError struct {
	Path         string
	Line, Column int
}

func (e *NotTextError) Error() string {
	return fmt.Sprintf("%s:%d:%d: not a text file (a NUL byte); narrow the files glob", e.Path, e.Line, e.Column)
}

// Unwrap makes errors.Is(err, ErrNotText) hold.
func (e *NotTextError) Unwrap() error { return ErrNotText }

// checkText returns a *NotTextError when src holds a NUL byte, and an
// ErrTooLarge error when it is larger than MaxFileSize.
func checkText(path string, src []byte) error {
	if len(src) > MaxFileSize {
		return tooLarge(path, int64(len(src)))
	}
	at := bytes.IndexByte(src, 0)
	if at < 0 {
		return nil
	}
	line := bytes.Count(src[:at], []byte("\n")) + 1
	col := at - (bytes.LastIndexByte(src[:at], '\n') + 1) + 1
	return &NotTextError{Path: path, Line: line, Column: col}
}

// MaxFileSize is the largest file the front end reads. A parse holds the
// tree twice, in tree-sitter and in Go, some 35 bytes for each byte of
// source (1.7 GB for a 50 MB C++ file), and tree-sitter's offsets are 32
// bits; the largest real sources (amalgamated C libraries) are a tenth of
// it.
const MaxFileSize = 128 << 20

// ErrTooLarge is what reading or parsing a file larger than MaxFileSize
// returns.
var ErrTooLarge = errors.New("larger than the front end reads")

// ReadFile reads a source file, refusing one larger than MaxFileSize
// before reading it.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() > MaxFileSize {
		return nil, tooLarge(path, info.Size())
	}
	// Read one byte more than the limit, in case the file grew.
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, tooLarge(path, int64(len(src)))
	}
	return src, nil
}

// tooLarge is the error for a file of size bytes.
func tooLarge(path string, size int64) error {
	return fmt.Errorf("%s is %d MiB, %w (%d MiB)", path, size>>20, ErrTooLarge, MaxFileSize>>20)
}
