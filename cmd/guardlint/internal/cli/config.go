package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/invariants"
)

// DefaultFile is the invariants file looked for at the module root.
const DefaultFile = "guardlint.yaml"

// EnvConfig names the environment variable that gives the invariants
// files when no -config flag does (under go vet, too).
const EnvConfig = "GUARDLINT_CONFIG"

// errNoConfig says that discovery found nothing.
var errNoConfig = errors.New("no invariants")

// configPaths decides which invariants files to read: the -config flag,
// else $GUARDLINT_CONFIG, else guardlint.yaml at the root of the module
// that holds dir. Lists are comma-separated; relative paths are relative
// to dir.
func configPaths(flagValue string, getenv func(string) string, dir string) ([]string, error) {
	list := flagValue
	if list == "" {
		list = getenv(EnvConfig)
	}
	if list != "" {
		var out []string
		for _, p := range strings.Split(list, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			out = append(out, p)
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%w: -config and %s are empty", errNoConfig, EnvConfig)
		}
		return out, nil
	}
	root, err := invariants.ModuleRoot(dir)
	if err != nil {
		return nil, err
	}
	if root == "" {
		return nil, fmt.Errorf("%w: no -config flag, no %s, and %s is not inside a Go module", errNoConfig, EnvConfig, dir)
	}
	p := filepath.Join(root, DefaultFile)
	if _, err := os.Stat(p); err != nil {
		return nil, fmt.Errorf("%w: no -config flag, no %s, and no %s at the module root %s", errNoConfig, EnvConfig, DefaultFile, root)
	}
	return []string{p}, nil
}
