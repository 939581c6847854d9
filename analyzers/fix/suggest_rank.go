package fix

import (
	"cmp"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/patch"
	"github.com/guardlint/guardlint/invariants"
)

// maxPerFunction and maxPerHunk are how many proposals suggest prints
// for one function of a hunk of the fix, and for the whole hunk: the
// best ranked; the others are listed as left out. A fix's hunk states
// one or two things of a function (a lock taken, a call moved under it,
// a check added); past two, proposals restate the same lines. A hunk
// that adds a whole file, or several functions, keeps a few more, at
// most six, so that a commit of one hunk never prints more than that.
const (
	maxPerFunction = 2
	maxPerHunk     = 6
)

// kindRank orders the kinds of the proposals of one hunk: what a
// concurrency fix most often keeps first (the lock it takes, where its
// calls run with respect to a lock, the check it adds), the call it adds
// last, since most added calls are the fix's plumbing.
var kindRank = map[invariants.Kind]int{
	"hold": 0, "requires": 1, "excludes": 1, "guarded_by": 1, "order": 2, "owns": 3, "forbid": 4, "call": 5,
}

// hunkRef is a hunk of the change, as printed: the file and the range
// its lines have after the fix.
type hunkRef struct {
	file  string
	index int // the file's position in the patch, then the hunk's
	hunk  *patch.Hunk
}

func (h *hunkRef) String() string {
	if h == nil {
		return "outside the change's hunks"
	}
	if h.hunk.Added() == 0 {
		// Only removed lines: where they were, before the fix.
		return fmt.Sprintf("%s:%d-%d before the fix (+0 -%d)", h.file, h.hunk.OldPos, h.hunk.OldPos+max(h.hunk.OldLines, 1)-1, h.hunk.Removed())
	}
	return h.file + ":" + hunkRange(h.hunk)
}

// hunkOf finds the hunk a candidate comes from: the hunk of the file
// with the origin's base name whose range, after the fix (or before it,
// for a removed line), holds the origin's line.
func (s *Suggestion) hunkOf(c *candidate) *hunkRef {
	for i, f := range s.Change.Patch.Files {
		name := f.Name()
		if c.Removed {
			name = f.OldName
		}
		if path.Base(name) != c.File {
			continue
		}
		for j, h := range f.Hunks {
			from, n := h.NewPos, h.NewLines
			if c.Removed {
				from, n = h.OldPos, h.OldLines
			}
			if c.Line >= from && c.Line < from+max(n, 1) {
				return &hunkRef{file: f.Name(), index: i*10000 + j, hunk: h}
			}
		}
	}
	return nil
}

// rank groups the proven candidates by the hunk they come from, in the
// order of the change, orders each group (what the fix added before
// what it removed, then kindRank, then the line), and keeps maxPerHunk
// of each group; the others are listed as left out, with the reason.
func (s *Suggestion) rank() {
	s.hunks = map[*candidate]*hunkRef{}
	for _, c := range s.Proven {
		s.hunks[c] = s.hunkOf(c)
	}
	key := func(c *candidate) int {
		if h := s.hunks[c]; h != nil {
			return h.index
		}
		return 1 << 30
	}
	slices.SortStableFunc(s.Proven, func(a, b *candidate) int {
		return cmp.Or(
			cmp.Compare(key(a), key(b)),
			cmpBool(a.Removed, b.Removed),
			cmpBool(a.nameOnly, b.nameOnly),
			cmp.Compare(kindRank[a.Kind], kindRank[b.Kind]),
			cmp.Compare(a.Line, b.Line),
		)
	})
	s.Proven = s.withoutImplied()
	var kept []*candidate
	per := map[int]int{}
	perFunc := map[string]int{}
	for _, c := range s.Proven {
		k := key(c)
		fk := fmt.Sprint(k, c.Function)
		if per[k] >= maxPerHunk || perFunc[fk] >= maxPerFunction {
			s.Rejected = append(s.Rejected, fmt.Sprintf("%s (%s %s, from %s): ranked below those kept for the hunk %s (at most %d per function, %d per hunk)", c.id, c.Kind, c.Target(), c.At(), s.hunks[c], maxPerFunction, maxPerHunk))
			continue
		}
		per[k]++
		perFunc[fk]++
		kept = append(kept, c)
	}
	s.Proven = kept
}

