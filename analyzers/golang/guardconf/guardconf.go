package guardconf

import (
	_ "embed"
	"fmt"
	"go/token"
	"os"
	"reflect"
	"sync"

	"github.com/guardlint/guardlint/analyzers/core/docs"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var doc string

// Source yields the invariant set; it is called once per package and must
// be safe for concurrent use. Files and Static build the usual ones.
type Source func() (*invariants.Set, error)

// Files returns a Source that loads the named invariants files or
// directories once, decoding rules with the given kinds.
func Files(kinds []invariants.KindSpec, paths ...string) Source {
	return sync.OnceValues(func() (*invariants.Set, error) {
		return invariants.Load(kinds, paths...)
	})
}

// Static returns a Source for a set that is already loaded.
func Static(set *invariants.Set) Source {
	return func() (*invariants.Set, error) { return set, nil }
}

// New returns a guardconf analyzer that reads its invariants from src.
func New(src Source) *analysis.Analyzer {
	files := &fileCache{}
	return &analysis.Analyzer{
		Name:       "guardconf",
		Doc:        docs.Extract(doc, "guardconf"),
		URL:        "https://pkg.go.dev/github.com/guardlint/guardlint/analyzers/golang/guardconf",
		ResultType: reflect.TypeFor[*Config](),
		Run: func(pass *analysis.Pass) (any, error) {
			set, err := src()
			if err != nil {
				return nil, fmt.Errorf("guardlint: %w", err)
			}
			return &Config{Set: set, fset: pass.Fset, files: files}, nil
		},
	}
}

// Config is the analyzer's result.
type Config struct {
	Set   *invariants.Set
	fset  *token.FileSet
	files *fileCache
}

// Pos maps a position in an invariants file to a token.Pos in the pass's
// file set, adding the file to the set the first time.
func (c *Config) Pos(p invariants.Pos) token.Pos {
	var content []byte
	for _, f := range c.Set.Files {
		if f.Path == p.File {
			content = f.Content
			break
		}
	}
	tf := c.files.get(c.fset, p.File, content)
	if tf == nil || p.Line < 1 || p.Line > tf.LineCount() {
		return token.NoPos
	}
	pos := tf.LineStart(p.Line) + token.Pos(p.Col-1)
	if int(pos)-tf.Base() > tf.Size() {
		return tf.LineStart(p.Line)
	}
	return pos
}

// At maps a position in any file, an invariants file or a source file of
// another language (a finding of the tree-sitter front end), to a
// token.Pos in the pass's file set, adding the file the first time; a
// file that cannot be read has no position.
func (c *Config) At(p token.Position) token.Pos {
	var content []byte
	for _, f := range c.Set.Files {
		if f.Path == p.Filename {
			content = f.Content
			break
		}
	}
	if content == nil {
		var err error
		if content, err = os.ReadFile(p.Filename); err != nil {
			return token.NoPos
		}
	}
	tf := c.files.get(c.fset, p.Filename, content)
	if tf == nil || p.Line < 1 || p.Line > tf.LineCount() {
		return token.NoPos
	}
	pos := tf.LineStart(p.Line) + token.Pos(max(p.Column, 1)-1)
	if int(pos)-tf.Base() > tf.Size() {
		return tf.LineStart(p.Line)
	}
	return pos
}

// fileCache adds each invariants file to a file set once, as asmdecl does
// for assembly files, so that several packages share the positions.
type fileCache struct {
	mu    sync.Mutex
	files map[*token.FileSet]map[string]*token.File
}

func (fc *fileCache) get(fset *token.FileSet, name string, content []byte) *token.File {
	if content == nil {
		return nil
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if fc.files == nil {
		fc.files = map[*token.FileSet]map[string]*token.File{}
	}
	byName := fc.files[fset]
	if byName == nil {
		byName = map[string]*token.File{}
		fc.files[fset] = byName
	}
	if tf := byName[name]; tf != nil {
		return tf
	}
	tf := fset.AddFile(name, -1, len(content))
	tf.SetLinesForContent(content)
	byName[name] = tf
	return tf
}
