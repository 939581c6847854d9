package guardedby

import (
	"fmt"

	"github.com/guardlint/guardlint/analyzers/core"
)

// The words of the guarded_by rule's findings.

// unheld words an access (or a call that leads to one) made without the
// lock: "reads (*Raft).peers without r.mu held".
func unheld(action, lock string) string {
	return fmt.Sprintf("%s without %s held", action, lock)
}

// weaker words an access made holding the lock shared where it needs it
// exclusive. needWhat says who asks it: "writing", "the invariant's
// reads: exclusive".
func weaker(action, lock, needWhat string) string {
	return fmt.Sprintf("%s under a shared lock of %s (RLock); %s needs it exclusive (Lock)", action, lock, needWhat)
}

// atEntry words the first access of a function whose callers cannot be
// seen (entry: "exported method (*p.T).Peers"), made without the lock of
// a value they pass it.
func atEntry(entry, action, lock string, path []string) string {
	return fmt.Sprintf("%s %s without %s held, and nothing shows its callers hold it: %s", entry, action, lock, core.CallPath(path))
}

// detached words an access in code that runs apart from the function
// around it (what: "goroutine", "function literal that does not run where
// it is written (stored, returned or passed on)"), which holds no lock.
func detached(what, action, lock string) string {
	return fmt.Sprintf("%s %s without %s held: it starts holding no lock", what, action, lock)
}

// goCall words a go statement that starts a function needing the lock.
func goCall(who, callee, what, lock string, path []string) string {
	return fmt.Sprintf("goroutine started in %s runs %s, which %s, without %s held: a goroutine starts holding no lock: %s", who, callee, what, lock, core.CallPath(path))
}

// callAction words a call that leads to an access: "calls (*p.T).reset,
// which writes (*p.T).peers,".
func callAction(callee, what string) string {
	return fmt.Sprintf("calls %s, which %s,", callee, what)
}
