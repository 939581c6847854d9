// Package p reverts the retain that encoder-retained guards.
package p

import "sync"

// Encoder is a pooled encoder.
type Encoder struct{ refs int }

func (e *Encoder) retain() { e.refs++ }

// CommandBuffer owns the active encoder.
type CommandBuffer struct{ active *Encoder }

func (tampon *CommandBuffer) getOrCreateEncoder() *Encoder {
	if tampon.active == nil {
		tampon.active = &Encoder{}
		// tampon.active.retain()
	}
	return tampon.active
}

var evalMu sync.Mutex

// Eval holds evalMu for its body.
func Eval() {
	evalMu.Lock()
	defer evalMu.Unlock()
	//guardlint:ignore eval-locked
}

// Größe has a non-ASCII name, so byte and UTF-16 columns differ after it.
func Größe() { var b CommandBuffer; b.getOrCreateEncoder() }
