package invariants

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	goccy "github.com/goccy/go-yaml"
	goccyparser "github.com/goccy/go-yaml/parser"
	"go.yaml.in/yaml/v3"
	"golang.org/x/mod/modfile"
)

// Load reads invariants from files and directories, decoding rules with
// the given kinds. A directory contributes every *.yaml and *.yml file
// directly inside it. Files named by `include` are read too, once each.
// Every error of every file is returned, as an ErrorList where the error
// has a position.
func Load(kinds []KindSpec, paths ...string) (*Set, error) {
	if len(paths) == 0 {
		return nil, errors.New("no invariants file given")
	}
	l := &loader{kinds: kinds, seen: map[string]bool{}}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("invariants: %w", err)
		}
		if !info.IsDir() {
			l.loadFile(p)
			continue
		}
		files, err := yamlFiles(p)
		if err != nil {
			return nil, fmt.Errorf("invariants: %w", err)
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("invariants: directory %s holds no .yaml or .yml file", p)
		}
		for _, f := range files {
			l.loadFile(f)
		}
	}
	if l.fatal != nil {
		return nil, l.fatal
	}
	l.checkIDs()
	if err := l.errs.err(); err != nil {
		return nil, err
	}
	return l.set(), nil
}

// Parse decodes one invariants file from memory, decoding rules with the
// given kinds. module is the module path
// that "./" names are relative to ("" if none). Includes are not followed;
// they are returned for the caller to resolve.
func Parse(kinds []KindSpec, path string, data []byte, module string) (*File, []string, error) {
	f := &File{Path: path, Module: module, Content: data}
	d := &decoder{path: path, kinds: kinds}
	includes := d.parse(data, f)
	ids := map[string]*Invariant{}
	for _, inv := range f.Invariants {
		if prev, dup := ids[inv.ID]; dup {
			d.errs = append(d.errs, dupError(inv, prev))
			continue
		}
		ids[inv.ID] = inv
	}
	if err := d.errs.err(); err != nil {
		return nil, nil, err
	}
	return f, includes, nil
}

type loader struct {
	kinds []KindSpec
	files []*File
	seen  map[string]bool
	errs  ErrorList
	fatal error
}

func (l *loader) loadFile(path string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		l.fatal = fmt.Errorf("invariants: %w", err)
		return
	}
	if l.seen[abs] {
		return
	}
	l.seen[abs] = true
	data, err := os.ReadFile(path)
	if err != nil {
		l.fatal = fmt.Errorf("invariants: %w", err)
		return
	}
	module, err := moduleAbove(abs)
	if err != nil {
		l.fatal = fmt.Errorf("invariants: %s: %w", path, err)
		return
	}
	f := &File{Path: path, Module: module, Content: data}
	d := &decoder{path: path, kinds: l.kinds}
	includes := d.parse(data, f)
	l.errs = append(l.errs, d.errs...)
	l.files = append(l.files, f)
	for _, pattern := range includes {
		full := pattern
		if !filepath.IsAbs(full) {
			full = filepath.Join(filepath.Dir(path), pattern)
		}
		matches, err := filepath.Glob(full)
		if err != nil || len(matches) == 0 {
			l.errs = append(l.errs, &Error{Pos: includePos(f, pattern), Msg: fmt.Sprintf("include %q matches no file", pattern)})
			continue
		}
		sort.Strings(matches)
		for _, m := range matches {
			l.loadFile(m)
		}
	}
}

// checkIDs reports ids used twice across all files.
func (l *loader) checkIDs() {
	seen := map[string]*Invariant{}
	for _, f := range l.files {
		for _, inv := range f.Invariants {
			if prev, dup := seen[inv.ID]; dup {
				l.errs = append(l.errs, dupError(inv, prev))
				continue
			}
			seen[inv.ID] = inv
		}
	}
}

func dupError(inv, prev *Invariant) *Error {
	return &Error{Pos: inv.Pos, Msg: fmt.Sprintf("duplicate id %q (first declared at %s)", inv.ID, prev.Pos)}
}

func (l *loader) set() *Set {
	s := &Set{Files: l.files}
	for _, f := range l.files {
		for _, inv := range f.Invariants {
			if inv.Disabled {
				s.Unchecked = append(s.Unchecked, inv)
			} else {
				s.Invariants = append(s.Invariants, inv)
			}
		}
	}
	return s
}

