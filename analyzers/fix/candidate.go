package fix

import (
	"regexp"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
)

// candidate is one proposed invariant, before it is proven: what a kind
// proposed (registry.Suggest), with the id it is printed under.
type candidate struct {
	core.Proposal
	// id is set once candidates are numbered.
	id string
	// nameOnly: the revert fails it only because a name it uses is gone
	// (it cannot verify there), not on its merits.
	nameOnly bool
}

// baseID is a readable id: the target, what it must do, the name.
func (c *candidate) baseID() string {
	parts := []string{short(c.Target())}
	if len(c.Says) > 0 {
		parts = append(parts, c.Says[0])
	}
	if len(c.Says) > 1 {
		parts = append(parts, short(c.Says[1]))
	}
	return sanitize(strings.Join(parts, "-"))
}

var notID = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// short is the last element of a name: `(*CommandBuffer).reset` is
// CommandBuffer.reset, `gpu::Registry::add` is Registry.add.
func short(name string) string {
	name = strings.NewReplacer("(*", "", "(", "", ")", "", "::", ".", "->", ".", "!", "").Replace(name)
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	parts := strings.Split(name, ".")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, ".")
}

func sanitize(s string) string {
	s = strings.Trim(notID.ReplaceAllString(s, "-"), "-._")
	if s == "" {
		return "suggested"
	}
	return s
}

// yaml writes the candidate as an item of `invariants:`, indented for a
// file whose list starts at column 3.
func (c *candidate) yaml(why, ref string) string { return c.YAML(c.id, why, ref) }
