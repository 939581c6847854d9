package nativecheck

import (
	"slices"

	"github.com/guardlint/guardlint/analyzers/treesitter"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
)

// An owns invariant names a field as Type::field. A misspelt type or
// field would otherwise match no write at all and pass, so both must be
// declared in the files: a struct, class or union of that name (the C
// family's `typedef struct { .. } Name;` too; a Rust struct or union)
// with a data member or field of that name. A field a class inherits is
// not its own: name the class that declares it.

// typeFields collects the types a file declares and the fields of those
// named typ.
type typeFields struct {
	types  map[string]bool // every type name declared, for "closest"
	found  bool            // a type named typ is declared
	fields map[string]bool // the fields of the types named typ
}

func newTypeFields() *typeFields {
	return &typeFields{types: map[string]bool{}, fields: map[string]bool{}}
}

// add reads the type declarations of a file.
func (t *typeFields) add(f *syntax.File, typ string) {
	syntax.Walk(f.Root, func(n *syntax.Node) bool {
		var name, body *syntax.Node
		switch n.Kind {
		case "class_specifier", "struct_specifier", "union_specifier", "struct_item", "union_item":
			name, body = n.Child("name"), n.Child("body")
		case "type_definition":
			// typedef struct { .. } Name;
			if ty := n.Child("type"); ty != nil && ty.Child("name") == nil && ty.Child("body") != nil {
				name, body = n.Child("declarator"), ty.Child("body")
			}
		}
		if name == nil || body == nil {
			return true
		}
		if name.Kind == "template_type" {
			name = name.Child("name")
		}
		if name == nil || (name.Kind != "type_identifier" && name.Kind != "identifier") {
			return true
		}
		t.types[f.Text(name)] = true
		if f.Text(name) != typ {
			return true
		}
		t.found = true
		for _, d := range body.NamedChildren() {
			if d.Kind != "field_declaration" {
				continue
			}
			if nm := d.Child("name"); nm != nil {
				t.fields[f.Text(nm)] = true // Rust
				continue
			}
			for _, decl := range d.ChildrenOf("declarator") {
				if id := treesitter.FieldName(decl); id != nil {
					t.fields[f.Text(id)] = true
				}
			}
		}
		return true
	})
}

// missing says why the field cannot be verified, or "" when its type
// declares it.
func (t *typeFields) missing(inv *invariants.Invariant, typ, field string) string {
	switch {
	case !t.found:
		return "no type " + typ + " is declared in " + treesitter.GlobList(inv) + invariants.Suggest(typ, mapKeys(t.types))
	case !t.fields[field]:
		return "no field " + field + " in " + typ + invariants.Suggest(field, mapKeys(t.fields))
	}
	return ""
}

// mapKeys lists a set's keys in order.
func mapKeys(m map[string]bool) func(func(string) bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return slices.Values(keys)
}
