// Package cfamily is the C, C++ and CUDA front end: it finds function
// definitions by qualified name (namespaces, classes, out-of-line
// `Class::method` definitions), evaluates preprocessor conditions against
// the invariant's defines, decides which calls in a body are live, and
// recognises guard objects (lock_guard, unique_lock, scoped_lock,
// shared_lock) in both declaration shapes: `T l(m)`, which tree-sitter
// parses as a function declaration, and `T l{m}`.
package cfamily
