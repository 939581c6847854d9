package invariants

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// treeSitterLangs lists the languages of the tree-sitter front end.
func treeSitterLangs() []Lang {
	var out []Lang
	for _, l := range Langs {
		if l.TreeSitter() {
			out = append(out, l)
		}
	}
	return out
}

// langNames lists the accepted values of `lang`.
func langNames() []string {
	out := make([]string, len(Langs))
	for i, l := range Langs {
		out[i] = string(l)
	}
	return out
}

// target parses a function target: a Go name, or a scoped name for the
// tree-sitter languages.
func (d *decoder) target(f field, what string, ctx nameContext) (Name, bool) {
	if !ctx.lang.TreeSitter() {
		return d.name(f, what, ctx)
	}
	s, ok := d.nonEmptyStr(f, what)
	if !ok {
		return Name{}, false
	}
	n, err := parseScoped(s)
	if err != nil {
		d.errorf(f.value, "%s: %v", what, err)
		return Name{}, false
	}
	n.Pos = d.pos(f.value)
	return n, true
}

// decodeTreeSitter reads the keys that only the tree-sitter languages
// have: `files` (required), `all`, `defines` and `erase`.
func (d *decoder) decodeTreeSitter(m map[string]field, n *yaml.Node, inv *Invariant, what string) {
	if v, ok := m["files"]; !ok {
		d.errorf(n, "%s: lang %s needs `files`: the glob the target is looked up in", what, inv.Lang)
	} else {
		items := []*yaml.Node{v.value}
		if v.value.Kind == yaml.SequenceNode {
			items = d.seq(v, "files")
		}
		includes := 0
		for i, item := range items {
			if s, ok := d.nonEmptyStr(field{key: v.key, value: item}, fmt.Sprintf("files[%d]", i)); ok {
				g := Glob{Pattern: s, Pos: d.pos(item)}
				pattern, excluded := g.Excluded()
				if err := checkGlob(pattern); err != nil || pattern == "" {
					if err == nil {
						err = fmt.Errorf("glob %q: `!` needs a pattern after it", s)
					}
					d.errorf(item, "files: %v", err)
					continue
				}
				if !excluded {
					includes++
				}
				inv.Files = append(inv.Files, g)
			}
		}
		if includes == 0 && len(inv.Files) > 0 {
			d.errorf(v.value, "%s: `files` has only excludes (`!pattern`); name the files to read first", what)
		}
	}
	if v, ok := m["include_ignored"]; ok {
		inv.IncludeIgnored, _ = d.boolean(v, "include_ignored")
	}
	if v, ok := m["all"]; ok {
		inv.All, _ = d.boolean(v, "all")
	}
	if v, ok := m["defines"]; ok {
		inv.Defines = d.defines(v, inv.Lang)
	}
	if v, ok := m["erase"]; ok {
		if inv.Lang == LangRust {
			d.errorf(v.key, "%s: `erase` is for the C family and Metal: Rust has no object-like macros to blank", what)
		} else {
			for i, item := range d.seq(v, "erase") {
				s, ok := d.nonEmptyStr(field{key: v.key, value: item}, fmt.Sprintf("erase[%d]", i))
				switch {
				case !ok:
				case !isCIdent(s):
					d.errorf(item, "erase[%d]: %q is not a macro name", i, s)
				default:
					inv.Erase = append(inv.Erase, s)
				}
			}
		}
	}
}

// defines reads the `defines` mapping: scalar values, or for Rust lists of
// scalars (`feature: [a, b]`).
func (d *decoder) defines(f field, lang Lang) []Define {
	if f.value.Kind != yaml.MappingNode {
		d.errorf(f.value, "defines must be a mapping, not %s", kindName(f.value))
		return nil
	}
	var out []Define
	seen := map[string]bool{}
	for i := 0; i+1 < len(f.value.Content); i += 2 {
		k, v := f.value.Content[i], f.value.Content[i+1]
		if k.Kind != yaml.ScalarNode || !isCIdent(k.Value) {
			d.errorf(k, "defines: key %s is not an identifier", kindName(k))
			continue
		}
		if seen[k.Value] {
			d.errorf(k, "defines: %q repeated", k.Value)
			continue
		}
		seen[k.Value] = true
		def := Define{Name: k.Value, Pos: d.pos(k)}
		items := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode && lang == LangRust {
			items = v.Content
		}
		for _, item := range items {
			if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
				d.errorf(item, "defines.%s must be a string, number or boolean, not %s", k.Value, kindName(item))
				continue
			}
			def.Values = append(def.Values, item.Value)
		}
		out = append(out, def)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// checkGlob rejects patterns that filepath.Match would reject, segment by
// segment, so that a typo is a configuration error and not an empty match.
func checkGlob(s string) error {
	for _, seg := range strings.Split(s, "/") {
		if seg == "**" {
			continue
		}
		if strings.Contains(seg, "**") {
			return fmt.Errorf("glob %q: `**` must be a whole path segment", s)
		}
		if _, err := matchSegment(seg, ""); err != nil {
			return fmt.Errorf("glob %q: %w", s, err)
		}
	}
	return nil
}

// langList joins languages for messages.
func langList(langs []Lang) string {
	s := make([]string, len(langs))
	for i, l := range langs {
		s[i] = string(l)
	}
	return strings.Join(s, ", ")
}

// scopedNames reads a list of function names of the tree-sitter
// languages (`runs:` on their invariants).
func (d *decoder) scopedNames(f field, what string, ctx nameContext) []Name {
	var out []Name
	for i, item := range d.seq(f, what) {
		if n, ok := d.target(field{key: f.key, value: item}, fmt.Sprintf("%s[%d]", what, i), ctx); ok {
			out = append(out, n)
		}
	}
	return out
}

// fileRunners reads the file's `runs:`: Go names for the Go invariants,
// and names written with `::` (`std::call_once`,
// `objc::rc::autoreleasepool`) for those of the tree-sitter languages.
func (d *decoder) fileRunners(f field, ctx nameContext) (goRuns, nativeRuns []Name) {
	native := ctx
	native.lang = LangCPP // any tree-sitter language: the names are scoped
	for i, item := range d.seq(f, "runs") {
		what := fmt.Sprintf("runs[%d]", i)
		it := field{key: f.key, value: item}
		if item.Kind == yaml.ScalarNode && strings.Contains(item.Value, "::") {
			if n, ok := d.target(it, what, native); ok {
				nativeRuns = append(nativeRuns, n)
			}
			continue
		}
		if n, ok := d.name(it, what, ctx); ok {
			goRuns = append(goRuns, n)
		}
	}
	return goRuns, nativeRuns
}
