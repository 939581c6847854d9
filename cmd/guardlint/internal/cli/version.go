package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is guardlint's version as the build recorded it: the module
// version when it was built from a module (go install ...@v1.2.3, or a
// pseudo-version that go build derives from the repository's commit),
// else "devel" with the commit it was built from and whether the tree had
// changes, else "devel".
func version() string {
	info, _ := debug.ReadBuildInfo()
	return versionOf(info)
}

// versionOf is version for the build information info, which may be nil.
func versionOf(info *debug.BuildInfo) string {
	if info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "devel-" + rev
	if modified == "true" {
		v += "-modified"
	}
	return v
}

// versionLine is what `guardlint version` and -version print.
func versionLine() string {
	return fmt.Sprintf("guardlint %s (%s %s/%s)", version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// sarifVersion is the version in the form SARIF consumers compare, which
// starts with a number: v1.2.3 is 1.2.3, and a development build is
// 0.0.0-devel-<commit>.
func sarifVersion() string {
	return sarifVersionOf(version())
}

// sarifVersionOf is sarifVersion for the version v.
func sarifVersionOf(v string) string {
	if strings.HasPrefix(v, "devel") {
		return "0.0.0-" + v
	}
	return strings.TrimPrefix(v, "v")
}
