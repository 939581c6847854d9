package syntax

import (
	"fmt"
	"sync"
	"unsafe"

	tscuda "github.com/tree-sitter-grammars/tree-sitter-cuda/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
)

// Lang names a grammar: "c", "cpp", "cuda", "rust" or "metal", as
// invariants spell `lang`.
type Lang string

// grammar is a loaded grammar with its node kind and field names cached,
// so that copying a tree asks C only for numbers.
type grammar struct {
	lang   *sitter.Language
	kinds  []string
	named  []bool
	fields []string
}

var (
	grammarsOnce sync.Once
	grammars     map[Lang]*grammar
)

// load builds the grammar table once; the tables are read-only afterwards
// and shared by every parse.
func load() {
	grammars = map[Lang]*grammar{}
	for name, ptr := range map[Lang]unsafe.Pointer{
		"c":    tsc.Language(),
		"cpp":  tscpp.Language(),
		"cuda": tscuda.Language(),
		"rust": tsrust.Language(),
	} {
		l := sitter.NewLanguage(ptr)
		g := &grammar{lang: l}
		n := int(l.NodeKindCount())
		g.kinds = make([]string, n)
		g.named = make([]bool, n)
		for i := 0; i < n; i++ {
			g.kinds[i] = l.NodeKindForId(uint16(i))
			g.named[i] = l.NodeKindIsNamed(uint16(i))
		}
		nf := int(l.FieldCount())
		g.fields = make([]string, nf+1)
		for i := 1; i <= nf; i++ {
			g.fields[i] = l.FieldNameForId(uint16(i))
		}
		grammars[name] = g
	}
}

// grammarOf returns the loaded grammar of a language.
func grammarOf(l Lang) (*grammar, error) {
	grammarsOnce.Do(load)
	if base, ok := dialects[l]; ok {
		l = base
	}
	g, ok := grammars[l]
	if !ok {
		return nil, fmt.Errorf("no tree-sitter grammar for lang %q", l)
	}
	return g, nil
}
