package invariants

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// decoder turns a YAML node tree into the typed model, collecting every
// error with its position. It never panics on odd input: every node is
// checked for its kind before use.
type decoder struct {
	path  string
	kinds []KindSpec
	errs  ErrorList
	// unknown counts the unknown keys reported: a mapping with one is
	// not decoded further, so that a misspelt key is one root error and
	// not the cascade of what it would have set.
	unknown int
}

// spec returns the kind named k, or nil.
func (d *decoder) spec(k Kind) *KindSpec {
	for i := range d.kinds {
		if d.kinds[i].Name == k {
			return &d.kinds[i]
		}
	}
	return nil
}

func (d *decoder) pos(n *yaml.Node) Pos {
	return Pos{File: d.path, Line: n.Line, Col: n.Column}
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	d.errs = append(d.errs, &Error{Pos: d.pos(n), Msg: fmt.Sprintf(format, args...)})
}

// field is one key of a mapping, with the key node kept for positions.
type field struct {
	key, value *yaml.Node
}

// mapping checks that n is a mapping with only the allowed keys, each at
// most once, and returns the values by key.
func (d *decoder) mapping(n *yaml.Node, what string, allowed ...string) map[string]field {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "%s must be a mapping, not %s", what, kindName(n))
		return nil
	}
	out := make(map[string]field, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			d.errorf(k, "%s: keys must be plain strings", what)
			continue
		}
		if !slices.Contains(allowed, k.Value) {
			d.unknown++
			d.errorf(k, "%s: unknown key %q%s (allowed: %s)", what, k.Value, didYouMean(k.Value, allowed), strings.Join(allowed, ", "))
			continue
		}
		if prev, dup := out[k.Value]; dup {
			d.errorf(k, "%s: key %q repeated (first at line %d)", what, k.Value, prev.key.Line)
			continue
		}
		out[k.Value] = field{key: k, value: v}
	}
	return out
}

func (d *decoder) str(f field, what string) (string, bool) {
	n := f.value
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "") {
		d.errorf(n, "%s must be a string, not %s", what, kindName(n))
		return "", false
	}
	return n.Value, true
}

func (d *decoder) nonEmptyStr(f field, what string) (string, bool) {
	s, ok := d.str(f, what)
	if ok && strings.TrimSpace(s) == "" {
		d.errorf(f.value, "%s must not be empty", what)
		return "", false
	}
	return s, ok
}

func (d *decoder) boolean(f field, what string) (bool, bool) {
	n := f.value
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		d.errorf(n, "%s must be true or false, not %s", what, kindName(n))
		return false, false
	}
	return n.Value == "true", true
}

func (d *decoder) integer(f field, what string) (int, bool) {
	n := f.value
	var v int
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil {
		d.errorf(n, "%s must be an integer, not %s", what, kindName(n))
		return 0, false
	}
	return v, true
}

// seq returns the items of a sequence, or reports the wrong shape.
func (d *decoder) seq(f field, what string) []*yaml.Node {
	if f.value.Kind != yaml.SequenceNode {
		d.errorf(f.value, "%s must be a list, not %s", what, kindName(f.value))
		return nil
	}
	if len(f.value.Content) == 0 {
		d.errorf(f.value, "%s must not be empty", what)
	}
	return f.value.Content
}

// name parses one name from a scalar node: a Go name, or a token pattern
// for the tree-sitter languages.
func (d *decoder) name(f field, what string, ctx nameContext) (Name, bool) {
	s, ok := d.nonEmptyStr(f, what)
	if !ok {
		return Name{}, false
	}
	var n Name
	var err error
	if ctx.lang.TreeSitter() {
		n, err = parsePattern(s)
	} else {
		n, err = parseName(s, ctx)
	}
	if err != nil {
		d.errorf(f.value, "%s: %v", what, err)
		return Name{}, false
	}
	n.Pos = d.pos(f.value)
	return n, true
}

func (d *decoder) names(f field, what string, ctx nameContext) []Name {
	var out []Name
	for i, item := range d.seq(f, what) {
		if n, ok := d.name(field{key: f.key, value: item}, fmt.Sprintf("%s[%d]", what, i), ctx); ok {
			out = append(out, n)
		}
	}
	return out
}

// kindName describes a node for error messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!int":
			return "a number"
		case "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "nothing"
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

