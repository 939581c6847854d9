// Package sarifcheck validates SARIF logs against the SARIF 2.1.0 JSON
// schema, offline, for tests.
//
// The schema is the one github.com/owenrumney/go-sarif/v3 carries (a
// pinned dependency, so the module cache has it). Its own Validate checks
// the library's re-encoding of a parsed log, which writes every optional
// property, rather than the bytes guardlint wrote; this package checks
// the bytes.
package sarifcheck

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaModule is the module whose source holds the schema, and the file
// in it.
const (
	schemaModule = "github.com/owenrumney/go-sarif/v3"
	schemaFile   = "pkg/report/v210/sarif/schema.go"
)

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", schemaModule).Output()
	if err != nil {
		return nil, fmt.Errorf("locating %s: %w", schemaModule, err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), schemaFile))
	if err != nil {
		return nil, err
	}
	start, end := bytes.IndexByte(src, '`'), bytes.LastIndexByte(src, '`')
	if start < 0 || end <= start {
		return nil, fmt.Errorf("%s: no schema literal", schemaFile)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src[start+1 : end]))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("sarif-2.1.0.json")
})

// Validate checks a SARIF log against the SARIF 2.1.0 schema.
func Validate(log []byte) error {
	schema, err := compiled()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		return err
	}
	return schema.Validate(inst)
}
