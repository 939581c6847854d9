package model

import "github.com/guardlint/guardlint/invariants"

// ScopedGuard is a guard class that the code itself declares, by Clang's
// thread-safety annotations: a class marked SCOPED_LOCKABLE whose
// constructor is annotated as acquiring a lock
// (`explicit ArenaLock(Arena* arena) EXCLUSIVE_LOCK_FUNCTION(arena->mu)`).
// A local of the class holds the constructor's lock, its parameters
// replaced by the arguments the local is built with (`ArenaLock
// section(a);` holds `a->mu`), until the end of its block or a call of
// one of the class's methods annotated as releasing it
// (`section.Leave()`, `void Leave() UNLOCK_FUNCTION();`). This is the
// meaning Clang's own analysis gives these annotations.
type ScopedGuard struct {
	// Class is the last segment of the class's name.
	Class string
	// Ctors are its annotated constructors.
	Ctors []ScopedCtor
	// Releases are the methods annotated as releasing the lock.
	Releases []string
}

// ScopedCtor is one annotated constructor of a scoped guard class.
type ScopedCtor struct {
	// Params are the names of its parameters, in order.
	Params []string
	// Locks are the tokens of the locks it acquires, written in terms of
	// Params.
	Locks [][]string
	Mode  invariants.LockMode
}

// Scoped returns the scoped guard class the code declares under the
// last segment of a type's name, if any.
func (c *Config) Scoped(segs []string) (*ScopedGuard, bool) {
	if c == nil || len(segs) == 0 {
		return nil, false
	}
	for i := range c.ScopedGuards {
		if c.ScopedGuards[i].Class == segs[len(segs)-1] {
			return &c.ScopedGuards[i], true
		}
	}
	return nil, false
}

// Ctor returns the constructor a local built with n arguments calls:
// the one annotated constructor with n parameters; none when no or two
// constructors of the class take n (which one runs is not told apart by
// the arguments' types, so neither is taken: the guard holds nothing
// the rules can see, which fails closed).
func (s *ScopedGuard) Ctor(n int) (*ScopedCtor, bool) {
	var found *ScopedCtor
	for i := range s.Ctors {
		if len(s.Ctors[i].Params) != n {
			continue
		}
		if found != nil {
			return nil, false
		}
		found = &s.Ctors[i]
	}
	return found, found != nil
}

// LocksOf returns the locks the constructor takes when called with args
// (each an argument's tokens): every parameter in its locks replaced by
// its argument. An argument that is the address of a name (`&mu_`),
// substituted where the parameter is dereferenced (`p->mu`), gives the
// member of the name (`mu_.mu`), and alone the name itself, as the
// built-in guards read `absl::MutexLock l(&mu_)`; a longer expression is
// parenthesised.
func (c *ScopedCtor) LocksOf(args [][]string) [][]string {
	var out [][]string
	for _, l := range c.Locks {
		var lock []string
		for i := 0; i < len(l); i++ {
			p := paramIndex(c.Params, l[i])
			if p < 0 || p >= len(args) || (i > 0 && (l[i-1] == "." || l[i-1] == "->" || l[i-1] == "::")) {
				lock = append(lock, l[i])
				continue
			}
			arg := args[p]
			addr := len(arg) > 1 && arg[0] == "&" && isPath(arg[1:])
			switch {
			case addr && i+1 < len(l) && l[i+1] == "->":
				lock = append(lock, arg[1:]...)
				lock = append(lock, ".")
				i++
			case addr && len(l) == 1:
				lock = append(lock, arg[1:]...)
			case isPath(arg):
				lock = append(lock, arg...)
			default:
				lock = append(append(append(lock, "("), arg...), ")")
			}
		}
		out = append(out, lock)
	}
	return out
}

// paramIndex is the index of a parameter's name, or -1.
func paramIndex(params []string, tok string) int {
	for i, p := range params {
		if p == tok {
			return i
		}
	}
	return -1
}

// isPath reports whether tokens are a name or a chain of members
// (`a`, `this->a_`, `a->header.arena`), which a substitution needs no
// parentheses around.
func isPath(toks []string) bool {
	if len(toks) == 0 {
		return false
	}
	for i, t := range toks {
		sep := t == "." || t == "->" || t == "::"
		if sep != (i%2 == 1) || (i == len(toks)-1 && sep) {
			return false
		}
		if !sep && !isIdent(t) {
			return false
		}
	}
	return true
}

// isIdent reports whether a token is an identifier (or `this`).
func isIdent(t string) bool {
	for i, r := range t {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return t != ""
}