var (
	fileKeys = []string{"version", "package", "runs", "guards", "lock_calls", "include", "patches", "invariants"}
	// targetKeys are the keys of an invariant beside its rule, whose key
	// is its kind's name.
	targetKeys = []string{"id", "why", "ref", "severity", "enabled", "lang", "package", "runs", "guards", "lock_calls", "files", "include_ignored", "all", "defines", "erase", "function", "functions", "field"}
)

// invariantKeys are the keys an invariant may hold: its own, and one per
// rule kind.
func (d *decoder) invariantKeys() []string {
	keys := slices.Clone(targetKeys)
	for _, k := range d.kinds {
		keys = append(keys, string(k.Name))
	}
	return keys
}

// notInvariants reports, as one error, a document that is no invariants
// file at all: not a mapping (a TOML file read as YAML is a list), or a
// mapping none of whose keys an invariants file has (another tool's
// YAML). A list of every unknown key would hide what went wrong: the
// wrong file was named.
func (d *decoder) notInvariants(doc *yaml.Node) bool {
	const want = "an invariants file is a YAML mapping with `version: 1` and `invariants:`"
	if doc.Kind != yaml.MappingNode {
		d.errorf(doc, "%s is not an invariants file: it holds %s, and %s", filepath.Base(d.path), kindName(doc), want)
		return true
	}
	for i := 0; i < len(doc.Content); i += 2 {
		if slices.Contains(fileKeys, doc.Content[i].Value) {
			return false
		}
	}
	if len(doc.Content) == 0 {
		return false
	}
	d.errorf(doc, "%s is not an invariants file: none of its keys is one of an invariants file (%s), and %s", filepath.Base(d.path), strings.Join(fileKeys, ", "), want)
	return true
}

// decodeFile decodes a whole document into f, returning the include
// patterns it lists.
func (d *decoder) decodeFile(doc *yaml.Node, f *File) []string {
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			d.errorf(doc, "empty invariants file: want `version: 1` and `invariants:`")
			return nil
		}
		doc = doc.Content[0]
	}
	if d.notInvariants(doc) {
		return nil
	}
	unknown := d.unknown
	m := d.mapping(doc, "invariants file", fileKeys...)
	if m == nil || d.unknown > unknown {
		return nil
	}
	if v, ok := m["version"]; !ok {
		d.errorf(doc, "missing `version` (this loader reads version %d)", Version)
	} else if n, ok := d.integer(v, "version"); ok {
		if n != Version {
			d.errorf(v.value, "unsupported version %d (this loader reads version %d)", n, Version)
		}
		f.Version = n
	}
	ctx := nameContext{module: f.Module}
	if p, ok := m["package"]; ok {
		if s, ok := d.nonEmptyStr(p, "package"); ok {
			if pkg, err := resolvePackage(s, f.Module); err != nil {
				d.errorf(p.value, "package: %v", err)
			} else {
				f.Package, ctx.pkg = pkg, pkg
			}
		}
	}
	if v, ok := m["runs"]; ok {
		ctx.runs, ctx.nativeRuns = d.fileRunners(v, ctx)
	}
	if v, ok := m["guards"]; ok {
		ctx.guards = d.guardTypes(v, "guards")
	}
	if v, ok := m["lock_calls"]; ok {
		ctx.lockCalls = d.lockCalls(v, "lock_calls")
	}
	var includes []string
	if inc, ok := m["include"]; ok {
		for i, item := range d.seq(inc, "include") {
			if s, ok := d.nonEmptyStr(field{key: inc.key, value: item}, fmt.Sprintf("include[%d]", i)); ok {
				includes = append(includes, s)
			}
		}
	}
	if p, ok := m["patches"]; ok {
		f.Patches = d.decodePatches(p)
	}
	invs, ok := m["invariants"]
	if !ok {
		if len(includes) == 0 {
			d.errorf(doc, "missing `invariants` (and no `include`)")
		}
		return includes
	}
	for _, item := range d.seq(invs, "invariants") {
		if inv := d.decodeInvariant(item, f, ctx); inv != nil {
			f.Invariants = append(f.Invariants, inv)
		}
	}
	return includes
}

