// Package runner has functions that run the function they are given, for
// the call rule's runners across packages: Do calls f on every path, so
// its fact says so; Maybe does not; Pool is declared a runner by the
// invariants file.
package runner

// Do calls f before it returns.
func Do(f func()) {
	defer recover()
	f()
}

// Maybe calls f only when ok.
func Maybe(ok bool, f func()) {
	if ok {
		f()
	}
}

// Pool runs its tasks on workers and waits for them: no analysis can
// show that, so the invariants file declares it.
func Pool(tasks ...func()) {
	done := make(chan struct{})
	for _, t := range tasks {
		go func() { t(); done <- struct{}{} }()
	}
	for range tasks {
		<-done
	}
}
