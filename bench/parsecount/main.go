// Command parsecount counts the Rust functions of the Rust corpus roots of
// bench/native (the standard library's source and the Debian crates) that
// do not parse: a function_item with an ERROR or MISSING node inside it.
// Built at two versions of the grammar, it says which parses more; with
// -list it prints each such function's file and line, to compare the two
// lists.
//
//	go run ./bench/parsecount [-list]
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
)

// roots are bench/native's Rust roots, so that the count is over the code
// its corpus rule picks from.
var roots = []string{"/usr/lib/rustlib/src/rust/library", "/usr/share/cargo/registry"}

func main() {
	list := flag.Bool("list", false, "print every function that does not parse")
	flag.Parse()
	files, fns, bad, skipped := 0, 0, 0, 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".rs") {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f, err := syntax.ParseWithin(syntax.Lang("rust"), p, src, 10*time.Second)
			if err != nil {
				// Not text, too large or past the budget: counted apart.
				skipped++
				return nil
			}
			files++
			syntax.Walk(f.Root, func(n *syntax.Node) bool {
				if n.Kind != "function_item" {
					return true
				}
				fns++
				if syntax.FirstBad(n) != nil {
					bad++
					if *list {
						fmt.Printf("%s:%d\n", p, f.Position(n.Start).Line)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Printf("%d Rust files (%d not parsed), %d functions, %d that do not parse\n", files, skipped, fns, bad)
}
