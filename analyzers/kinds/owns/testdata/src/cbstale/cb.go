package cbstale

type CommandBuffer struct{ active *int }

var Global int

func (b *CommandBuffer) reset() { b.active = nil }
