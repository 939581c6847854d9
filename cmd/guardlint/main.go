// Command guardlint checks declared invariants: that load-bearing calls,
// locks and ownership rules stay in place.
//
//	guardlint [-config FILE[,FILE...]] [-C DIR] [-tests] [-tags TAGS] [-json|-sarif] [packages]
//	guardlint prove|list|version|help [arguments]
//	go vet -vettool=$(command -v guardlint) [-config=FILE] [packages]
//
// See the README for the invariant format, configuration discovery and
// exit codes.
package main

import (
	"os"

	"github.com/guardlint/guardlint/cmd/guardlint/internal/cli"
)

func main() {
	if cli.IsVet(os.Args[1:]) {
		cli.Vet() // never returns
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}
