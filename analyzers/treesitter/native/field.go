package native

import (
	"github.com/guardlint/guardlint/analyzers/treesitter"
)

// FieldOf writes an access to a field of typ in fn: through the receiver
// when fn is a method of typ that has one (`this->active`,
// `self.active`), else through a name of its own (`guardlint_other->active`),
// which the owns rule counts whatever it names. method says which.
func (c *Code) FieldOf(fn *treesitter.Function, typ, field string) (expr string, method bool) {
	rust := c.Dialect().Rust()
	path := fn.Func.Path
	if len(path) >= 2 && path[len(path)-2] == typ && hasReceiver(fn) {
		if rust {
			return "self." + field, true
		}
		return "this->" + field, true
	}
	if rust {
		return otherRecv + "." + field, false
	}
	return otherRecv + "->" + field, false
}

// hasReceiver reports whether a method has a receiver: in Rust a self
// parameter, in C++ any method but a static one. A C function has none.
func hasReceiver(fn *treesitter.Function) bool {
	n := fn.Func.Node
	switch fn.File.Lang {
	case "rust":
		ps := n.Child("parameters")
		for _, p := range ps.NamedChildren() {
			if p.Kind == "self_parameter" {
				return true
			}
		}
		return false
	case "c":
		return false
	}
	for _, ch := range n.Children {
		if ch.Kind == "storage_class_specifier" && fn.File.Text(ch) == "static" {
			return false
		}
	}
	return true
}

// WriteStmt finds, among writes of a field that the front end reports in
// fn, an assignment of a value that means the same in any function
// (nullptr, None, a literal): the write that a revert can move into
// another function unchanged. It returns the statement and the value.
func (c *Code) WriteStmt(fn *treesitter.Function, typ, field string) (Stmt, string, bool) {
	for _, w := range fn.Writes(typ, field) {
		if w.Node.Kind != "assignment_expression" || !w.Live() {
			continue
		}
		rhs := w.Node.Child("right")
		if rhs == nil || !isPortable(fn.File, rhs) {
			continue
		}
		if s, ok := stmtOf(fn, w.Node); ok {
			return s, fn.File.Text(rhs), true
		}
	}
	return Stmt{}, "", false
}

// Delete records the removal of a statement, keeping the grammar's
// statement where one is needed (see braced).
func (e *Edits) Delete(c *Code, fn *treesitter.Function, s Stmt) {
	e.Replace(fn.File, s.Start, s.End, c.braced(s, "", lineIndent(fn.File.Src, s.Start)))
}
