package core

import "time"

// DefaultParseBudget is the tree-sitter front end's parse budget when none
// is given: a parse may take this long, and as long again for every MiB
// of source, 510 s for 50 MiB. Parsing and copying 50 MB of real C++
// takes under a tenth of that on a loaded machine (docs/reliability.md);
// only a parse that has stopped making progress runs into it. It lives
// here, not in the front end, so that the commands of a build without the
// front end (no cgo) take the same -parse-budget flag.
const DefaultParseBudget = 10 * time.Second
