// Command gen writes the guarded_by corpus (bench/guardedby/go): fields
// whose own source says which lock guards them. The rule is written
// before its first run and is not narrowed after seeing results.
// `go run ./bench/guardedby/go/gen` picks a field F of a struct type T
// when
//
//  1. T is declared at package level, with a struct type literal, in a
//     file that `go list` reports among the GoFiles (non-test, built for
//     the host's GOOS and GOARCH) of a package of the standard library
//     (`go list std`, the cmd tree excluded) or of the modules
//     github.com/golang/groupcache, github.com/hashicorp/yamux,
//     github.com/miekg/dns and github.com/syndtr/goleveldb, every package
//     of each, at the versions bench/guardedby/go/corpus/go.mod selects;
//     the file is not generated (no "Code generated ... DO NOT EDIT." line);
//  2. the doc comment or the line comment of F says, case-insensitively,
//     "guarded by X", "protected by X" (an optional "the" before X), or
//     "+checklocks:X", where X is an identifier, or identifiers joined by
//     dots of which the last is taken (s.mu, Conn.mu: mu); the first such
//     phrase whose X resolves by point 3 is the lock;
//  3. X names a field of T's own struct literal whose type is written
//     sync.Mutex, sync.RWMutex, *sync.Mutex or *sync.RWMutex (an embedded
//     sync.Mutex or sync.RWMutex is the field Mutex or RWMutex), or a
//     package-level variable of the package declared with one of those
//     types written out; F is not X itself;
//  4. (the second version of the rule, which widens the first: the first
//     picked 3 fields, since std and these modules mostly put the comment
//     on the lock, not on the fields; points 1 to 3 are unchanged) or a
//     field X of T's struct literal of a type of point 3 has a doc or line
//     comment holding the word "protects", "guards" or "guarding"
//     (case-insensitively), and F is named by that comment (a word of it
//     that is the name of another field of T), or, when the comment names
//     no other field of T, F is declared after X in the same run of
//     fields, which ends at a blank line, at the next field of a type of
//     point 3, or at the end of the struct;
//  5. (the third version, which widens point 1 and changes nothing else:
//     the first two picked 136 fields, short of the 150 the issue asks,
//     because miekg/dns and goleveldb name their locks in no form the rule
//     reads) the modules of point 1 also include, every package of each,
//     github.com/dgraph-io/ristretto/v2, github.com/hashicorp/go-memdb,
//     github.com/hashicorp/mdns, github.com/jackc/pgx/v5,
//     github.com/pion/ice/v4, github.com/redis/rueidis and
//     github.com/VictoriaMetrics/metrics. They were chosen, before their
//     source was read, as the libraries served by the Go module proxy that
//     are built around shared state under locks (caches, connection pools,
//     database and network clients, metrics registries), that no other
//     corpus of the repository uses, and whose dependencies stay small
//     (none pulls in the reserved modules); every field they give is kept,
//     whatever guardlint finds;
//  6. (the fourth version, which widens point 1 again and changes nothing
//     else: the third added 2 fields, since those seven modules rarely
//     comment their locks) the modules also include, every package of
//     each, github.com/dgraph-io/badger/v4, github.com/golang/glog,
//     github.com/pion/webrtc/v4 and github.com/quic-go/quic-go. These are
//     what is left of the candidates github.com/cockroachdb/pebble,
//     github.com/dgraph-io/badger/v4, github.com/golang/glog,
//     github.com/hashicorp/serf, github.com/pion/webrtc/v4,
//     github.com/quic-go/quic-go and go.opencensus.io, chosen by the count
//     of lines holding the rule's phrases in their source (a grep), before
//     guardlint ran on any of them, once the ones that build on a reserved
//     module are set aside (pebble imports prometheus/client_golang, serf
//     hashicorp/memberlist, opencensus's ocgrpc grpc: code kept for
//     measuring guardlint independently). A module whose fields guardlint
//     then reports is kept, as is one that gives no field (glog).
//
// Each picked field gets a guarded_by invariant with X as its lock and
// the default reads (shared), whose why quotes the comment and its place
// (std/path/file.go:line, or module@version/path/file.go:line).
//
//	go run ./bench/guardedby/go/gen          # rewrites corpus/guardlint.yaml
//	go run ./bench/guardedby/go/gen -check   # fails when it is stale
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	gomodules "github.com/guardlint/guardlint/bench/guardedby/go/modules"
)

