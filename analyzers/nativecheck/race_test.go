//go:build race

package nativecheck_test

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = true
