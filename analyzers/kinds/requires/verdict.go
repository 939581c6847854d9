package requires

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/core"
)

// The words of the requires rule's findings, shared by the Go analyzer
// and the tree-sitter facet, so that both say the same thing about the
// same mistake.

// unheldCall words a call of an operation, made without the lock by a
// function whose callers cannot be seen (entry: "exported function
// app.Serve", "function f, which other files can call,"): the
// requirement stops there. path runs from the function to the operation.
func unheldCall(entry, callee, lock string, mode string, path []string) string {
	return fmt.Sprintf("%s calls %s without holding %s (%s), and nothing shows its callers hold it: %s; every call of %s needs the lock",
		entry, callee, lock, mode, pathString(path), last(path))
}

// unheldLiteral words a call of an operation, made without the lock by a
// function literal, lambda or closure that does not run where it is
// written (what: "function literal that does not run where it is written
// (stored, returned or passed on)", "goroutine").
func unheldLiteral(what, callee, lock string, mode string, path []string) string {
	return fmt.Sprintf("%s calls %s without holding %s (%s), and nothing shows its caller holds it: %s; every call of %s needs the lock",
		what, callee, lock, mode, pathString(path), last(path))
}

// weakerCall words a call made holding the lock shared where the callee
// needs it exclusive: no caller can make up for that. shared and
// exclusive name the operations in the language (RLock and Lock in Go).
func weakerCall(who, lock, callee, shared, exclusive string, path []string) string {
	return fmt.Sprintf("%s holds %s only for reading (%s) where it calls %s, which needs it exclusive (%s): %s",
		who, lock, shared, callee, exclusive, pathString(path))
}

// valueUse words a function that needs the lock named as a value: where
// it is called from cannot be followed.
func valueUse(fn, lock string, mode string, path []string) string {
	return fmt.Sprintf("%s needs %s held by its callers (%s), but is used here as a function value, whose calls cannot be checked: %s",
		fn, lock, mode, pathString(path))
}

// unheldWithin words a call that a function named under `within` makes
// without the lock, with why no guard holds it there.
func unheldWithin(fn, lock string, mode string, callee, why string) string {
	return fmt.Sprintf("%s must hold %s (%s) where it calls %s; %s", fn, lock, mode, callee, why)
}

func pathString(p []string) string { return core.CallPath(p) }

func last(p []string) string { return p[len(p)-1] }
