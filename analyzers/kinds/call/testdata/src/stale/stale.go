package stale

type Encoder struct{}

func (e *Encoder) retain() {}

// current is what getOrCreateEncoder was renamed to.
func current(e *Encoder) {
	e.retain()
	notAHelper(e)
}

func notAHelper(e *Encoder) {
	if e != nil {
		e.retain()
	}
}
