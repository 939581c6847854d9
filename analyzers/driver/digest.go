package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/guardlint/guardlint/invariants"
)

// Digest names the content of the invariants files of a set: a change to
// any file, an include among them, changes it. Result caches that know
// nothing of the invariants files take it into their key: golangci-lint's
// (through an analyzer's name) and go vet's (through the tool's -V=full
// identity).
func Digest(set *invariants.Set) string {
	h := sha256.New()
	for _, f := range set.Files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.Path, len(f.Content))
		h.Write(f.Content)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// InputsDigest names what a result cache keyed by Go files alone misses:
// the invariants files (Digest), whether this build checks C, C++, CUDA,
// Rust and Metal code (NativeFront: a build without cgo reports those
// invariants as not checkable, one with cgo checks them), and the bytes
// of every file the native invariants' globs match. golangci-lint's cache
// takes it into its key through an analyzer's name; without the last two
// it replays one build's verdicts for another, and a C file's old
// findings after the C file changed. A file that cannot be read changes
// the digest to one of its own, never to the digest of another content.
func InputsDigest(set *invariants.Set) string {
	h := sha256.New()
	fmt.Fprintf(h, "invariants %s\x00native %v\x00", Digest(set), NativeFront)
	if NativeFront {
		if err := hashNativeFiles(h, set); err != nil {
			fmt.Fprintf(h, "unreadable %v\x00", err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// DigestPaths is the digest of the invariants that discovery finds from
// dir, as ConfigPaths finds them. A configuration that does not load is
// digested from its bytes, so that fixing it changes the digest too; no
// configuration at all has the digest "none".
func DigestPaths(explicit []string, getenv func(string) string, dir string) string {
	paths, err := ConfigPaths(explicit, getenv, dir)
	if err != nil {
		return "none"
	}
	if set, err := Load(paths...); err == nil {
		return Digest(set)
	}
	raw := &invariants.Set{}
	for _, p := range paths {
		files := []string{p}
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			files, _ = filepath.Glob(filepath.Join(p, "*.y*ml"))
		}
		for _, f := range files {
			data, _ := os.ReadFile(f)
			raw.Files = append(raw.Files, &invariants.File{Path: f, Content: data})
		}
	}
	return Digest(raw)
}
