package stalelocks

import "sync"

var evalMu sync.Mutex

func lockBriefly() {
	evalMu.Lock()
	evalMu.Unlock()
}

func Eval() {
	evalMu.Lock()
	defer evalMu.Unlock()
}
