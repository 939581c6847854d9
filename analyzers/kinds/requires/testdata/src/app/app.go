// Package app uses the gpu package from outside.
package app

import "gpu"

// Serve is a new entry point in another package that calls an operation
// without the lock.
func Serve(e *gpu.Encoder) { // want Serve:"requires encode-locked"
	gpu.EncodeLocked(e) // want `exported function app.Serve calls gpu.EncodeLocked without holding gpu.evalMu \(exclusive\), and nothing shows its callers hold it: app.Serve → gpu.EncodeLocked;`
}

// ServeLocked takes the lock through the declared helpers.
func ServeLocked(e *gpu.Encoder) {
	gpu.LockEval()
	defer gpu.UnlockEval()
	gpu.EncodeLocked(e)
}

func viaHelper(e *gpu.Encoder) { gpu.Submit(e) } // want viaHelper:"requires encode-locked"

// Run reaches the dispatch through a helper here and two in gpu.
func Run(e *gpu.Encoder) { // want Run:"requires encode-locked"
	viaHelper(e) // want `exported function app.Run calls app.viaHelper without holding gpu.evalMu .*: app.Run → app.viaHelper → gpu.Submit → gpu.prepare → gpu.record → \(\*gpu.Encoder\).dispatchLocked;`
}
