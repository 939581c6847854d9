package fix

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/patch"
	"github.com/guardlint/guardlint/invariants"
)

// patchOf returns the chain and the index in its series of the patch
// file rev names (relative to dir), or nil when rev names no patch of
// the set's chains: then it is a git revision.
func patchOf(set *invariants.Set, dir, rev string) (*invariants.Patches, int) {
	abs := rev
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, rev)
	}
	abs = filepath.Clean(abs)
	if _, err := os.Stat(abs); err != nil {
		return nil, -1
	}
	for _, c := range set.Chains() {
		for i, pf := range c.Series {
			if pf.Path == abs {
				return c, i
			}
		}
	}
	return nil, -1
}

// provePatch is prove --revert for a patch of a chain: the chain without
// that patch must make an invariant fire (or fail to apply), and so must
// the chain with each hunk of the patch dropped alone.
func provePatch(set *invariants.Set, chain *invariants.Patches, index int, opts Options) (*Report, error) {
	start := time.Now()
	pf := chain.Series[index]
	data, err := os.ReadFile(pf.Path)
	if err != nil {
		return nil, err
	}
	p, err := patch.Parse(pf.Raw, data)
	if err != nil {
		return nil, err
	}
	rep := &Report{Change: &Change{
		Rev: pf.Raw, Short: pf.Raw, Commit: pf.Raw,
		Title: fmt.Sprintf("patch %d of %d of the series at %s:%d", index+1, len(chain.Series), core.RelPath(opts.Dir, pf.Pos.File), pf.Pos.Line),
		Patch: p,
	}}
	if failing, err := baseline(rep, set, opts, start); err != nil {
		return nil, err
	} else if failing {
		return rep, nil
	}
	rep.Verdict, rep.Findings, rep.Detail = check(withoutPatch(set, chain, index), opts, nil)
	if rep.Verdict == "" {
		rep.Verdict = Missed
	}
	if opts.NoHunks {
		rep.Elapsed = time.Since(start)
		return rep, nil
	}
	lines := strings.SplitAfter(string(data), "\n")
	for _, f := range p.Files {
		lang := sourceLang(f.Name())
		for hi, h := range f.Hunks {
			if h.Added() == 0 {
				continue
			}
			res := &HunkResult{File: filepath.ToSlash(filepath.Join(chain.UpstreamRaw, f.Name())), Hunk: h}
			rep.Hunks = append(rep.Hunks, res)
			if lang == "" || !addsCode(lang, h) {
				res.Verdict = NoCode
				continue
			}
			view := overlay.New()
			view.Replace(pf.Path, []byte(strings.Join(dropHunk(lines, f, hi), "")))
			switch v, fs, detail := check(set, opts, view); v {
			case Caught:
				res.Verdict, res.By = Caught, ids(fs)
			case Void:
				res.Verdict, res.Detail = Void, detail
			default:
				res.Verdict = Uncovered
			}
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// withoutPatch returns the set with the index-th patch of chain left out
// of its series.
func withoutPatch(set *invariants.Set, chain *invariants.Patches, index int) *invariants.Set {
	out := &invariants.Set{Invariants: set.Invariants}
	for _, f := range set.Files {
		if f.Patches == chain {
			cp := *f
			ch := *chain
			ch.Series = slices.Delete(slices.Clone(chain.Series), index, index+1)
			cp.Patches = &ch
			f = &cp
		}
		out.Files = append(out.Files, f)
	}
	return out
}

// dropHunk returns the patch text without the hunk: its header and its
// lines. The hunks after it still apply, at the offset the search finds.
func dropHunk(lines []string, f *patch.File, index int) []string {
	h := f.Hunks[index]
	end := h.Line // the header's line, from 1
	if n := len(h.Lines); n > 0 {
		end = h.Lines[n-1].PatchLine
	}
	// A "\ No newline" marker after the last line belongs to the hunk.
	for end < len(lines) && strings.HasPrefix(lines[end], `\`) {
		end++
	}
	return slices.Concat(lines[:h.Line-1], lines[end:])
}

// addsCode reports whether the lines a hunk adds hold any code, comments
// and spacing aside.
func addsCode(lang string, h *patch.Hunk) bool {
	var b strings.Builder
	for _, l := range h.Lines {
		if l.Op == patch.Add {
			b.WriteString(l.Text)
		}
	}
	toks, err := codeTokens(lang, "hunk", []byte(b.String()))
	return err != nil || len(toks) > 0
}
