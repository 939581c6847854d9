package sup

type Encoder struct{}

func (e *Encoder) retain() {}

func suppressed(e *Encoder) { //guardlint:ignore suppressed the test double has no pool
}

//guardlint:ignore suppressed-above the test double has no pool
func suppressedAbove(e *Encoder) {
}

func unused(e *Encoder) {
	e.retain()
}

func other() {
	/* want `guardlint:ignore unused suppresses nothing on this line or the next` */ //guardlint:ignore unused it used to be missing
}

/* want `guardlint:ignore needs an invariant id and a reason` */ //guardlint:ignore

/* want `guardlint:ignore unused needs a reason after the id` */ //guardlint:ignore unused

/* want `guardlint:ignore names no-such-id, which is not a loaded invariant` */ //guardlint:ignore no-such-id because

//guardlint:ignored is another directive and not ours
