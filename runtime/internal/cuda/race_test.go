//go:build race

package cuda

// raceEnabled: the test binary has the race detector, under which
// sync.Pool drops a share of what is put back, on purpose.
const raceEnabled = true