// decodeInvariant decodes one list item; it returns nil when the item is
// too broken to describe (the errors say why).
func (d *decoder) decodeInvariant(n *yaml.Node, f *File, ctx nameContext) *Invariant {
	unknown := d.unknown
	m := d.mapping(n, "invariant", d.invariantKeys()...)
	if m == nil || d.unknown > unknown {
		return nil
	}
	inv := &Invariant{Pos: d.pos(n), File: f, Lang: LangGo, Package: ctx.pkg}
	before := len(d.errs)
	if v, ok := m["id"]; !ok {
		d.errorf(n, "invariant: missing `id`")
	} else if s, ok := d.nonEmptyStr(v, "id"); ok {
		if !idPattern.MatchString(s) {
			d.errorf(v.value, "id %q: use letters, digits, '.', '_' and '-', starting with a letter or digit", s)
		}
		inv.ID = s
	}
	what := "invariant"
	if inv.ID != "" {
		what = "invariant " + inv.ID
	}
	if v, ok := m["why"]; !ok {
		d.errorf(n, "%s: missing `why` (it is printed with every finding)", what)
	} else if s, ok := d.nonEmptyStr(v, "why"); ok {
		inv.Why = strings.TrimSpace(s)
	}
	if v, ok := m["ref"]; ok {
		inv.Ref, _ = d.nonEmptyStr(v, "ref")
	}
	inv.Severity = SeverityError
	if v, ok := m["severity"]; ok {
		if s, ok := d.str(v, "severity"); ok {
			if sev, err := ParseSeverity(s); err != nil {
				d.errorf(v.value, "%s: %v", what, err)
			} else {
				inv.Severity = sev
			}
		}
	}
	if v, ok := m["enabled"]; ok {
		if on, ok := d.boolean(v, "enabled"); ok {
			inv.Disabled = !on
		}
	}
	if v, ok := m["lang"]; ok {
		if s, ok := d.str(v, "lang"); ok {
			if !slices.Contains(langNames(), s) {
				d.errorf(v.value, "%s: lang %q is not supported%s (supported: %s)", what, s, didYouMean(s, langNames()), strings.Join(langNames(), ", "))
			}
			inv.Lang = Lang(s)
		}
	}
	ctx.lang = inv.Lang
	if inv.Lang.TreeSitter() {
		d.decodeTreeSitter(m, n, inv, what)
	} else {
		for _, k := range []string{"files", "include_ignored", "all", "defines", "erase"} {
			if v, ok := m[k]; ok {
				d.errorf(v.key, "%s: `%s` is for lang %s; Go targets are found by package", what, k, langList(treeSitterLangs()))
			}
		}
	}
	if v, ok := m["package"]; ok && inv.Lang.TreeSitter() {
		d.errorf(v.key, "%s: `package` is for Go; lang %s targets are found in `files`", what, inv.Lang)
	} else if ok {
		if s, ok := d.nonEmptyStr(v, "package"); ok {
			if pkg, err := resolvePackage(s, f.Module); err != nil {
				d.errorf(v.value, "package: %v", err)
			} else {
				inv.Package, ctx.pkg = pkg, pkg
			}
		}
	}

	d.decodeGuards(m, inv, what, ctx)
	if inv.Lang.TreeSitter() {
		inv.Runs = append(inv.Runs, ctx.nativeRuns...)
		if v, ok := m["runs"]; ok {
			inv.Runs = append(inv.Runs, d.scopedNames(v, "runs", ctx)...)
		}
	} else {
		inv.Runs = append(inv.Runs, ctx.runs...)
		if v, ok := m["runs"]; ok {
			inv.Runs = append(inv.Runs, d.names(v, "runs", ctx)...)
		}
	}

	// Exactly one rule.
	var rules []string
	for _, k := range d.kinds {
		if _, ok := m[string(k.Name)]; ok {
			rules = append(rules, string(k.Name))
		}
	}
	var spec *KindSpec
	switch len(rules) {
	case 0:
		d.errorf(n, "%s: no rule; want exactly one of %s", what, d.kindList())
	case 1:
		spec = d.spec(Kind(rules[0]))
		if slices.Contains(Langs, inv.Lang) && !slices.Contains(spec.Langs, inv.Lang) {
			d.errorf(m[rules[0]].key, "%s: a %s rule is not checked for lang %s (supported: %s)", what, spec.Name, inv.Lang, langList(spec.Langs))
			spec = nil
		}
	default:
		second := m[rules[1]]
		d.errorf(second.key, "%s: more than one rule (%s); want exactly one", what, strings.Join(rules, ", "))
	}

	d.decodeTargets(m, n, inv, spec, what, ctx)
	if spec != nil {
		inv.Rule = d.decodeRule(spec, m[string(spec.Name)], what, ctx)
	}
	if len(d.errs) > before {
		return nil
	}
	return inv
}

