// Package b declares a type c, so that example.com/dotted/a/b.c.X reads
// both as the method X of b.c and as the function X of package a/b.c.
package b

type c struct{}

// X is a method of c.
func (c) X() { note() }

func note() {}

var _ = c{}
