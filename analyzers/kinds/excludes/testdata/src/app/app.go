// Package app uses gpu: the exclusions cross the package boundary as facts.
package app

import "gpu"

// Drain flushes without holding gpu.Mu.
func Drain() { gpu.FlushAll() } // want Drain:"excludes flush-unlocked gpu.Mu: app.Drain → gpu.FlushAll → gpu.Flush"

// DrainLocked flushes holding gpu.Mu, through a function of gpu.
func DrainLocked() {
	gpu.Mu.Lock()
	defer gpu.Mu.Unlock()
	gpu.FlushAll() // want `app.DrainLocked calls gpu.FlushAll while holding gpu.Mu \(taken at line 11\), and gpu.Flush must not run with gpu.Mu held: app.DrainLocked → gpu.FlushAll → gpu.Flush`
}

// flushAgain passes the exclusion on within app.
func flushAgain() { gpu.FlushAll() } // want flushAgain:"excludes flush-unlocked gpu.Mu: app.flushAgain → gpu.FlushAll → gpu.Flush"

// DrainTwice reaches Flush through app's own helper.
func DrainTwice() {
	gpu.Mu.Lock()
	flushAgain() // want `app.DrainTwice calls app.flushAgain while holding gpu.Mu`
	gpu.Mu.Unlock()
}
