package driver

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
)

// DefaultFile is the invariants file looked for when no file is named.
const DefaultFile = "guardlint.yaml"

// EnvConfig names the environment variable that gives the invariants
// files when the command line (or the plugin's settings) names none.
const EnvConfig = "GUARDLINT_CONFIG"

// ErrNoConfig says that discovery found no invariants file.
var ErrNoConfig = errors.New("no invariants")

// SplitList splits a comma-separated list of paths, as -config and
// $GUARDLINT_CONFIG write them, dropping empty items.
func SplitList(list string) []string {
	var out []string
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ConfigPaths decides which invariants files to read: the explicit list
// (the -config flag, the plugin's settings), else $GUARDLINT_CONFIG, else
// guardlint.yaml at the root of the module that holds dir. Relative paths
// are relative to dir.
func ConfigPaths(explicit []string, getenv func(string) string, dir string) ([]string, error) {
	list, from := explicit, "-config"
	if len(list) == 0 {
		list, from = SplitList(getenv(EnvConfig)), EnvConfig
	}
	if len(list) > 0 {
		out := make([]string, 0, len(list))
		for _, p := range list {
			if p == "" {
				return nil, fmt.Errorf("%w: %s lists an empty path", ErrNoConfig, from)
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			out = append(out, p)
		}
		return out, nil
	}
	root, err := invariants.ModuleRoot(dir)
	if err != nil {
		return nil, err
	}
	if root == "" {
		return nil, fmt.Errorf("%w: no -config flag, no %s, and %s is not inside a Go module", ErrNoConfig, EnvConfig, dir)
	}
	p := filepath.Join(root, DefaultFile)
	if _, err := os.Stat(p); err != nil {
		return nil, fmt.Errorf("%w: no -config flag, no %s, and no %s at the module root %s", ErrNoConfig, EnvConfig, DefaultFile, root)
	}
	return []string{p}, nil
}

// Load loads the invariants files.
func Load(paths ...string) (*invariants.Set, error) {
	return registry.Load(paths...)
}

// PrintConfigError prints a loader error one line per error, with paths
// relative to dir.
func PrintConfigError(w io.Writer, err error, dir string) {
	var list invariants.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintf(w, "%s:%d:%d: %s\n", core.RelPath(dir, e.Pos.File), e.Pos.Line, e.Pos.Col, e.Msg)
		}
		return
	}
	fmt.Fprintf(w, "guardlint: %v\n", err)
}
