package invariants

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Severity says how much a finding of an invariant weighs: whether it
// fails the run (see the commands' -fail-on) and how the formats mark it
// (SARIF's level, -json's severity, a prefix on the text line).
type Severity string

// The severities, from the heaviest. An invariant without `severity` is
// an error: a guard a team declared fails the run unless it says
// otherwise.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityNote    Severity = "note"
)

// Severities lists the severities from the heaviest.
var Severities = []Severity{SeverityError, SeverityWarning, SeverityNote}

// Rank orders severities: 0 for error, 1 for warning, 2 for note; an
// unknown or empty severity ranks as an error.
func (s Severity) Rank() int {
	if i := slices.Index(Severities, s); i >= 0 {
		return i
	}
	return 0
}

// severityNames lists the severities as strings, for messages.
func severityNames() []string {
	out := make([]string, len(Severities))
	for i, s := range Severities {
		out[i] = string(s)
	}
	return out
}

// ParseSeverity reads a severity as the command line writes it.
func ParseSeverity(s string) (Severity, error) {
	if slices.Contains(Severities, Severity(s)) {
		return Severity(s), nil
	}
	return "", fmt.Errorf("severity %q: want %s", s, strings.Join(severityNames(), ", "))
}

// Knows reports whether id names an invariant of the set, checked or not
// (disabled with `enabled: false`, or left out by Select): a suppression
// that names it names a real invariant.
func (s *Set) Knows(id string) bool {
	return s.Checks(id) || slices.ContainsFunc(s.Unchecked, func(inv *Invariant) bool { return inv.ID == id })
}

// Checks reports whether id names an invariant the run checks.
func (s *Set) Checks(id string) bool {
	return slices.ContainsFunc(s.Invariants, func(inv *Invariant) bool { return inv.ID == id })
}

// Select keeps checked only the invariants that only matches (every one
// when only is empty) and skip does not; the others move to Unchecked.
// Each pattern is an id or a glob over ids (path.Match: `gpu-*`,
// `encoder-?`). A pattern that matches no invariant of the set is an
// error, with the closest id: a misspelt -only would otherwise check
// nothing and pass, and a misspelt -skip would check what it meant to
// skip.
func (s *Set) Select(only, skip []string) error {
	all := slices.Concat(s.Invariants, s.Unchecked)
	ids := make([]string, len(all))
	for i, inv := range all {
		ids[i] = inv.ID
	}
	match := func(flag string, patterns []string) (func(id string) bool, error) {
		for _, p := range patterns {
			if _, err := path.Match(p, ""); err != nil {
				return nil, fmt.Errorf("-%s %q: %w", flag, p, err)
			}
			if !slices.ContainsFunc(ids, func(id string) bool { ok, _ := path.Match(p, id); return ok }) {
				return nil, fmt.Errorf("-%s %q matches no invariant%s", flag, p, didYouMean(p, ids))
			}
		}
		return func(id string) bool {
			return slices.ContainsFunc(patterns, func(p string) bool { ok, _ := path.Match(p, id); return ok })
		}, nil
	}
	onlyMatch, err := match("only", only)
	if err != nil {
		return err
	}
	skipMatch, err := match("skip", skip)
	if err != nil {
		return err
	}
	var keep []*Invariant
	for _, inv := range s.Invariants {
		if (len(only) == 0 || onlyMatch(inv.ID)) && !skipMatch(inv.ID) {
			keep = append(keep, inv)
		} else {
			s.Unchecked = append(s.Unchecked, inv)
		}
	}
	s.Invariants = keep
	return nil
}
