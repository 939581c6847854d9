// Command newkind writes a new rule kind into a guardlint checkout: a
// package under analyzers/kinds that compiles and registers, with every
// facet stubbed to fail loudly until it is written, its registry line,
// its row in the registry's facet table, its schema fragment (and the
// regenerated invariants/schema.json), a section in docs/invariants.md
// and annotated testdata for Go and C++.
//
//	go run ./internal/newkind [-root DIR] [-key KEY] NAME
//
// NAME is the kind's key in an invariant (guarded_by); the package is the
// key without underscores (guardedby). KEY is the rule's one key to begin
// with (default call: a function name for Go, a token pattern for the
// tree-sitter languages); the decoder is where to add the others.
//
// What "fails loudly" means for each facet: the Go analyzer reports
// every invariant of the kind as one it cannot verify, the tree-sitter
// check reports every target as a finding, and both mutant generators
// call every invariant vacuous, so `guardlint` and `guardlint prove`
// fail on any invariant of the kind until its author replaces the stub.
// No facet passes silently, and the generated tests pin those messages,
// so they fail once the stubs are replaced and must be rewritten.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	root := flag.String("root", ".", "the guardlint checkout to write into")
	key := flag.String("key", "call", "the rule's first key")
	schema := flag.Bool("schema", true, "regenerate invariants/schema.json (go test ./analyzers/registry -run Schema -update)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./internal/newkind [-root DIR] [-key KEY] NAME\n\nWrites the rule kind NAME (e.g. calls_once) into analyzers/kinds and registers it.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	k, err := newKind(flag.Arg(0), *key)
	if err != nil {
		fmt.Fprintln(os.Stderr, "newkind:", err)
		os.Exit(2)
	}
	written, err := k.write(*root, *schema)
	for _, w := range written {
		fmt.Println(w)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "newkind:", err)
		os.Exit(1)
	}
}
