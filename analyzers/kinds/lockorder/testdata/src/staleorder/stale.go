package staleorder

import "sync"

var (
	evalMu  sync.Mutex
	poolMu  sync.Mutex
	counter int
)

func Eval() {
	evalMu.Lock()
	poolMu.Lock()
	counter++
	poolMu.Unlock()
	evalMu.Unlock()
}
