package cb

type Encoder struct{}

func (e *Encoder) release() {}

type CommandBuffer struct {
	active *Encoder
	Lane   int
}

const debug = false

func (b *CommandBuffer) getOrCreateEncoder() *Encoder {
	if b.active == nil {
		func() { b.active = &Encoder{} }() // inside the owner: silent
	}
	return b.active
}

func (b *CommandBuffer) endActiveEncoder() {
	if b.active != nil {
		b.active.release()
		b.active = nil
	}
}

func (b *CommandBuffer) setLane(l int) { b.Lane = l }

func (b *CommandBuffer) reset() {
	b.active = nil // want `invariant active-owned: field \(cb.CommandBuffer\).active is written here by \(\*cb.CommandBuffer\).reset; only \(\*cb.CommandBuffer\).getOrCreateEncoder, \(\*cb.CommandBuffer\).endActiveEncoder may write it`
}

func (b *CommandBuffer) resetDead() {
	if debug {
		b.active = nil // dead: silent
	}
	b.endActiveEncoder()
}

func (b *CommandBuffer) escape() **Encoder {
	return &b.active // want `invariant active-owned: .*written here by \(\*cb.CommandBuffer\).escape`
}

func (b *CommandBuffer) later() func() {
	return func() {
		b.active = nil // want `invariant active-owned: .*written here by \(\*cb.CommandBuffer\).later`
	}
}

func newBuffer(e *Encoder) *CommandBuffer {
	return &CommandBuffer{active: e} // want `invariant active-owned: .*written here by cb.newBuffer`
}

func newBufferZero() *CommandBuffer {
	return &CommandBuffer{Lane: 0} // want `invariant exported-owned: .*written here by cb.newBufferZero`
}
