package suppress

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParse(t *testing.T) {
	for text, want := range map[string][3]string{
		"//guardlint:ignore a-b the pool is bypassed": {"a-b", "the pool is bypassed", "ok"},
		"//guardlint:ignore a-b":                      {"a-b", "", "ok"},
		"//guardlint:ignore":                          {"", "", "ok"},
		"//guardlint:ignore\tx y\r\n":                 {"x", "y", "ok"},
		"//guardlint:ignored x y":                     {"", "", ""},
		"// guardlint:ignore x y":                     {"", "", ""},
	} {
		id, reason, ok := Parse(text)
		assert.Equal(t, want, [3]string{id, reason, map[bool]string{true: "ok"}[ok]}, text)
	}
}

func TestCoversAndProblems(t *testing.T) {
	s := &Set[string]{}
	used := &Directive[string]{File: "a/x.go", Line: 4, ID: "inv", Reason: "why"}
	unused := &Directive[string]{File: "a/x.go", Line: 20, ID: "inv", Reason: "why"}
	noReason := &Directive[string]{File: "a/x.go", Line: 9, ID: "inv"}
	unknown := &Directive[string]{File: "a/x.go", Line: 12, ID: "gone", Reason: "why"}
	empty := &Directive[string]{File: "a/x.go", Line: 14}
	off := &Directive[string]{File: "a/x.go", Line: 16, ID: "off", Reason: "why"}
	for _, d := range []*Directive[string]{used, unused, noReason, unknown, empty, off} {
		s.Add(d)
	}
	assert.True(t, s.Covers("a/./x.go", 5, "inv"), "the line above covers")
	assert.False(t, s.Covers("a/x.go", 6, "inv"), "two lines above does not")
	assert.False(t, s.Covers("a/x.go", 10, "inv"), "a directive without a reason does not")
	assert.False(t, s.Covers("b/x.go", 5, "inv"), "another file")
	assert.False(t, s.Covers("a/x.go", 4, "other"), "another invariant")
	var got []string
	for _, p := range s.Problems(ids{checked: "inv", unchecked: "off"}) {
		got = append(got, p.Message)
	}
	assert.Equal(t, []string{
		"guardlint:ignore inv suppresses nothing on this line or the next",
		"guardlint:ignore inv needs a reason after the id",
		"guardlint:ignore names gone, which is not a loaded invariant",
		"guardlint:ignore needs an invariant id and a reason: //guardlint:ignore <id> <reason>",
	}, got)
}

// ids knows one checked and one unchecked invariant.
type ids struct{ checked, unchecked string }

func (i ids) Knows(id string) bool  { return id == i.checked || id == i.unchecked }
func (i ids) Checks(id string) bool { return id == i.checked }
