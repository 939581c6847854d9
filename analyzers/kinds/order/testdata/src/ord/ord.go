package ord

type Table struct{ data []int }

func (t *Table) read(i int) int      { return t.data[i] }
func (t *Table) readAt(i, _ int) int { return t.data[i] }

func check(t *Table, i int) int {
	if i >= len(t.data) {
		panic("out of range")
	}
	return i
}

const debug = false

func good(t *Table, i int) int {
	check(t, i)
	return t.read(i)
}

func goodArg(t *Table, i int) int {
	return t.readAt(i, check(t, i))
}

func goodBothBranches(t *Table, i int, fast bool) int {
	if fast {
		check(t, i)
	} else {
		check(t, 0)
	}
	return t.read(i)
}

func swapped(t *Table, i int) int {
	v := t.read(i) // want `invariant swapped: ord.swapped must call ord.check before this call of \(\*ord.Table\).read, on every path`
	check(t, i)
	return v
}

func oneBranch(t *Table, i int, fast bool) int {
	if !fast {
		check(t, i)
	}
	return t.read(i) // want `invariant one-branch: ord.oneBranch must call ord.check before`
}

func deferred(t *Table, i int) int {
	defer check(t, i)
	return t.read(i) // want `invariant deferred: ord.deferred must call ord.check before`
}

func deadCheck(t *Table, i int) int {
	if debug {
		check(t, i)
	}
	return t.read(i) // want `invariant dead-check: ord.deadCheck must call ord.check before`
}

func readGone(t *Table, i int) int { // want `invariant read-gone: ord.readGone no longer makes a live call of \(\*ord.Table\).read, so the order ord.check before \(\*ord.Table\).read cannot be checked`
	check(t, i)
	return t.data[i]
}

func commented(t *Table, i int) int {
	// check(t, i)
	return t.read(i) // want `invariant commented: ord.commented must call ord.check before`
}

func inLiteral(t *Table, i int) int {
	f := func() { check(t, i) }
	_ = f
	return t.read(i) // want `invariant in-literal: ord.inLiteral must call ord.check before`
}

func inCalledLiteral(t *Table, i int) int {
	func() { check(t, i) }()
	return t.read(i)
}

func afterReturnCheck(t *Table, i int) int {
	return t.read(i) // want `invariant after-return-check: ord.afterReturnCheck must call ord.check before`
	check(t, i)
	return 0
}

func deferredInLiteral(t *Table, i int) int {
	func() { defer check(t, i) }()
	return t.read(i)
}

func deferredInLiteralBranch(t *Table, i int, ok bool) int {
	func() {
		if ok {
			defer check(t, i)
		}
	}()
	return t.read(i) // want `invariant deferred-in-literal-branch: ord.deferredInLiteralBranch must call ord.check before`
}
