// Package patch reads unified diffs (git's, and plain `diff -u` output)
// and applies them to files in memory, forward or in reverse.
//
// Parsing is github.com/bluekeyes/go-gitdiff's; this package adds what
// guardlint needs on top of it: the line of every hunk and of every hunk
// line in the patch text, so that a finding on a patched line can point at
// the patch too; hunks located the way `git apply` locates them (at the
// line the header gives, else at the nearest offset where every context
// and removed line matches exactly: offsets, never fuzz); and errors that
// name the patch, the file and the hunk that does not apply.
//
// Nothing here touches the disk: sources go in as bytes, results come out
// as bytes with the origin of each line.
package patch
