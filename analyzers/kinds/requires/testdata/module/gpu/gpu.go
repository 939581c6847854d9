package gpu

import "sync"

var evalMu sync.Mutex

type Encoder struct{ n int }

func (e *Encoder) dispatchLocked() { e.n++ }

// Encode needs the lock: its callers hold it.
//
//guardlint:requires evalMu
func Encode(e *Encoder) { e.dispatchLocked() }

func Lock()   { evalMu.Lock() }
func Unlock() { evalMu.Unlock() }
