package main

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/template"
)

//go:embed templates
var templates embed.FS

// files maps each template to the file it writes, below the kind's
// directory; the names may use the kind's package name.
var files = []struct{ tmpl, path string }{
	{"kind.go.tmpl", "kind.go"},
	{"doc.go.tmpl", "doc.go"},
	{"check.go.tmpl", "{{pkg}}.go"},
	{"native.go.tmpl", "native.go"},
	{"mutants.go.tmpl", "mutants.go"},
	{"mutants_native.go.tmpl", "mutants_native.go"},
	{"schema.json.tmpl", "schema.json"},
	{"test.go.tmpl", "{{pkg}}_test.go"},
	{"native_test.go.tmpl", "native_test.go"},
	{"testdata.yaml.tmpl", "testdata/{{pkg}}.yaml"},
	{"testdata.go.tmpl", "testdata/src/{{testpkg}}/{{testpkg}}.go"},
	{"native.yaml.tmpl", "testdata/native.yaml"},
	{"native.cc.tmpl", "testdata/cpp/{{pkg}}.cc"},
}

// The files outside the kind's package that the kind is added to.
const (
	registryFile = "analyzers/registry/registry.go"
	facetsFile   = "analyzers/registry/facets_test.go"
	docsFile     = "docs/invariants.md"
	schemaFile   = "invariants/schema.json"
)

// write writes the kind into the checkout at root and returns what it
// wrote and edited, relative to root. It refuses to overwrite a kind, and
// checks every file it edits before writing any, so that a checkout it
// cannot edit is left as it was.
func (k *kind) write(root string, regenerate bool) ([]string, error) {
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return nil, fmt.Errorf("%s is not a guardlint checkout: %w", root, err)
	}
	dir := filepath.Join(root, k.dir())
	if _, err := os.Stat(dir); err == nil {
		return nil, fmt.Errorf("%s exists: the kind %s is there already", k.dir(), k.Name)
	}
	edits := []struct {
		path string
		edit func([]byte) ([]byte, error)
	}{
		{registryFile, k.register},
		{facetsFile, k.addFacetRow},
		{docsFile, k.addDocs},
	}
	edited := make([][]byte, len(edits))
	for i, e := range edits {
		old, err := os.ReadFile(filepath.Join(root, e.path))
		if err != nil {
			return nil, err
		}
		if edited[i], err = e.edit(old); err != nil {
			return nil, fmt.Errorf("%s: %w", e.path, err)
		}
	}
	var done []string
	for _, f := range files {
		out, err := k.render(f.tmpl)
		if err != nil {
			return done, err
		}
		rel := filepath.Join(k.dir(), strings.NewReplacer("{{pkg}}", k.Pkg, "{{testpkg}}", k.TestPkg).Replace(f.path))
		if err := writeFile(filepath.Join(root, rel), out); err != nil {
			return done, err
		}
		done = append(done, rel)
	}
	for i, e := range edits {
		if err := writeFile(filepath.Join(root, e.path), edited[i]); err != nil {
			return done, err
		}
		done = append(done, e.path)
	}
	if regenerate {
		// The schema is the registry's output: the same command a person
		// runs after adding a kind by hand.
		cmd := exec.Command("go", "test", "./analyzers/registry", "-run", "TestSchemaIsCurrent", "-update")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return done, fmt.Errorf("regenerating %s: %w\n%s", schemaFile, err, out)
		}
		done = append(done, schemaFile)
	}
	return done, nil
}

// render executes one template; Go files are formatted, so that a
// template's layout slip cannot make the checkout fail gofmt.
func (k *kind) render(name string) ([]byte, error) {
	src, err := fs.ReadFile(templates, "templates/"+name)
	if err != nil {
		return nil, err
	}
	t, err := template.New(name).Delims("<<", ">>").Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, k); err != nil {
		return nil, err
	}
	if strings.HasSuffix(name, ".go.tmpl") {
		out, err := format.Source(b.Bytes())
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
		return out, nil
	}
	return b.Bytes(), nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

var errNoAnchor = errors.New("the place to add the kind was not found; add it by hand (docs/contributing.md)")
