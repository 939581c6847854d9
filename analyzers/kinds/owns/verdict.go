package owns

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
)

// write is one write of the owned field outside its writers.
type write[S core.Site] struct {
	core.Occurrence[S]
	// by names what writes: a function, or package initialization.
	by string
}

// verdict is the owns rule's judgement of the writes of the field outside
// its writers: each one that runs, or might run, is a finding.
func verdict[S core.Site](rep core.Reporter[S], field string, writers []string, writes []write[S]) {
	only := strings.Join(writers, ", ")
	for _, w := range writes {
		switch {
		case w.Live():
			rep.Report(w.At, "field %s is written here by %s; only %s may write it", field, w.by, only)
		case w.Maybe:
			rep.Report(w.At, "field %s is written here by %s, and this write might run: it is %s; only %s may write it", field, w.by, w.Dead, only)
		}
	}
}
