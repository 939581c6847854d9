package ruletest

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/nativecheck"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The annotated test data of the tree-sitter languages, for the front
// end's tests and for each kind's own.

// want is one expected finding: in a source file a trailing
// `// want ID "regexp"` comment, in an invariants file `# want ID
// "regexp"`. Several may follow each other on one line. The regexp is
// taken as written, without Go string escapes.
type want struct {
	file string
	line int
	id   string
	re   *regexp.Regexp
	hit  bool
}

var wantRE = regexp.MustCompile(`(?://|#) want ((?:[A-Za-z0-9._-]+ "(?:[^"\\]|\\.)*"\s*)+)$`)
var wantItemRE = regexp.MustCompile(`([A-Za-z0-9._-]+) ("(?:[^"\\]|\\.)*")`)

// readWants collects the annotations of one file.
func readWants(t *testing.T, path string) []*want {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []*want
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		m := wantRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		for _, item := range wantItemRE.FindAllStringSubmatch(m[1], -1) {
			// The regexp is the text between the quotes, with \" for a quote.
			pat := strings.ReplaceAll(item[2][1:len(item[2])-1], `\"`, `"`)
			re, err := regexp.Compile(pat)
			require.NoError(t, err, "%s:%d: bad want regexp", path, line)
			out = append(out, &want{file: path, line: line, id: item[1], re: re})
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// Native runs the tree-sitter front end over one invariants file and compares
// its findings with the annotations of the invariants file and of every
// file under dir.
func Native(t *testing.T, yamlPath, dir string) {
	t.Helper()
	set, err := registry.Load(yamlPath)
	require.NoError(t, err)
	wants := readWants(t, yamlPath)
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			wants = append(wants, readWants(t, p)...)
		}
		return err
	}))
	require.NotEmpty(t, wants, "annotated testdata without a single want checks nothing")
	for _, f := range nativecheck.Check(set, nativecheck.Options{}) {
		matched := false
		for _, w := range wants {
			if !w.hit && sameFile(w.file, f.Pos.Filename) && w.line == f.Pos.Line && w.id == f.ID && w.re.MatchString(f.Message) {
				w.hit, matched = true, true
				break
			}
		}
		assert.True(t, matched, "unexpected finding %s:%d:%d: [%s] %s", f.Pos.Filename, f.Pos.Line, f.Pos.Column, f.ID, f.Message)
		if matched && f.ID != "suppression" { // suppressions speak of the comment, as in Go files
			assert.True(t, strings.HasPrefix(f.Message, "invariant "+f.ID+": "), "message must start with the invariant id: %s", f.Message)
			assert.Contains(t, f.Message, "(why: ", "message must end with the why: %s", f.Message)
		}
	}
	for _, w := range wants {
		assert.True(t, w.hit, "%s:%d: no finding of %s matching %q", w.file, w.line, w.id, w.re)
	}
}

func sameFile(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}
