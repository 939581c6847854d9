package syntax

/*
#include <stddef.h>

// Declared as tree-sitter's api.h declares it; the definition is linked
// in with go-tree-sitter's copy of the library.
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t), void (*new_free)(void *));
*/
import "C"

// go-tree-sitter v0.25.0 installs an allocator whose every malloc, calloc,
// realloc and free calls back from C into Go and from there into libc
// (its SetAllocator trampoline, tree-sitter/go-tree-sitter#32, removed
// upstream after the version this module pins). A parse allocates once per
// node or so, and the crossings cost a third of a parse's CPU. Nothing here
// replaces the allocator, so tree-sitter gets libc's functions back: with
// NULLs, ts_set_allocator restores its defaults. This package's init runs
// after go-tree-sitter's, which it imports.
func init() { C.ts_set_allocator(nil, nil, nil, nil) }
