package p

func (cb *CommandBuffer) getOrCreateEncoder() { undefined() }

type CommandBuffer struct{}