// modules are the modules of the corpus besides std, named in their own
// package so that the other corpora can leave them out.
var modules = gomodules.Scanned

var phrase = regexp.MustCompile(`(?i)(?:(?:guarded|protected)\s+by\s+(?:the\s+)?|\+checklocks:)([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)`)

var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Module     *struct{ Path, Version, Dir string }
	Standard   bool
}

type pick struct {
	pkg, typ, tparams, field, lock, why, where string
}

func main() {
	check := flag.Bool("check", false, "fail when the corpus file is not what the rule picks")
	dir := flag.String("dir", "bench/guardedby/go/corpus", "the module that pins the corpus")
	flag.Parse()
	var picks []pick
	for _, pattern := range append([]string{"std"}, suffixAll(modules, "/...")...) {
		for _, p := range list(*dir, pattern) {
			if strings.HasPrefix(p.ImportPath, "cmd/") {
				continue
			}
			picks = append(picks, pickPackage(p)...)
		}
	}
	sort.Slice(picks, func(i, j int) bool { return picks[i].where < picks[j].where })
	out := render(picks)
	path := filepath.Join(*dir, "guardlint.yaml")
	if *check {
		old, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(old, out) {
			fmt.Fprintf(os.Stderr, "%s is stale: run go run ./bench/guardedby/go/gen\n", path)
			os.Exit(1)
		}
		fmt.Printf("%s: %d fields, current\n", path, len(picks))
		return
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d fields\n", path, len(picks))
}

func suffixAll(s []string, suf string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x + suf
	}
	return out
}

// list runs go list in the corpus module.
func list(dir, pattern string) []pkg {
	cmd := exec.Command("go", "list", "-json", pattern)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go list %s: %v\n", pattern, err)
		os.Exit(1)
	}
	var out []pkg
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		out = append(out, p)
	}
	return out
}

// pickPackage applies the rule to one package.
func pickPackage(p pkg) []pick {
	fset := token.NewFileSet()
	var files []*ast.File
	var names []string
	for _, name := range p.GoFiles {
		src, err := os.ReadFile(filepath.Join(p.Dir, name))
		if err != nil || generated.Match(src) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), src, parser.ParseComments)
		if err != nil {
			continue
		}
		files = append(files, f)
		names = append(names, name)
	}
	pkgLocks := map[string]bool{}
	for _, f := range files {
		sync := syncName(f)
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if vs.Type != nil && isMutex(vs.Type, sync) {
					for _, n := range vs.Names {
						pkgLocks[n.Name] = true
					}
				}
			}
		}
	}
	var out []pick
	for i, f := range files {
		sync := syncName(f)
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				locks := map[string]bool{}
				for _, fl := range st.Fields.List {
					if !isMutex(fl.Type, sync) {
						continue
					}
					for _, n := range fl.Names {
						locks[n.Name] = true
					}
					if len(fl.Names) == 0 {
						locks[embeddedName(fl.Type)] = true
					}
				}
				for _, g := range groups(fset, st, sync) {
					for _, n := range g.fields {
						out = append(out, pick{
							pkg: p.ImportPath, typ: ts.Name.Name, tparams: tparams(ts), field: n.Name, lock: g.lock,
							why: g.quote, where: where(p, names[i], fset.Position(n.Pos()).Line),
						})
					}
				}
				for _, fl := range st.Fields.List {
					text := commentText(fl.Doc) + "\n" + commentText(fl.Comment)
					lock, quote := lockOf(text, func(x string) bool { return locks[x] || pkgLocks[x] })
					if lock == "" {
						continue
					}
					for _, n := range fl.Names {
						if n.Name == lock || n.Name == "_" {
							continue
						}
						out = append(out, pick{
							pkg: p.ImportPath, typ: ts.Name.Name, tparams: tparams(ts), field: n.Name, lock: lock,
							why: quote, where: where(p, names[i], fset.Position(n.Pos()).Line),
						})
					}
				}
			}
		}
	}
	return out
}

// group is the fields a lock's comment says it guards (point 4).
type group struct {
	lock, quote string
	fields      []*ast.Ident
}

var guardsWord = regexp.MustCompile(`(?i)\b(protects|guards|guarding)\b`)

