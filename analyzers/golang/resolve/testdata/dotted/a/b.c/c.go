// Package c lives at example.com/dotted/a/b.c.
package c

// X is a function.
func X() { note() }

func note() {}
