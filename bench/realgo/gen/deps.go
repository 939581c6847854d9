package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// depsExcluded are the modules whose imported packages point 18 of the
// after-unlock rule leaves out: those the design reserves for independent
// measurement, and those the guarded_by corpus scans.
var depsExcluded = []string{
	"google.golang.org/grpc",
	"github.com/prometheus/client_golang",
	"github.com/hashicorp/memberlist",
	"github.com/hashicorp/raft",
	"github.com/dgraph-io/ristretto/v2",
	"github.com/hashicorp/go-memdb",
	"github.com/hashicorp/mdns",
	"github.com/jackc/pgx/v5",
	"github.com/pion/ice/v4",
	"github.com/redis/rueidis",
	"github.com/VictoriaMetrics/metrics",
	"github.com/dgraph-io/badger/v4",
	"github.com/golang/glog",
}

// importedPackages lists the packages that the patterns import, directly
// or indirectly, in the module of dir, as point 18 takes them: not of the
// standard library, of no module in named or excluded, and not of the
// main module. go list fails on a package that does not resolve, which is
// an error here as it is in load.
func importedPackages(dir string, patterns, named, excluded []string) ([]string, error) {
	args := append([]string{"list", "-deps", "-f", "{{if and .Module (not .Standard) (not .Module.Main)}}{{.Module.Path}} {{.ImportPath}}{{end}}"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps in %s: %v\n%s", dir, err, stderr.String())
	}
	var pkgs []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		mod, path, ok := strings.Cut(sc.Text(), " ")
		if !ok || slices.Contains(named, mod) || slices.Contains(excluded, mod) {
			continue
		}
		pkgs = append(pkgs, path)
	}
	return pkgs, sc.Err()
}
