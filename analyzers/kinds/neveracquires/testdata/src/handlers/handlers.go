// Package handlers holds callbacks that run while lanes.Mu is held.
package handlers

import "lanes"

// handle does not take Mu.
func handle() {}

// handleDeep takes Mu through a function of lanes, known by its fact.
func handleDeep() {
	lanes.Flush() // want `invariant handlers-never-take-Mu: handlers.handleDeep must never take lanes.Mu, and lanes.Flush takes it at lanes.go:58: handlers.handleDeep → lanes.Flush`
}
