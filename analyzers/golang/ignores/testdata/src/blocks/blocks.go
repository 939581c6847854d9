package blocks

type Encoder struct{}

func (e *Encoder) retain() {}

//guardlint:ignore-begin in-block the test doubles below have no pool
func a(e *Encoder) {}

func b(e *Encoder) {}

//guardlint:ignore-end in-block

func c(e *Encoder) {} // after the block: reported (TestSuppressionForms in the cli package)

func unused(e *Encoder) {
	e.retain()
}

/* want `guardlint:ignore-begin unused suppresses nothing in its block` */ //guardlint:ignore-begin unused nothing below fails
func f() {
}

//guardlint:ignore-end unused

/* want `guardlint:ignore-end in-block closes no //guardlint:ignore-begin in-block above it` */ //guardlint:ignore-end in-block

/* want `guardlint:ignore-begin in-block has no //guardlint:ignore-end in-block below it` */ //guardlint:ignore-begin in-block never closed

/* want `guardlint:ignore-begin unused needs a reason after the id` */ //guardlint:ignore-begin unused

//guardlint:ignore-begin off the invariant is disabled, so this is neither unknown nor unused
func g() {
}

//guardlint:ignore-end off
