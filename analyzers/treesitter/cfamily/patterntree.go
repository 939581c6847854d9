package cfamily

import "github.com/guardlint/guardlint/analyzers/treesitter/syntax"

// PatternTree implements model.PatternTrees: the expression a pattern
// parses to, in the file parsed for it.
func (l Language) PatternTree(src string) (*syntax.File, *syntax.Node, error) { return l.pattern(src) }
