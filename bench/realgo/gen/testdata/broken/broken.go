// Package broken does not type-check: the generator must fail on it.
package broken

var n int = "not a number"
