package invariants_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
)

// FuzzParse feeds arbitrary bytes to the loader. It must never panic, and
// every error it returns must be a positioned ErrorList inside the file.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/examples/*.yaml")
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", "version: 1\n", "- x", "version: 1\ninvariants: [{id: a}]",
		"version: 1\ninvariants:\n  - {id: a, why: w, function: (*p.T).m, hold: {lock: p.mu, mode: shared}}\n",
		"version: 1\ninvariants:\n  - {id: a, why: w, field: (p.T).f, owns: {writers: [\"x.y\".F]}}\n",
		"version: 1\ninvariants: &a [*a]\n", "{{{{", "version: !!binary aGk=\n",
		"version: 1\ninvariants:\n  - {id: a, why: w, lang: rust, files: [a/**/*.rs], defines: {feature: [x]}, function: ::T::f, call: {to: 'm![a, b]'}}\n",
		"version: 1\ninvariants:\n  - {id: a, why: w, lang: cpp, files: a.cc, all: true, field: T::f, owns: {writers: [T::~T]}}\n",
		"version: 1\ninvariants:\n  - {id: a, why: w, functions: [./p.f, (*p.T).g], requires: {lock: (p.T).mu, mode: shared, acquire: [p.L], release: [p.U]}}\n",
		"version: 1\ninvariants:\n  - id: a\n    why: w\n    function: (*gopkg.in/yaml.v3.Node).Decode\n    hold: {lock: example.com/m/gen.Map[K, V].mu}\n",
		"version: 1\ninvariants:\n  - id: a\n    why: w\n    function: (*github.com/nats-io/nats.go.Conn).AuthRequired\n    call: {to: '(*sync/atomic.Pointer[T]).Load'}\n",
		"version: 1\npatches: {upstream: vendor/up, series: [p/0001.patch, p/0002.patch]}\ninvariants:\n  - {id: a, why: w, lang: cpp, files: vendor/up/*.cc, function: f, call: {to: g}}\n",
		"version: 1\npatches: {upstream: '', series: [a, a]}\ninvariants: []\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, _, err := invariants.Parse(registry.Specs(), "fuzz.yaml", data, "example.com/m")
		if err == nil {
			if file == nil || file.Version != invariants.Version {
				t.Fatalf("accepted a file without version %d", invariants.Version)
			}
			for _, inv := range file.Invariants {
				if inv.ID == "" || inv.Why == "" || inv.Rule == nil {
					t.Fatalf("accepted an incomplete invariant: %+v", inv)
				}
			}
			return
		}
		var list invariants.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("error without position: %v", err)
		}
		for _, e := range list {
			if e.Pos.File != "fuzz.yaml" || e.Pos.Line < 1 || e.Pos.Col < 1 {
				t.Fatalf("bad position in %v", e)
			}
		}
	})
}

// FuzzName feeds arbitrary strings to the name parser. It must never
// panic, and every reading of a name it accepts must be spelled back, in
// the quoted form, as a name with that one reading.
func FuzzName(f *testing.F) {
	for _, s := range []string{
		"(*github.com/nats-io/nats.go.Conn).AuthRequired", "gopkg.in/yaml.v3.Node.Decode",
		`"gopkg.in/yaml.v3".Marshal`, "(*sync/atomic.Pointer[T]).Load", "p.Map[K, V].mu",
		"(*./gen.Map[K,V]).Get", "a/b.c.X", "Eval", "p.T.f", "(*p.T[).m", "x.y]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := invariants.ParseName(s, "example.com/m", "example.com/m/def")
		if err != nil {
			return
		}
		readings := n.Readings
		if readings == nil {
			readings = []invariants.Reading{{n.Pkg, n.Ident, n.Member}}
		}
		for _, r := range readings {
			m := n
			m.Pkg, m.Ident, m.Member, m.Readings = r.Pkg, r.Ident, r.Member, nil
			back, err := invariants.ParseName(m.Quoted(), "", "")
			if err != nil {
				t.Fatalf("%q: reading %+v spelled %q does not parse: %v", s, r, m.Quoted(), err)
			}
			if back.Readings != nil || back.Pkg != r.Pkg || back.Ident != r.Ident || back.Member != r.Member {
				t.Fatalf("%q: reading %+v spelled %q reads back as %+v", s, r, m.Quoted(), back)
			}
		}
	})
}
