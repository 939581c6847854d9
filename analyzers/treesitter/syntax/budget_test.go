package syntax

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loops is an input tree-sitter-rust 0.24.0 and 0.24.2 never finish: its error
// recovery goes round for good (found by fuzzing).
const loops = "fn A({#[A(())]!A/[0!0];(||A(A()!#0();;A"

func TestAParseThatLoopsEndsAtItsBudget(t *testing.T) {
	// Without the watchdog only the progress callback can end this loop:
	// the test would hang if it did not.
	watchdogOff.Store(true)
	defer watchdogOff.Store(false)
	_, err := ParseWithin("rust", "loops.rs", []byte(loops), 50*time.Millisecond)
	var be *BudgetError
	require.ErrorAs(t, err, &be)
	assert.ErrorIs(t, err, ErrBudget)
	assert.False(t, be.Abandoned, "the progress callback stops this loop; the watchdog is not needed")
	assert.Equal(t, "loops.rs", be.Path)
	assert.Equal(t, len(loops), be.Size)
	assert.Contains(t, err.Error(), "the parser did not finish loops.rs within its budget")
}

func TestTheWatchdogGivesUpOnAParseThatDoesNotStop(t *testing.T) {
	// Parses other tests abandoned stop at their next callback.
	for abandoned.Load() != 0 {
		time.Sleep(time.Millisecond)
	}
	// As if tree-sitter never called the progress callback: only the
	// watchdog can end the wait.
	ignoreStop.Store(true)
	defer ignoreStop.Store(false)
	_, err := ParseWithin("rust", "loops.rs", []byte(loops), 20*time.Millisecond)
	var be *BudgetError
	require.ErrorAs(t, err, &be)
	assert.True(t, be.Abandoned)
	assert.Equal(t, int64(1), abandoned.Load(), "the parse is still running")
	// Once the callback is heard again, the abandoned parse stops and
	// frees its parser.
	ignoreStop.Store(false)
	for abandoned.Load() != 0 {
		time.Sleep(time.Millisecond)
	}
}

func TestLimitScalesWithSize(t *testing.T) {
	assert.Equal(t, DefaultBudget, Limit(0, 0))
	assert.Equal(t, 2*time.Second, Limit(time.Second, 1<<20))
	assert.Equal(t, 51*time.Second, Limit(time.Second, 50<<20))
	assert.Equal(t, time.Duration(1<<62), Limit(1<<62, 1<<30), "no overflow")
}

func TestAFileWithANULByteIsNotText(t *testing.T) {
	_, err := Parse("c", "blob.o", []byte("int x;\nab\x00cd"))
	var nt *NotTextError
	require.ErrorAs(t, err, &nt)
	assert.True(t, errors.Is(err, ErrNotText))
	assert.Equal(t, 2, nt.Line)
	assert.Equal(t, 3, nt.Column)
	assert.Equal(t, "blob.o:2:3: not a text file (a NUL byte); narrow the files glob", err.Error())
	// Bytes that are not UTF-8 (a Latin-1 comment) are still text.
	_, err = Parse("c", "latin1.c", []byte("/* caf\xe9 */ int x;\n"))
	assert.NoError(t, err)
}

func TestParsesLeaveNoGoroutineBehind(t *testing.T) {
	before := runtime.NumGoroutine()
	for i := 0; i < 50; i++ {
		_, err := Parse("cpp", "a.cc", []byte("void f() { g(); }\n"))
		require.NoError(t, err)
	}
	// The parsing goroutine hands its result over and ends, a moment
	// after the parse returns; one that stayed would keep this loop (and
	// the test) running until the test binary's timeout.
	for runtime.NumGoroutine() > before {
		time.Sleep(time.Millisecond)
	}
}

func TestAFileLargerThanTheLimitIsNotRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.cc")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(MaxFileSize+1)) // sparse: no disk used
	require.NoError(t, f.Close())
	_, err = ReadFile(path)
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.Equal(t, path+" is 128 MiB, larger than the front end reads (128 MiB)", err.Error())

	require.NoError(t, os.Truncate(path, 10))
	src, err := ReadFile(path)
	require.NoError(t, err)
	assert.Len(t, src, 10)
}
