// Package fix guards fix commits: `guardlint prove --revert REV` undoes a
// commit (or a range) of the repository's history in memory and requires
// the invariants to catch it, hunk by hunk; `guardlint suggest REV`
// proposes invariants from the fix's diff and prints those that hold now
// and catch the revert.
//
// The change is read with git and undone over the work tree as it is on
// disk, through an overlay: nothing is written, neither to the work tree
// nor to the repository. The invariants files are never undone: the
// question is whether today's invariants catch the revert, and a guard
// lives apart from the code so that a revert of the code cannot delete it.
package fix
