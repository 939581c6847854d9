package registry

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/guardlint/guardlint/invariants"
)

// schemaBase is the JSON Schema of the invariants file without any rule
// kind: the targets, languages and file keys.
//
//go:embed schema_base.json
var schemaBase []byte

// fragment is a kind's part of the schema (core.Kind.Schema): the rule's
// mapping, and what its names must look like for Go and for the
// tree-sitter languages. A kind without a treeSitter part is not checked
// for those languages, and the schema rejects it there.
type fragment struct {
	Rule       json.RawMessage `json:"rule"`
	Go         json.RawMessage `json:"go,omitempty"`
	TreeSitter json.RawMessage `json:"treeSitter,omitempty"`
}

// Schema returns the JSON Schema of the invariants file: the base with
// every kind's fragment. invariants/schema.json is its output; a test
// keeps the two equal (go test ./analyzers/registry -run Schema -update
// rewrites the file).
func Schema() ([]byte, error) {
	var base map[string]any
	if err := json.Unmarshal(schemaBase, &base); err != nil {
		return nil, fmt.Errorf("schema base: %w", err)
	}
	inv := dig(base, "$defs", "invariant").(map[string]any)
	byLang := dig(inv, "allOf").([]any)[1].(map[string]any)
	tsProps := dig(byLang, "then", "properties")
	goProps := dig(byLang, "else", "properties")
	tsNot := dig(byLang, "then", "not").(map[string]any)
	var oneOf, fieldKinds, noTarget []any
	for _, k := range Kinds {
		var f fragment
		if err := json.Unmarshal(k.Schema, &f); err != nil {
			return nil, fmt.Errorf("schema of kind %s: want {\"rule\": ...}: %w", k.Name, err)
		}
		if f.Rule == nil {
			return nil, fmt.Errorf("schema of kind %s: want {\"rule\": ...}", k.Name)
		}
		name := string(k.Name)
		dig(inv, "properties").(map[string]any)[name] = raw(f.Rule)
		oneOf = append(oneOf, map[string]any{"required": []any{name}})
		if f.Go != nil {
			goProps.(map[string]any)[name] = raw(f.Go)
		}
		if f.TreeSitter != nil {
			tsProps.(map[string]any)[name] = raw(f.TreeSitter)
		} else {
			tsNot["anyOf"] = append(tsNot["anyOf"].([]any), map[string]any{"required": []any{name}})
		}
		if k.Field {
			fieldKinds = append(fieldKinds, map[string]any{"required": []any{name}})
		}
		if k.NoTarget {
			noTarget = append(noTarget, map[string]any{"required": []any{name}})
		}
	}
	inv["oneOf"] = oneOf
	targets := dig(inv, "allOf").([]any)[2].(map[string]any)
	targets["if"] = map[string]any{"anyOf": fieldKinds}
	// A kind without a target rejects every target key.
	dig(inv, "allOf").([]any)[2] = map[string]any{
		"if": map[string]any{"anyOf": noTarget},
		"then": map[string]any{"not": map[string]any{"anyOf": []any{
			map[string]any{"required": []any{"function"}},
			map[string]any{"required": []any{"functions"}},
			map[string]any{"required": []any{"field"}},
		}}},
		"else": targets,
	}
	dig(inv, "properties", "lang").(map[string]any)["enum"] = langs()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(base); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// dig walks nested maps by key.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		v = v.(map[string]any)[k]
	}
	return v
}

// raw decodes a fragment part into the generic tree.
func raw(m json.RawMessage) any {
	var v any
	_ = json.Unmarshal(m, &v) // checked valid JSON by the fragment's own decoding
	return v
}

// langs lists the accepted languages.
func langs() []any {
	out := make([]any, len(invariants.Langs))
	for i, l := range invariants.Langs {
		out[i] = string(l)
	}
	return out
}