// parse decodes YAML bytes into f and returns its include patterns.
func (d *decoder) parse(data []byte, f *File) []string {
	if len(bytes.TrimSpace(data)) == 0 {
		d.errs = append(d.errs, &Error{Pos: Pos{File: d.path, Line: 1, Col: 1}, Msg: "empty invariants file: want `version: 1` and `invariants:`"})
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		d.errs = append(d.errs, yamlError(d.path, data, err))
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		d.errorf(&extra, "more than one YAML document; an invariants file holds one")
		return nil
	}
	if hasAlias(&doc) {
		d.errorf(&doc, "YAML anchors and aliases are not supported in invariants files")
		return nil
	}
	return d.decodeFile(&doc, f)
}

// hasAlias reports whether the tree uses aliases, which would let one
// value stand at two positions and make error positions ambiguous.
func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

var yamlLine = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// yamlError turns a YAML syntax error into a positioned Error.
//
// The YAML library that builds the node tree reports a line but no
// column, and the line is that of the construct the error is found in
// (the start of a flow list, the line before a bad indentation), one
// line early for the parser's errors. A second parser, goccy/go-yaml,
// used only here, reports the token at fault with its line and column;
// its position and wording are used when it refuses the file too. When
// it accepts what the first refused, the first's line is kept and
// column 1 stands for the line.
func yamlError(path string, data []byte, err error) *Error {
	e := yamlSyntaxError(path, data, err)
	if ext := filepath.Ext(path); ext != ".yaml" && ext != ".yml" {
		// -config Cargo.toml: the file named is the mistake, not its syntax.
		e.Msg = fmt.Sprintf("%s is not an invariants file (a YAML mapping with `version: 1` and `invariants:`): %s", filepath.Base(path), e.Msg)
	}
	return e
}

// yamlSyntaxError is yamlError's position and message.
func yamlSyntaxError(path string, data []byte, err error) *Error {
	if pos, msg, ok := syntaxErrorAt(data); ok {
		return &Error{Pos: Pos{File: path, Line: pos.Line, Col: pos.Col}, Msg: "malformed YAML: " + msg}
	}
	msg := err.Error()
	line := 1
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			line, _ = strconv.Atoi(m[1])
		}
		msg = m[2]
	}
	return &Error{Pos: Pos{File: path, Line: line, Col: 1}, Msg: "malformed YAML: " + msg}
}

// syntaxErrorAt parses data with goccy/go-yaml and returns the position
// and message of its syntax error, if it has one.
func syntaxErrorAt(data []byte) (Pos, string, bool) {
	_, err := goccyparser.ParseBytes(data, 0)
	var se *goccy.SyntaxError
	if err == nil || !errors.As(err, &se) || se.Token == nil || se.Token.Position == nil || se.Token.Position.Line < 1 {
		return Pos{}, "", false
	}
	return Pos{Line: se.Token.Position.Line, Col: max(se.Token.Position.Column, 1)}, se.Message, true
}

func includePos(f *File, pattern string) Pos {
	for i, line := range strings.Split(string(f.Content), "\n") {
		if c := strings.Index(line, pattern); c >= 0 {
			return Pos{File: f.Path, Line: i + 1, Col: c + 1}
		}
	}
	return Pos{File: f.Path, Line: 1, Col: 1}
}

func yamlFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.Type()&fs.ModeType != 0 {
			continue
		}
		if ext := filepath.Ext(e.Name()); ext == ".yaml" || ext == ".yml" {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

// ModuleRoot returns the directory of the nearest go.mod at or above dir,
// or "" when there is none. Drivers use it to find guardlint.yaml; the
// loader, to resolve "./" names.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// moduleAbove returns the module path of the nearest go.mod at or above
// the file's directory, or "" when there is none.
func moduleAbove(file string) (string, error) {
	root, err := ModuleRoot(filepath.Dir(file))
	if err != nil || root == "" {
		return "", err
	}
	gomod := filepath.Join(root, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	mod := modfile.ModulePath(data)
	if mod == "" {
		return "", fmt.Errorf("%s has no module line", gomod)
	}
	return mod, nil
}
