// Package p reverts the retain that encoder-retained guards.
package p

import "sync"

// Encoder is a pooled encoder.
type Encoder struct{ refs int }

func (e *Encoder) retain() { e.refs++ }

// CommandBuffer owns the active encoder.
type CommandBuffer struct{ active *Encoder }

func (cb *CommandBuffer) getOrCreateEncoder() *Encoder {
	if cb.active == nil {
		cb.active = &Encoder{}
		// cb.active.retain()
	}
	return cb.active
}

var evalMu sync.Mutex

// Eval holds evalMu for its body.
func Eval() {
	evalMu.Lock()
	defer evalMu.Unlock()
}
