package driver

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/analyzers/patch"
	"github.com/guardlint/guardlint/invariants"
)

// PatchChainID is the id of findings about a patch chain: a patch that
// is missing, does not parse, does not apply in order, or does not
// reverse-apply on the patched tree.
const PatchChainID = "patches"

// patched is the outcome of applying a set's patch chains: the view of
// the sources with every chain applied, and where each patched line
// comes from.
type patched struct {
	view *overlay.Files
	// origins maps a patched file (absolute path) to its content with
	// the origin of each line.
	origins map[string]patch.Text
	// patches maps a patched file (absolute path) to the patch files of
	// its chain: the name the series gives each (the name origins use)
	// to its absolute path.
	patches  map[string]map[string]string
	findings []core.Finding
}

// applyChains applies the set's patch chains, each over its upstream
// tree as base sees it, in memory. Every failure is a finding (fail
// closed): a chain whose patch does not apply leaves the tree as the
// patches before it made it, and the invariants are still checked on
// that tree. Each patch must also reverse-apply on the fully patched
// tree, as a fork's build checks, so that a later patch that rewrites an
// earlier one's lines is caught.
func applyChains(set *invariants.Set, base *overlay.Files) *patched {
	out := &patched{view: base, origins: map[string]patch.Text{}, patches: map[string]map[string]string{}}
	chains := set.Chains()
	if len(chains) == 0 {
		return out
	}
	view := base.Clone()
	for _, c := range chains {
		root := c.Upstream
		tree := patch.NewTree(func(rel string) ([]byte, error) {
			return base.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		})
		if info, err := os.Stat(root); err != nil || !info.IsDir() {
			out.findings = append(out.findings, chainFinding(core.PosOf(c.UpstreamPos), "patches: upstream %s is not a directory", c.UpstreamRaw))
			continue
		}
		var applied []*patch.Patch
		paths := map[string]string{}
		for _, pf := range c.Series {
			paths[pf.Raw] = pf.Path
			p, err := readPatch(pf, base)
			if err != nil {
				out.findings = append(out.findings, chainFinding(core.PosOf(pf.Pos), "patches: %v", err))
				break
			}
			if err := tree.Apply(p, false); err != nil {
				out.findings = append(out.findings, applyFinding(pf, err, "does not apply after the patches before it"))
				break
			}
			applied = append(applied, p)
		}
		for i, p := range applied {
			check := patch.NewTree(func(rel string) ([]byte, error) {
				txt, ok, err := tree.Read(rel)
				if err == nil && !ok {
					err = os.ErrNotExist
				}
				return txt.Data, err
			})
			if err := check.Apply(p, true); err != nil {
				out.findings = append(out.findings, applyFinding(c.Series[i], err, "does not reverse-apply on the patched tree: a later patch changed its lines"))
			}
		}
		changed, files := tree.Changed()
		for _, rel := range changed {
			abs := filepath.Join(root, filepath.FromSlash(rel))
			if files[rel] == nil {
				view.Remove(abs)
				continue
			}
			view.Replace(abs, files[rel].Data)
			out.origins[abs] = *files[rel]
			out.patches[abs] = paths
		}
	}
	out.view = view
	return out
}

// readPatch reads and parses one patch of a series, through the view
// (the prover drops a hunk of a patch that way); its name in messages and
// origins is the path the series gives.
func readPatch(pf invariants.PatchFile, view *overlay.Files) (*patch.Patch, error) {
	data, err := view.ReadFile(pf.Path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", pf.Raw, err)
	}
	return patch.Parse(pf.Raw, data)
}

// applyFinding places a patch that does not apply at its hunk's header
// in the patch file, naming the series entry.
func applyFinding(pf invariants.PatchFile, err error, what string) core.Finding {
	pos := core.PosOf(pf.Pos)
	var he *patch.HunkError
	if errors.As(err, &he) {
		pos = token.Position{Filename: pf.Path, Line: he.Hunk.Line, Column: 1}
		return chainFinding(pos, "patch %s (series entry at %s:%d) %s: %s hunk %d (%s) %s", pf.Raw, pf.Pos.File, pf.Pos.Line, what, he.File, he.Hunk.Index, he.Hunk.Header(), he.Reason)
	}
	var fe *patch.FileError
	if errors.As(err, &fe) {
		return chainFinding(pos, "patch %s %s: %s: %s", pf.Raw, what, fe.File, fe.Reason)
	}
	return chainFinding(pos, "patch %s %s: %v", pf.Raw, what, err)
}

func chainFinding(pos token.Position, format string, args ...any) core.Finding {
	return core.Finding{Pos: pos, End: pos, ID: PatchChainID, Message: fmt.Sprintf(format, args...)}
}

// annotate adds, to every finding on a line that a patch of a chain
// added, the patch file and line it comes from: as a related location,
// and in the message, before the why.
func (p *patched) annotate(fs []core.Finding) {
	for i, f := range fs {
		file := filepath.Clean(f.Pos.Filename)
		txt, ok := p.origins[file]
		if !ok {
			continue
		}
		o := txt.Origin(f.Pos.Line)
		if o.Patch == "" {
			continue
		}
		if path, ok := p.patches[file][o.Patch]; ok {
			fs[i].Related = append(fs[i].Related, core.Related{
				Pos:     token.Position{Filename: path, Line: o.Line, Column: 1},
				Message: "the patch line that adds the finding's line",
			})
		}
		from := fmt.Sprintf("; the line is from %s:%d", o.Patch, o.Line)
		if at := strings.LastIndex(f.Message, " (why: "); at >= 0 {
			fs[i].Message = f.Message[:at] + from + f.Message[at:]
		} else {
			fs[i].Message = f.Message + from
		}
	}
}
