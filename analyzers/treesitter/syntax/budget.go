package syntax

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// DefaultBudget is the parse budget when none is given (see
// core.DefaultParseBudget).
const DefaultBudget = core.DefaultParseBudget

// ErrBudget is what a parse that did not finish within its budget returns;
// the error is a *BudgetError.
var ErrBudget = errors.New("the parser did not finish")

// BudgetError is a parse that did not finish within its budget.
type BudgetError struct {
	Path  string
	Size  int
	Limit time.Duration
	// Abandoned is set when the parser did not stop when asked and was left
	// running (see ParseWithin).
	Abandoned bool
}

func (e *BudgetError) Error() string {
	limit := e.Limit
	if limit >= time.Millisecond {
		limit = limit.Round(time.Millisecond)
	}
	return fmt.Sprintf("the parser did not finish %s within its budget (%v for %d bytes)", e.Path, limit, e.Size)
}

// Unwrap makes errors.Is(err, ErrBudget) hold.
func (e *BudgetError) Unwrap() error { return ErrBudget }

// Limit is the time a parse of size bytes may take under a budget: the
// budget, and the budget again for every MiB.
func Limit(budget time.Duration, size int) time.Duration {
	if budget <= 0 {
		budget = DefaultBudget
	}
	limit := float64(budget) * (1 + float64(size)/(1<<20))
	if limit > float64(1<<62) {
		return 1 << 62
	}
	return time.Duration(limit)
}

// abandoned counts the parses that the watchdog gave up on and that are
// still running; tests read it.
var abandoned atomic.Int64

// ignoreStop is set by tests only: the progress callback then never asks
// the parser to stop, as if tree-sitter did not call it, so that the
// watchdog must act.
var ignoreStop atomic.Bool

// watchdogOff is set by tests only: the watchdog is not armed, so that
// only the progress callback can end a parse past its deadline, however
// late a loaded machine schedules the goroutines.
var watchdogOff atomic.Bool

// Parse parses src as lang within DefaultBudget.
func Parse(lang Lang, path string, src []byte) (*File, error) {
	return ParseWithin(lang, path, src, DefaultBudget)
}

// ParseWithin parses src as lang; tree-sitter may spend Limit(budget,
// len(src)) on it, and a parse that takes longer returns a *BudgetError
// (ErrBudget). A file with syntax errors still parses; FirstBad finds
// them. A file that holds a NUL byte is not text and is not parsed, nor is
// one larger than MaxFileSize.
//
// tree-sitter can loop for good in error recovery on some inputs. Two
// mechanisms bound a parse. The parser's progress callback, which
// tree-sitter calls every hundred parse operations, cancels the parse at
// the deadline; on the known looping inputs it is called thousands of
// times a second, so cancellation is prompt and everything is freed. In
// case a loop never reaches the callback, the parse runs on a goroutine of
// its own and a watchdog stops waiting for it a quarter of the limit after
// the deadline: the caller gets the error and the run goes on, while the
// abandoned parse keeps its thread (a core while it loops) and its memory
// until the process exits or the callback is reached at last. A
// subprocess could be killed instead, but would cost a process start and
// a copy of the tree through a pipe for every file, and cannot be started
// from inside another program's process (the golangci-lint plugin);
// docs/reliability.md has the figures.
//
// The tree is copied into Go values and every tree-sitter object is
// closed before it returns.
func ParseWithin(lang Lang, path string, src []byte, budget time.Duration) (*File, error) {
	g, err := grammarOf(lang)
	if err != nil {
		return nil, err
	}
	if err := checkText(path, src); err != nil {
		return nil, err
	}
	limit := Limit(budget, len(src))
	run := &parseRun{deadline: time.Now().Add(limit)}
	parsed := make(chan struct{})
	done := make(chan parseResult, 1)
	go func() {
		f, err := run.parse(g, lang, path, src, parsed)
		done <- parseResult{f, err}
	}()
	var fired <-chan time.Time // nil: never
	if !watchdogOff.Load() {
		watchdog := time.NewTimer(limit + limit/4)
		defer watchdog.Stop()
		fired = watchdog.C
	}
	select {
	case <-parsed:
	case <-fired:
		if run.abandon() {
			return nil, &BudgetError{Path: path, Size: len(src), Limit: limit, Abandoned: true}
		}
		// The parse returned while the watchdog fired.
	}
	r := <-done
	if errors.Is(r.err, ErrBudget) {
		return nil, &BudgetError{Path: path, Size: len(src), Limit: limit}
	}
	return r.f, r.err
}

// parseResult is what the parsing goroutine hands back.
type parseResult struct {
	f   *File
	err error
}

// parseRun is one parse with its deadline, shared by the goroutine that
// parses, its progress callback and the watchdog.
type parseRun struct {
	deadline time.Time
	// state is running, then finished (set by the parse) or abandoned (set
	// by the watchdog), whichever comes first.
	state atomic.Int32
}

const (
	running int32 = iota
	finished
	gaveUp
)

// abandon gives up on the parse unless it has finished; it reports
// whether it gave up.
func (r *parseRun) abandon() bool {
	if !r.state.CompareAndSwap(running, gaveUp) {
		return false
	}
	abandoned.Add(1)
	return true
}

// progress is the parser's progress callback: true stops the parse.
func (r *parseRun) progress(sitter.ParseState) bool {
	if ignoreStop.Load() {
		return false
	}
	return r.state.Load() == gaveUp || time.Now().After(r.deadline)
}

// parse runs tree-sitter and copies the tree. It closes parsed as soon as
// tree-sitter returns, so that the watchdog does not count the copy, which
// is Go code and linear in the size of the tree.
func (r *parseRun) parse(g *grammar, lang Lang, path string, src []byte, parsed chan<- struct{}) (*File, error) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.lang); err != nil {
		close(parsed)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// tree-sitter reads the input of the language (a metal file with its
	// MSL words blanked, see parseInput); tokens are read from src, at the
	// same offsets.
	in := parseInput(lang, src)
	tree := p.ParseWithOptions(func(i int, _ sitter.Point) []byte {
		if i < len(in) {
			return in[i:]
		}
		return nil
	}, nil, &sitter.ParseOptions{ProgressCallback: r.progress})
	if !r.state.CompareAndSwap(running, finished) {
		// The watchdog gave up on this parse; nobody waits for it.
		abandoned.Add(-1)
		if tree != nil {
			tree.Close()
		}
		return nil, ErrBudget
	}
	close(parsed)
	if tree == nil {
		// tree-sitter returns no tree when the callback stopped it, which
		// it does only past the deadline, and when a grammar's scanner fails.
		if time.Now().After(r.deadline) {
			return nil, ErrBudget
		}
		return nil, fmt.Errorf("%s: tree-sitter returned no tree", path)
	}
	defer tree.Close()
	c := tree.Walk()
	defer c.Close()
	f := &File{Path: path, Lang: lang, Src: src}
	f.Root, f.toks = copyTree(c, g, string(src))
	f.lines = lineStarts(src)
	return f, nil
}
