package invariants

import _ "embed"

// Schema is the JSON Schema (draft 2020-12) of the invariants file format,
// for editors and for tools that generate invariants. The loader is the
// authority; a test keeps the two in agreement on every example file.
//
//go:embed schema.json
var Schema []byte
