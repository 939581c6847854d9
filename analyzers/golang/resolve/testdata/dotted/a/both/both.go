// Package both imports a/b and a/b.c: from here, the name
// example.com/dotted/a/b.c.X has two readings whose packages are visible.
package both

import (
	_ "example.com/dotted/a/b"
	_ "example.com/dotted/a/b.c"
)
