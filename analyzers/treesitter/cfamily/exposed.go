package cfamily

import (
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// sourceExts are the extensions of files compiled on their own; any other
// file (a header, or libstdc++'s headers without an extension) is taken
// to be included by others.
var sourceExts = map[string]bool{".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".c++": true, ".cu": true, ".m": true, ".mm": true, ".metal": true}

// Exposed implements model.Language: only a function with internal
// linkage (static, or in an anonymous namespace) defined in a source file
// has all its callers in that file.
func (l Language) Exposed(f *syntax.File, fn *model.Func) string {
	internal := false
	member := false
	for p := fn.Node.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "namespace_definition":
			if p.Child("name") == nil {
				internal = true
			}
		case "field_declaration_list":
			member = true
		}
	}
	if !member {
		for _, c := range fn.Node.Children {
			if c.Kind == "storage_class_specifier" && f.Text(c) == "static" {
				internal = true
			}
		}
	}
	switch {
	case !internal && member:
		return "it is a member function, which other files can call"
	case !internal:
		return "it is not static, so other files can call it"
	case !sourceExts[strings.ToLower(filepath.Ext(f.Path))]:
		return "it is defined in a header, and every file that includes it can call it"
	}
	return ""
}
