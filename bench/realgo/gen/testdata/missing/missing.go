// Package missing imports a package no module provides: go list reports
// an error for it, and point 24 of the after-unlock rule leaves it out.
package missing

import _ "example.invalid/nothere"
