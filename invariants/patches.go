package invariants

import (
	"fmt"
	"path/filepath"
)

// Patches is a file's patch chain: an upstream source tree and the patch
// files applied to it in order, the way a fork's build applies the
// patches it requires. Paths are absolute, resolved against the
// invariants file's directory; the drivers apply the chain in memory and
// check the invariants on the patched tree.
type Patches struct {
	Upstream string
	// UpstreamRaw is Upstream as written.
	UpstreamRaw string
	Series      []PatchFile
	// Pos is the position of the `patches` key.
	Pos         Pos
	UpstreamPos Pos
}

// PatchFile is one entry of a series.
type PatchFile struct {
	Path string
	// Raw is the path as written.
	Raw string
	Pos Pos
}

// Chains returns the patch chains of the set's files, in file order.
func (s *Set) Chains() []*Patches {
	var out []*Patches
	for _, f := range s.Files {
		if f.Patches != nil {
			out = append(out, f.Patches)
		}
	}
	return out
}

// decodePatches decodes the `patches` mapping of a file.
func (d *decoder) decodePatches(fl field) *Patches {
	unknown := d.unknown
	m := d.mapping(fl.value, "patches", "upstream", "series")
	if m == nil || d.unknown > unknown {
		return nil
	}
	base := filepath.Dir(d.path)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		if a, err := filepath.Abs(filepath.Join(base, p)); err == nil {
			return a
		}
		return filepath.Join(base, p)
	}
	p := &Patches{Pos: d.pos(fl.key)}
	ok := true
	if v, has := m["upstream"]; !has {
		d.errorf(fl.value, "patches: missing `upstream` (the source tree the series applies to)")
		ok = false
	} else if s, good := d.nonEmptyStr(v, "patches: upstream"); good {
		p.Upstream, p.UpstreamRaw, p.UpstreamPos = abs(s), s, d.pos(v.value)
	} else {
		ok = false
	}
	if v, has := m["series"]; !has {
		d.errorf(fl.value, "patches: missing `series` (the patch files, in the order they apply)")
		ok = false
	} else {
		seen := map[string]int{}
		for i, item := range d.seq(v, "patches: series") {
			s, good := d.nonEmptyStr(field{key: v.key, value: item}, fmt.Sprintf("patches: series[%d]", i))
			if !good {
				ok = false
				continue
			}
			if prev, dup := seen[abs(s)]; dup {
				d.errorf(item, "patches: series[%d]: %s is listed twice (first at line %d)", i, s, prev)
				ok = false
				continue
			}
			seen[abs(s)] = item.Line
			p.Series = append(p.Series, PatchFile{Path: abs(s), Raw: s, Pos: d.pos(item)})
		}
		if len(p.Series) == 0 {
			ok = false
		}
	}
	if !ok {
		return nil
	}
	return p
}