// withoutImplied drops the `call` proposals that an `order` of the same
// function implies: an order fails when its first call is gone, so the
// call of the check it orders says nothing more, and would take the
// place of a proposal that does.
func (s *Suggestion) withoutImplied() []*candidate {
	key := func(c *candidate, name string) string {
		for _, k := range c.Keys {
			if k.Name == name {
				return c.Function + "\x00" + k.Value
			}
		}
		return ""
	}
	ordered := map[string]string{}
	for _, c := range s.Proven {
		if c.Kind == "order" {
			ordered[key(c, "first")] = c.id
		}
	}
	var out []*candidate
	for _, c := range s.Proven {
		if c.Kind == "call" {
			if by := ordered[key(c, "to")]; by != "" {
				s.Rejected = append(s.Rejected, fmt.Sprintf("%s (%s %s, from %s): implied by %s, which fails without the call", c.id, c.Kind, c.Target(), c.At(), by))
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// reason is the one line that says what of the fix a proposal keeps.
func reason(c *candidate) string {
	name := ""
	if len(c.Says) > 1 {
		name = c.Says[1]
	}
	switch c.Kind {
	case "hold":
		return "the fix takes " + name + " for the body"
	case "requires":
		return "the fix runs it with " + name + " held"
	case "excludes":
		return "the fix runs it with " + name + " released"
	case "order":
		return "the fix checks " + name + " first"
	case "owns":
		return "the fix removed a write of it elsewhere"
	case "forbid":
		return "the fix removed the call of " + name
	case "call":
		return "the fix added the call of " + name
	}
	return strings.Join(c.Says, " ")
}

// Print writes the proven invariants as an invariants file a maintainer
// pastes: grouped by the hunk of the fix each keeps, each with the line
// it comes from and a one-line reason, the why prefilled from the
// commit's subject; what was left out, and why, as comments.
func (s *Suggestion) Print(w io.Writer) {
	c := s.Change
	fmt.Fprintf(w, "# guardlint suggest %s: %s\n", c.Short, c.Title)
	verbs := "hold now and fire"
	if len(s.Proven) == 1 {
		verbs = "holds now and fires"
	}
	fmt.Fprintf(w, "# %s that %s when %s is reverted, grouped by the hunk they keep; files globs are relative to %s.\n", plural(len(s.Proven), "invariant"), verbs, c.Short, s.Dir)
	fmt.Fprintf(w, "# Keep those that state what the fix is for; say in each why what breaks without it.\n")
	for _, n := range s.Notes {
		fmt.Fprintf(w, "# note: %s\n", n)
	}
	for _, l := range s.Left {
		fmt.Fprintf(w, "# %s\n", l)
	}
	for _, r := range s.Rejected {
		fmt.Fprintf(w, "# left out: %s\n", r)
	}
	fmt.Fprintf(w, "version: 1\ninvariants:\n")
	if len(s.Proven) == 0 {
		why := s.Why
		if why == "" {
			why = "no candidate"
		}
		fmt.Fprintf(w, "  [] # nothing to suggest: %s\n", why)
		return
	}
	var last *hunkRef
	for i, p := range s.Proven {
		if h := s.hunks[p]; i == 0 || h != last && (h == nil || last == nil || h.index != last.index) {
			fmt.Fprintf(w, "  # hunk %s\n", h)
			last = h
		}
		verdict := "the code before the fix fails it"
		if p.nameOnly {
			verdict = "the code before the fix fails it only because a name it uses is not there yet"
		}
		fmt.Fprintf(w, "  # from %s: %s; %s\n", p.At(), reason(p), verdict)
		fmt.Fprint(w, p.yaml(whyOf(c), c.Commit))
	}
}

// whyOf is the why a suggestion is printed with: the commit's subject,
// which says what the fix is for, until its keeper says what breaks.
func whyOf(c *Change) string {
	if strings.TrimSpace(c.Title) == "" {
		return placeholderWhy
	}
	return c.Title
}