// decodeTargets reads function, functions and field, and checks that the
// rule kind has the target it needs.
func (d *decoder) decodeTargets(m map[string]field, n *yaml.Node, inv *Invariant, spec *KindSpec, what string, ctx nameContext) {
	fn, hasFn := m["function"]
	fns, hasFns := m["functions"]
	fld, hasField := m["field"]
	if hasFn && hasFns {
		d.errorf(fns.key, "%s: set `function` or `functions`, not both", what)
	}
	if hasFn {
		if name, ok := d.target(fn, "function", ctx); ok {
			inv.Functions = []Name{name}
		}
	}
	if hasFns {
		for i, item := range d.seq(fns, "functions") {
			if name, ok := d.target(field{key: fns.key, value: item}, fmt.Sprintf("functions[%d]", i), ctx); ok {
				inv.Functions = append(inv.Functions, name)
			}
		}
	}
	if hasField && ctx.lang.TreeSitter() {
		if name, ok := d.target(fld, "field", ctx); ok {
			if len(name.Scoped) < 2 {
				d.errorf(fld.value, "field %q: want Type::field", name.Raw)
			} else {
				inv.Field = &name
			}
		}
	} else if hasField {
		if name, ok := d.name(fld, "field", ctx); ok {
			if name.Member == "" {
				d.errorf(fld.value, "field %q: want pkg.Type.field or (pkg.Type).field", name.Raw)
			} else {
				inv.Field = &name
			}
		}
	}
	switch {
	case spec == nil:
	case spec.NoTarget:
		for _, k := range []string{"function", "functions", "field"} {
			if v, ok := m[k]; ok {
				d.errorf(v.key, "%s: a%s %s rule takes no `%s`: it names what it checks itself", what, an(spec.Name), spec.Name, k)
			}
		}
	case spec.Field:
		if !hasField {
			d.errorf(n, "%s: a%s %s rule needs a `field` target", what, an(spec.Name), spec.Name)
		}
		if hasFn || hasFns {
			k := fn.key
			if hasFns {
				k = fns.key
			}
			d.errorf(k, "%s: a%s %s rule targets a `field`, not functions (list the functions that may write it in the rule)", what, an(spec.Name), spec.Name)
		}
	default:
		if !hasFn && !hasFns {
			d.errorf(n, "%s: a%s %s rule needs a `function` or `functions` target", what, an(spec.Name), spec.Name)
		}
		if hasField {
			d.errorf(fld.key, "%s: a%s %s rule targets functions, not a field", what, an(spec.Name), spec.Name)
		}
	}
}

// lockMode reads the optional mode key of a rule; the default is
// exclusive.
func (d *decoder) lockMode(m map[string]field, key, what string) LockMode {
	v, ok := m[key]
	if !ok {
		return Exclusive
	}
	s, ok := d.str(v, what)
	if !ok {
		return Exclusive
	}
	switch LockMode(s) {
	case Exclusive, Shared:
		return LockMode(s)
	}
	d.errorf(v.value, "%s %q: want exclusive or shared", what, s)
	return Exclusive
}

// kindList names the known rule kinds for messages, sorted.
func (d *decoder) kindList() string {
	s := make([]string, len(d.kinds))
	for i, k := range d.kinds {
		s[i] = string(k.Name)
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// an is "n" before a kind name that starts with a vowel: "an owns rule".
func an(k Kind) string {
	if k != "" && strings.ContainsRune("aeiou", rune(k[0])) {
		return "n"
	}
	return ""
}

// didYouMean suggests the allowed key a misspelt one is closest to, as a
// clause of the unknown-key message, or "".
func didYouMean(key string, allowed []string) string {
	for _, a := range allowed {
		if strings.EqualFold(a, key) {
			return fmt.Sprintf("; did you mean %q?", a)
		}
	}
	if c := Closest(key, slices.Values(allowed)); len(c) > 0 {
		return fmt.Sprintf("; did you mean %q?", c[0])
	}
	return ""
}
