//go:build race

package driver

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = true
