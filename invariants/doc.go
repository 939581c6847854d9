// Package invariants is guardlint's invariant model: the file format, its
// strict loader and the names that invariants use to point at code.
//
// An invariants file is YAML:
//
//	version: 1
//	package: ./runtime            # default package for unqualified names
//	invariants:
//	  - id: encoder-retained
//	    why: the pool hands encoders out at +0; without the retain the next drain recycles it
//	    ref: https://example.com/adr/7
//	    function: (*CommandBuffer).getOrCreateEncoder
//	    call:
//	      to: (*Encoder).retain
//
// Every key is checked: an unknown key, a wrong type, a duplicate id, an
// invariant with no rule or two rules, or a name that does not parse is an
// error with the file, line and column of the offending value. The loader
// collects every error of a file rather than stopping at the first.
//
// Names follow go/types: `example.com/m/runtime.Eval`,
// `(*example.com/m/runtime.CommandBuffer).reset`,
// `(example.com/m/runtime.T).m`, `example.com/m/runtime.evalMu`, and
// `example.com/m/runtime.CommandBuffer.active` for a field. Two short forms
// exist: a path that starts with `./` is relative to the module that holds
// the invariants file (`./runtime.Eval`, `(*./runtime.Encoder).retain`), and
// a name with no package at all (`Eval`, `(*Encoder).retain`, `evalMu`)
// lives in the package set by the invariant's or the file's `package` key.
// A generic type is written with its type parameters, as go/types prints
// it: `(*sync/atomic.Pointer[T]).Load`, `example.com/m/cache.Map[K, V].mu`.
//
// The last element of a package path may hold dots
// (`gopkg.in/yaml.v3.Unmarshal`, `(*github.com/nats-io/nats.go.Conn).AuthRequired`).
// Such a name keeps every way it splits into a path and identifiers
// (Name.Readings) until a driver calls Set.Resolve with the import paths it
// knows; a name two known packages can hold is an error, and the quoted
// form says where the path ends: `"gopkg.in/yaml.v3".Marshal`.
//
// The rule kinds are call, hold, owns, forbid, order and requires (see
// docs/invariants.md); requires is Go only.
//
// With `lang: c`, `cpp`, `cuda` or `rust`, an invariant names files instead
// of packages (`files`, globs relative to the invariants file), functions by
// their `::` path (`Class::method`, `ns::fn`, `Type::method`), and calls and
// locks by token patterns in that language (`msg_send![encoder, retain]`);
// `all` and `defines` apply to those languages only. The loader checks
// their shape; the tree-sitter front end parses the patterns.
package invariants
