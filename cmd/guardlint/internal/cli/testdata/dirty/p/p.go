package p

import "sync"

type Encoder struct{ refs int }

func (e *Encoder) retain() { e.refs++ }

type CommandBuffer struct{ active *Encoder }

func (cb *CommandBuffer) getOrCreateEncoder() *Encoder {
	if cb.active == nil {
		cb.active = &Encoder{}
		// cb.active.retain()
	}
	return cb.active
}

var evalMu sync.Mutex

func Eval() {
	evalMu.Lock()
	defer evalMu.Unlock()
}
