package stalenever

import "sync"

var (
	evalMu  sync.Mutex
	counter int
)

func task() { counter++ }

func run(f func()) { f() }

func Eval() {
	evalMu.Lock()
	defer evalMu.Unlock()
	run(task)
}