var word = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// groups applies point 4 to a struct.
func groups(fset *token.FileSet, st *ast.StructType, sync string) []group {
	var out []group
	fields := map[string]*ast.Ident{}
	for _, fl := range st.Fields.List {
		for _, n := range fl.Names {
			fields[n.Name] = n
		}
	}
	list := st.Fields.List
	for i, fl := range list {
		if !isMutex(fl.Type, sync) {
			continue
		}
		lock := ""
		switch len(fl.Names) {
		case 1:
			lock = fl.Names[0].Name
		case 0:
			lock = embeddedName(fl.Type)
		default:
			continue
		}
		text := commentText(fl.Doc) + "\n" + commentText(fl.Comment)
		if !guardsWord.MatchString(text) {
			continue
		}
		g := group{lock: lock, quote: strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimSpace(text), "//", "")), " ")}
		seen := map[string]bool{}
		for _, w := range word.FindAllString(text, -1) {
			if n := fields[w]; n != nil && w != lock && !seen[w] {
				seen[w] = true
				g.fields = append(g.fields, n)
			}
		}
		if len(g.fields) == 0 {
			last := fset.Position(fl.End()).Line
			for _, next := range list[i+1:] {
				start := next.Pos()
				if next.Doc != nil {
					start = next.Doc.Pos()
				}
				if fset.Position(start).Line > last+1 || isMutex(next.Type, sync) {
					break
				}
				g.fields = append(g.fields, next.Names...)
				last = fset.Position(next.End()).Line
				if next.Comment != nil {
					last = fset.Position(next.Comment.End()).Line
				}
			}
		}
		if len(g.fields) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// lockOf returns the first X of a phrase of the rule that resolves, and
// the phrase.
func lockOf(text string, resolves func(string) bool) (string, string) {
	for _, m := range phrase.FindAllStringSubmatch(text, -1) {
		x := m[1]
		if i := strings.LastIndex(x, "."); i >= 0 {
			x = x[i+1:]
		}
		if resolves(x) {
			return x, strings.Join(strings.Fields(m[0]), " ")
		}
	}
	return "", ""
}

func commentText(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range cg.List {
		b.WriteString(c.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// syncName is the name the file imports "sync" under, or "".
func syncName(f *ast.File) string {
	for _, im := range f.Imports {
		if im.Path.Value == `"sync"` {
			if im.Name != nil {
				return im.Name.Name
			}
			return "sync"
		}
	}
	return ""
}

// isMutex reports whether a type is written sync.Mutex, sync.RWMutex or a
// pointer to one.
func isMutex(t ast.Expr, sync string) bool {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	sel, ok := t.(*ast.SelectorExpr)
	if !ok || sync == "" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == sync && (sel.Sel.Name == "Mutex" || sel.Sel.Name == "RWMutex")
}

func embeddedName(t ast.Expr) string {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	return t.(*ast.SelectorExpr).Sel.Name
}

// tparams writes a generic type's parameters as guardlint names them.
func tparams(ts *ast.TypeSpec) string {
	if ts.TypeParams == nil {
		return ""
	}
	var names []string
	for _, f := range ts.TypeParams.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	return "[" + strings.Join(names, ", ") + "]"
}

func where(p pkg, file string, line int) string {
	if p.Standard {
		return fmt.Sprintf("std/%s/%s:%d", p.ImportPath, file, line)
	}
	rel, _ := filepath.Rel(p.Module.Dir, filepath.Join(p.Dir, file))
	return fmt.Sprintf("%s@%s/%s:%d", p.Module.Path, p.Module.Version, filepath.ToSlash(rel), line)
}

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

func render(picks []pick) []byte {
	var b bytes.Buffer
	b.WriteString("# Generated by go run ./bench/guardedby/go/gen: fields whose source\n# says which lock guards them. Do not edit.\nversion: 1\ninvariants:\n")
	seen := map[string]int{}
	for _, p := range picks {
		id := unsafeID.ReplaceAllString(p.pkg+"."+p.typ+"."+p.field, "-")
		seen[id]++
		if seen[id] > 1 {
			id += fmt.Sprintf("-%d", seen[id])
		}
		fmt.Fprintf(&b, "  - id: %s\n", id)
		fmt.Fprintf(&b, "    why: %q\n", p.why+" at "+p.where)
		fmt.Fprintf(&b, "    field: \"(*%s.%s%s).%s\"\n", p.pkg, p.typ, p.tparams, p.field)
		fmt.Fprintf(&b, "    guarded_by: {lock: %s}\n", p.lock)
	}
	return b.Bytes()
}
