// Package syntax parses C, C++, CUDA and Rust source with tree-sitter and
// copies the tree into plain Go values, so that the rest of the front end
// walks ordinary structs instead of crossing into C for every node. The
// tree-sitter parser and tree are closed before Parse returns.
//
// It also holds what every language shares over such a tree: the tokens of
// a node (its leaves, comments left out), the first ERROR or MISSING node
// of a subtree, and 1-based positions.
package syntax
