// Package cliflag is what guardlint's commands share about their command
// lines: parsing flags with a "did you mean" for a misspelt one, and the
// suggestion itself, also used for misspelt commands.
package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/agnivade/levenshtein"
)

// NewFlagSet returns a flag set that leaves reporting to Parse: its own
// output is discarded.
func NewFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// Parse parses args. -h prints the usage; an error is printed with a
// suggestion for a misspelt flag and a pointer to the help, instead of
// the whole usage.
func Parse(fs *flag.FlagSet, args []string, stderr io.Writer, usage func()) error {
	fs.Usage = func() {}
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		usage()
	}
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if guess := Closest(strings.TrimLeft(name, "-"), names); guess != "" {
			msg += "; did you mean -" + guess + "?"
		}
	}
	fmt.Fprintf(stderr, "%s: %s\nRun '%s -h' for usage.\n", fs.Name(), msg, fs.Name())
	return err
}

// Closest returns the candidate nearest to s, for "did you mean": one
// that differs only in case, or else the nearest within two edits
// (Levenshtein distance, as the invariants' "closest:" uses), and "" when
// none is that near or two are equally near. A command line gets one
// guess, not a list: the invariants file's names get invariants.Closest.
func Closest(s string, candidates []string) string {
	for _, c := range candidates {
		if strings.EqualFold(s, c) {
			return c
		}
	}
	best, bestDist, tie := "", 3, false
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(strings.ToLower(s), strings.ToLower(c))
		switch {
		case d < bestDist:
			best, bestDist, tie = c, d, false
		case d == bestDist:
			tie = true
		}
	}
	if tie || best == "" || bestDist >= len(s) {
		return ""
	}
	return best
}
