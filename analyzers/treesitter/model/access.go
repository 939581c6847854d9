package model

import (
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// Access is one read or write of a field in a function body, for the
// rules that ask under which lock a field is touched (guarded_by).
type Access struct {
	// Node is the whole access: the assignment, the call of a mutating
	// method, the subscript, or the field expression of a read.
	Node *syntax.Node
	// Field is the field's own expression (`this->cache_`, `cache_`,
	// `self.peers`).
	Field *syntax.Node
	// Object is the tokens of the value the field belongs to: `this` for
	// `this->f` and for an implicit `f` in a method of the type, `self`,
	// or the name of a local or parameter of the type.
	Object []string
	// Write says that the access changes the field or what it holds;
	// How says how, for messages ("an assignment", "insert()").
	Write bool
	How   string
	// Subscript marks a C++ `field[k]` that only reads the element: it
	// writes the field when the field is a map, whose operator[] inserts
	// on a miss, and reads it otherwise. The rule decides by the field's
	// declared type (MapLike).
	Subscript bool
	// Indexed says that the access reaches the field's element through a
	// subscript (`cache_[k] = v`, `auto& e = cache_[k]`, `self.m[k]`).
	Indexed bool
	// Liveness says whether the access runs when the function runs; one
	// in a lambda or closure never called here may still run later.
	core.Liveness
}

// Accessor is a front end that finds the accesses of a field.
type Accessor interface {
	// Accesses lists the accesses of field of typ in the function: the
	// field reached through `this`, `self` or a local or parameter whose
	// declared type names typ, and (C++) the bare field in typ's methods
	// where no local or parameter of the name hides it. A field reached
	// through a value of unknown type (`auto`, a call's result) is not
	// listed.
	Accesses(f *syntax.File, fn *Func, typ, field string, c *Config) []Access
	// FieldType returns the tokens of the declared type of field in the
	// definition of typ in the file, or nil when the file does not
	// declare it.
	FieldType(f *syntax.File, typ, field string) []string
	// ParamNames lists the names of the function's parameters in order
	// ("" for an unnamed one); a Rust method's `self` is not one.
	ParamNames(f *syntax.File, fn *Func) []string
	// Private reports whether the file's definition of typ declares the
	// member function only in a private section (C++): its callers are
	// then typ's own members (and friends).
	Private(f *syntax.File, typ, method string) bool
	// HasBases reports whether the file's definition of typ derives from
	// other classes (C++), whose members are typ's too.
	HasBases(f *syntax.File, typ string) bool
}

// MapLike reports whether a declared type is a map, whose operator[]
// inserts a missing key: std::map, std::unordered_map, absl's and
// boost's hash and B-tree maps, and any other type whose name ends in
// "map" (a multimap has no operator[]).
func MapLike(typ []string) bool {
	for _, t := range typ {
		if t == "<" {
			break // the template arguments' own types do not count
		}
		if strings.HasSuffix(strings.ToLower(t), "map") {
			return true
		}
	}
	return false
}

// NamedCasts are C++'s casts whose template argument is the type of their
// value (`static_cast<Foo*>(arg)` is a Foo*): what the front ends read a
// local's type from, where it is declared `auto`.
var NamedCasts = map[string]bool{"static_cast": true, "dynamic_cast": true, "reinterpret_cast": true, "const_cast": true}
