// Package rustlang is the Rust front end: it finds functions by path
// (`Type::method` in an inherent or trait impl, `Trait::method` for a
// default method, `module::function`), evaluates `#[cfg(...)]` against
// the invariant's cfg options, decides which calls and macro invocations
// in a body are live, and recognises lock guards bound to a named
// variable.
package rustlang
