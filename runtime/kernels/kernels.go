// Package kernels holds the CUDA sources of the runtime's kernels and the
// PTX generated from them by scripts/gen-ptx.
//
// Each generated .ptx file starts with a stamp line
//
//	// source-sha256: <hex sha256 of the .cu file>
//
// so a test can tell when a source changed and its PTX was not regenerated.
package kernels

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"
)

//go:embed *.cu *.ptx
var files embed.FS

// StampPrefix starts the first line of every generated PTX file.
const StampPrefix = "// source-sha256: "

// Module is one kernel source file and its generated PTX.
type Module struct {
	Name   string // the file name without extension, e.g. "elementwise"
	Source string // the CUDA C++ source
	PTX    string // the generated PTX, stamp included
}

// Modules returns every module, sorted by name. A source without its PTX
// is an error: the embedded path could not load it.
func Modules() ([]Module, error) {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil, fmt.Errorf("list kernel sources: %w", err)
	}
	var mods []Module
	for _, e := range entries {
		if path.Ext(e.Name()) != ".cu" {
			continue
		}
		name := strings.TrimSuffix(e.Name(), ".cu")
		src, err := files.ReadFile(name + ".cu")
		if err != nil {
			return nil, fmt.Errorf("read kernel source %s.cu: %w", name, err)
		}
		ptx, err := files.ReadFile(name + ".ptx")
		if err != nil {
			return nil, fmt.Errorf("read generated PTX for %s.cu (run scripts/gen-ptx): %w", name, err)
		}
		mods = append(mods, Module{Name: name, Source: string(src), PTX: string(ptx)})
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Name < mods[j].Name })
	return mods, nil
}

// SourceHash returns the hex sha256 of a kernel source, as stamped.
func SourceHash(source string) string {
	sum := sha256.Sum256([]byte(source))
	return hex.EncodeToString(sum[:])
}

// Stamp returns the source hash stamped on the first line of ptx.
func Stamp(ptx string) (string, bool) {
	line, _, _ := strings.Cut(ptx, "\n")
	if !strings.HasPrefix(line, StampPrefix) {
		return "", false
	}
	return strings.TrimSpace(strings.TrimPrefix(line, StampPrefix)), true
}

// Stale reports whether the module's PTX was generated from another version
// of its source.
func (m Module) Stale() bool {
	stamp, ok := Stamp(m.PTX)
	return !ok || stamp != SourceHash(m.Source)
}
