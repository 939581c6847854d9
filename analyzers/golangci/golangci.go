// Package golangci is guardlint as a golangci-lint v2 module plugin.
//
// A custom golangci-lint binary built with `golangci-lint custom` from a
// .custom-gcl.yml that names this module registers the plugin "guardlint";
// .golangci.yml then enables it and points it at the invariants files:
//
//	linters:
//	  enable: [guardlint]
//	  settings:
//	    custom:
//	      guardlint:
//	        type: module
//	        settings:
//	          config: [guardlint.yaml]
//
// The plugin runs the same analyzers as `guardlint` and `go vet
// -vettool`, built fresh for each BuildAnalyzers call so that two
// configurations in one process share nothing. Two things differ from
// the other drivers, both because golangci-lint would otherwise drop a
// finding without a word: findings located in an invariants file are moved
// into a Go file of the package (see relocate.go), and the invariants'
// content is part of the analyzers' names, which golangci-lint's result
// cache is keyed by (see digest.go).
package golangci

import (
	"errors"
	"fmt"
	"os"

	"github.com/golangci/plugin-module-register/register"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/analysis"
)

// Name is the plugin's name, the key under linters.settings.custom in
// .golangci.yml and the linter name golangci-lint prints.
const Name = "guardlint"

// init registers the plugin, as `golangci-lint custom` expects of a module
// plugin imported for its side effect.
func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings in .golangci.yml. Keys are decoded
// strictly: a misspelled key is an error, not an ignored line, because an
// ignored `confg:` would quietly check the default file instead.
type Settings struct {
	// Config lists invariants files or directories. Relative paths are
	// relative to the root of the Go module golangci-lint runs in (the
	// directory of the nearest go.mod at or above the working
	// directory). Empty means guardlint.yaml at that root.
	Config []string `json:"config"`
}

// Plugin is the guardlint linter of one golangci-lint configuration.
type Plugin struct {
	settings Settings
	// dir is where relative paths start: the module root around the
	// working directory when the plugin was made.
	dir string
}

// New decodes the settings; golangci-lint calls it once per
// configuration.
func New(raw any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](raw)
	if err != nil {
		return nil, fmt.Errorf("guardlint settings (allowed keys: config): %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("guardlint: %w", err)
	}
	dir, err := invariants.ModuleRoot(wd)
	if err != nil {
		return nil, fmt.Errorf("guardlint: %w", err)
	}
	return &Plugin{settings: s, dir: dir}, nil
}

// BuildAnalyzers loads the invariants and returns a fresh suite reading
// them. The files are loaded here rather than in the first analysis pass
// so that a missing or broken file, an invariant whose package does not
// exist (see preflight) stops golangci-lint before it analyses anything,
// with file:line:col errors.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	paths, err := p.paths()
	if err != nil {
		return nil, err
	}
	src := registry.Files(paths...)
	set, err := src()
	if err != nil {
		return nil, fmt.Errorf("guardlint: cannot load invariants:\n%w", err)
	}
	if err := preflight(set, p.dir); err != nil {
		return nil, err
	}
	analyzers := driver.AnalysisSuite(src, driver.NativeChecked)
	for _, a := range analyzers {
		relocateNonGo(a, p.dir)
	}
	return append(analyzers, digestAnalyzer(set)), nil
}

// GetLoadMode asks for type information: every rule resolves names
// through go/types.
func (p *Plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}

// paths resolves the configured invariants files, or finds them as every
// guardlint command does: $GUARDLINT_CONFIG, then guardlint.yaml at the
// module root. Relative paths are relative to the module root.
func (p *Plugin) paths() ([]string, error) {
	if p.dir == "" {
		return nil, errors.New("guardlint: the working directory is not inside a Go module")
	}
	paths, err := driver.ConfigPaths(p.settings.Config, os.Getenv, p.dir)
	if err != nil {
		return nil, fmt.Errorf("guardlint settings: %w", err)
	}
	return paths, nil
}
