package syntax

import (
	"bytes"
	"errors"
	"fmt"
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

// checkText returns a *NotTextError when src holds a NUL byte.
func checkText(path string, src []byte) error {
	at := bytes.IndexByte(src, 0)
	if at < 0 {
		return nil
	}
	line := bytes.Count(src[:at], []byte("\n")) + 1
	col := at - (bytes.LastIndexByte(src[:at], '\n') + 1) + 1
	return &NotTextError{Path: path, Line: line, Column: col}
}
