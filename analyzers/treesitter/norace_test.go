//go:build !race

package treesitter

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = false
