package model

import "fmt"

// Shape is what a pattern is, by the node its text parses to.
type Shape string

// Shapes.
const (
	// ShapeName names something: `enc->retain`, `ns::f`, `self.mu`.
	ShapeName Shape = "a name"
	// ShapeCall is a call with its arguments: `enc->retain()`,
	// `msg_send![encoder, retain]`.
	ShapeCall Shape = "a call"
	// ShapeSubscript is an element: `out[gid]`, `cache_[key]`.
	ShapeSubscript Shape = "a subscript"
	// ShapeExpr is any other expression: `gid >= n`, `*p`.
	ShapeExpr Shape = "an expression"
	// ShapeLiteral is a literal: `42`, `"x"`.
	ShapeLiteral Shape = "a literal"
	// ShapeAssign is an assignment or increment: `x = 1`, `++n`.
	ShapeAssign Shape = "an assignment"
)

// Use is what a rule looks for with a pattern.
type Use int

// Uses.
const (
	// UseCall looks for calls: by their callee (a name) or as a whole.
	UseCall Use = iota
	// UseLock looks for the mutex a guard locks: a name, a call that
	// returns it, an element or a dereference.
	UseLock
	// UseExpr looks for calls, or for any other expression by its tokens
	// (order's bounds check and the access it guards).
	UseExpr
	// UseCallOrSubscript looks for calls, and for subscripts by their
	// tokens: forbid's `cache_[key]`, a call of the container's
	// operator[] (which inserts into a std::map) or of Rust's Index.
	UseCallOrSubscript
)

// Accepts returns "" when a pattern of the shape can match what the use
// looks for, or why it never can.
func (u Use) Accepts(s Shape) string {
	switch u {
	case UseCall:
		if s == ShapeName || s == ShapeCall {
			return ""
		}
		return fmt.Sprintf("it is %s, and the rule looks for calls (write the callee, as in enc->retain, or the whole call, as in enc->retain())", s)
	case UseCallOrSubscript:
		if s == ShapeName || s == ShapeCall || s == ShapeSubscript {
			return ""
		}
		return fmt.Sprintf("it is %s, and the rule looks for calls and subscripts (write the callee, as in enc->retain, the whole call, as in enc->retain(), or the element, as in cache_[key])", s)
	case UseLock:
		if s == ShapeName || s == ShapeCall || s == ShapeExpr || s == ShapeSubscript {
			return ""
		}
		return fmt.Sprintf("it is %s, and the rule looks for the mutex a guard locks (a name such as mu_ or self.mu, or a call such as detail::eval_mutex())", s)
	}
	if s == ShapeLiteral {
		return fmt.Sprintf("it is %s, which is no call or access of the body", s)
	}
	return ""
}
