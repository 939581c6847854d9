package prove

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// meter prints how far the check of the mutants is, on one line that it
// rewrites: mutants done of the total, the time since the check began,
// and an estimate of the time left from the pace so far. On a big tree
// prove runs for minutes, and a silent terminal reads as a hang.
type meter struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	done  int
	start time.Time
	last  time.Time // when the line was last written
}

// newMeter returns a meter writing to w, or nil (which prints nothing)
// when w is nil or there is nothing to count.
func newMeter(w io.Writer, total int) *meter {
	if w == nil || total == 0 {
		return nil
	}
	return &meter{w: w, total: total, start: time.Now()}
}

// tick counts one mutant decided. The line is rewritten at most five
// times a second, and always for the last mutant, which ends the line.
func (m *meter) tick() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done++
	now := time.Now()
	if m.done < m.total && now.Sub(m.last) < 200*time.Millisecond {
		return
	}
	m.last = now
	elapsed := now.Sub(m.start)
	line := fmt.Sprintf("guardlint prove: %d/%d mutants, %s elapsed", m.done, m.total, elapsed.Round(time.Second))
	if m.done < m.total {
		left := time.Duration(float64(elapsed) / float64(m.done) * float64(m.total-m.done))
		line += fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	end := ""
	if m.done == m.total {
		end = "\n"
	}
	// \r and the erase-line sequence rewrite the line in place.
	fmt.Fprintf(m.w, "\r\x1b[K%s%s", line, end)
}

// IsTerminal reports whether f is a terminal (a character device): the
// progress line is for people watching, and a log or a pipe gets none.
func IsTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
