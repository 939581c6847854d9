package raft

import (
	"io"
	"sync"
)

// Stream's reader types run only inside io calls made under its lock.
type Stream struct {
	mu   sync.Mutex
	left int
}

// lockedReader reads a Stream whose lock its caller holds. Its values
// exist only as literals that io.Copy(io.Discard, ...) and io.ReadAll run
// during the call: Read is no entry point, and those calls need s.mu.
type lockedReader struct{ s *Stream }

func (lr lockedReader) Read(p []byte) (int, error) { // want Read:"guarded_by stream-left param -1.s"
	if lr.s.left == 0 {
		return 0, io.EOF
	}
	lr.s.left--
	return 1, nil
}

// Drain holds the lock around the runs: silent.
func (s *Stream) Drain() {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = io.Copy(io.Discard, lockedReader{s})
	_, _ = io.ReadAll(lockedReader{s: s})
}

// DrainUnlocked does not.
func (s *Stream) DrainUnlocked() { // want DrainUnlocked:"guarded_by stream-left param -1"
	_, _ = io.ReadAll(lockedReader{s}) // want `exported method \(\*raft.Stream\).DrainUnlocked calls io.ReadAll, which runs \(raft.lockedReader\).Read, which writes \(\*raft.Stream\).left, without s.mu held`
}

// leakyReader is also handed out as an io.Reader: anything may call its
// Read, so it is an entry point.
type leakyReader struct{ s *Stream }

func (lr leakyReader) Read(p []byte) (int, error) { // want Read:"guarded_by stream-left param -1.s"
	lr.s.left-- // want `exported method \(raft.leakyReader\).Read writes \(\*raft.Stream\).left without lr.s.mu held`
	return 1, nil
}

func (s *Stream) Reader() io.Reader {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = io.ReadAll(leakyReader{s})
	return leakyReader{s}
}

// copyReader goes to io.Copy with a writer that may keep it: an entry
// point too.
type copyReader struct{ s *Stream }

func (cr copyReader) Read(p []byte) (int, error) { // want Read:"guarded_by stream-left param -1.s"
	cr.s.left-- // want `exported method \(raft.copyReader\).Read writes \(\*raft.Stream\).left without cr.s.mu held`
	return 1, nil
}

func (s *Stream) CopyTo(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = io.Copy(w, copyReader{s})
}
