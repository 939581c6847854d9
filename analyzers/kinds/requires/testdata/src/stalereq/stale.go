package stalereq

import "sync"

var (
	evalMu  sync.Mutex
	counter int
)

func dispatchLocked() { counter++ }

func lockBriefly() {
	evalMu.Lock()
	evalMu.Unlock()
}

func keepLocked() { evalMu.Lock() }
