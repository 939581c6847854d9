package fb

type Encoder struct{}

func (e *Encoder) release() {}

type Buffer struct{}

func (b *Buffer) release() {}

type CommandBuffer struct {
	active *Encoder
	buf    *Buffer
	hook   func()
}

const debug = false

func (c *CommandBuffer) endActiveEncoder() { c.active.release() }

func (c *CommandBuffer) reset() {
	c.endActiveEncoder()
	c.active.release() // want `invariant reset-no-release: \(\*fb.CommandBuffer\).reset must not call \(\*fb.Encoder\).release \(why: releasing in reset releases twice\)`
}

// clean is silent: another type's release, a dead call, a comment, a string.
func (c *CommandBuffer) clean() {
	c.buf.release()
	if debug {
		c.active.release()
	}
	// c.active.release()
	_ = "c.active.release()"
}

func (c *CommandBuffer) stored() {
	c.hook = func() {
		c.active.release() // want `invariant stored: .*this call might run: it is in a function literal that is never called`
	}
}

func (c *CommandBuffer) goes() {
	go c.active.release() // want `invariant goes: .*might run: it is in a go statement`
}

func (c *CommandBuffer) value() {
	c.hook = c.active.release // want `invariant value: .*might run: it is a function or method value`
}
