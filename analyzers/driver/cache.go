package driver

// The result cache of the standalone command (docs/usage of -cache in
// docs/adopting.md): a run whose inputs are all unchanged replays its
// findings instead of loading, type-checking and analysing again. go vet
// does the same per package through the go command's cache; pre-commit
// and CI run guardlint on every change, mostly over code that did not
// change.
//
// The key is everything a run's result depends on, read after the list
// step (go list, which the run needs anyway to know its packages):
//   - guardlint itself: the executable's path, size and modification
//     time, so a new build never replays an old one's verdicts;
//   - the options (directory, patterns, tests, build flags, parse
//     budget) and the environment the go command reads for a build
//     (GOOS, GOARCH, GOFLAGS, CGO_ENABLED, GOEXPERIMENT);
//   - the invariants: every file's bytes (Digest) and which invariants
//     the run checks (-only, -skip, enabled);
//   - every listed package and every dependency, down to the standard
//     library: its import path and the bytes of each of its Go files, so
//     that an edit in a dependency (whose facts, such as a function that
//     never returns or an operation that needs a lock, change its
//     importers' findings) misses;
//   - every file an invariant of another language names: the bytes of
//     each file its globs match, which files they match, and the
//     .gitignore files that decide which of them are read.
// Runs on a view of the sources (prove's mutants, a revert, overlays)
// and runs of invariants files with patch chains are never cached: their
// inputs are not files on disk alone.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/token"
	"hash"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/overlay"
	"github.com/guardlint/guardlint/invariants"
	"golang.org/x/tools/go/packages"
)

// cacheFormat changes when the stored entry or the key's recipe does.
const cacheFormat = "guardlint-results-1"

// DefaultCacheDir is where the standalone command keeps its results:
// guardlint/results under the user's cache directory
// ($XDG_CACHE_HOME or ~/.cache on Linux), or "" when there is none.
func DefaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "guardlint", "results")
}

// cacheable reports whether a run's inputs are files on disk only.
func cacheable(set *invariants.Set, opts Options) bool {
	if opts.Cache == "" || len(opts.Overlay) > 0 || !opts.Files.Empty() {
		return false
	}
	for _, f := range set.Files {
		if f.Patches != nil {
			return false
		}
	}
	return true
}

// cacheKey hashes the inputs of a run; see the file comment.
func cacheKey(set *invariants.Set, opts Options, lists []unitList) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", cacheFormat)
	exe, err := executableDigest()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "exe %s\x00dir %s\x00patterns %q\x00tests %v\x00flags %q\x00budget %d\x00", exe, opts.Dir, opts.Patterns, opts.Tests, opts.BuildFlags, opts.ParseBudget)
	for _, v := range []string{"GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOROOT", "GOPATH", "GOWORK", "GOTOOLCHAIN"} {
		fmt.Fprintf(h, "env %s=%s\x00", v, os.Getenv(v))
	}
	fmt.Fprintf(h, "invariants %s\x00", Digest(set))
	for _, inv := range set.Invariants {
		fmt.Fprintf(h, "checks %s\x00", inv.ID)
	}
	seen := map[string]bool{}
	var pkgs []*packages.Package
	for _, l := range lists {
		fmt.Fprintf(h, "unit %s %q\x00", l.unit.Module.Dir, l.unit.Patterns)
		packages.Visit(l.listed, nil, func(p *packages.Package) {
			if !seen[p.ID] {
				seen[p.ID] = true
				pkgs = append(pkgs, p)
			}
		})
	}
	slices.SortFunc(pkgs, func(a, b *packages.Package) int { return strings.Compare(a.ID, b.ID) })
	for _, p := range pkgs {
		fmt.Fprintf(h, "package %s\x00", p.ID)
		files := slices.Concat(p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.EmbedFiles)
		slices.Sort(files)
		for _, f := range slices.Compact(files) {
			if err := hashFile(h, f); err != nil {
				return "", err
			}
		}
	}
	if err := hashNativeFiles(h, set); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashNativeFiles adds to h every file an invariant of another language
// than Go names: each glob, which files it matches and their bytes.
func hashNativeFiles(h hash.Hash, set *invariants.Set) error {
	for _, inv := range set.Invariants {
		if !inv.Lang.TreeSitter() {
			continue
		}
		base := filepath.Dir(inv.Pos.File)
		ignores := map[string]bool{}
		for _, g := range inv.Files {
			fmt.Fprintf(h, "glob %s %s\x00", base, g.Pattern)
			for _, f := range globFiles(base, g.Pattern) {
				if err := hashFile(h, f); err != nil {
					return err
				}
				if err := hashIgnores(h, filepath.Dir(f), ignores); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// hashIgnores adds to h the .gitignore files that decide whether the
// front end reads a file of dir: those of dir and of every directory
// above it up to the repository's top (the directory that holds .git;
// see the tree-sitter front end's gitignore.go). globFiles lists ignored
// files too, so without them an edited .gitignore, which changes the
// files a glob reads, would replay the old result. seen holds the
// directories already hashed.
func hashIgnores(h hash.Hash, dir string, seen map[string]bool) error {
	for d := dir; !seen[d]; {
		seen[d] = true
		ignore := filepath.Join(d, ".gitignore")
		if _, err := os.Stat(ignore); err == nil {
			if err := hashFile(h, ignore); err != nil {
				return err
			}
		}
		up := filepath.Dir(d)
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil || up == d {
			return nil
		}
		d = up
	}
	return nil
}

// hashFile adds a file's name and bytes to h; a file that is gone adds
// its name and that it is gone.
func hashFile(h hash.Hash, path string) error {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(h, "file %s missing\x00", path)
		return nil
	}
	defer f.Close()
	fmt.Fprintf(h, "file %s\x00", path)
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("cache key: %w", err)
	}
	h.Write([]byte{0})
	return nil
}

// globFiles lists the files a glob of a native invariant matches, the
// way the tree-sitter front end expands it (relative to base unless
// absolute; `**` for any depth). Listing a file too many only costs a
// miss; listing one too few would replay a stale result, so the walk
// starts at the glob's leading part without wildcards and descends
// wherever the glob may still match.
func globFiles(base, glob string) []string {
	pattern, root, literal := invariants.GlobRoot(base, glob)
	if literal {
		return []string{filepath.FromSlash(root)}
	}
	var view *overlay.Files // the disk
	var out []string
	descend := func(dir string) bool { return invariants.GlobReaches(pattern, filepath.ToSlash(dir)) }
	_ = view.WalkFiles(filepath.FromSlash(root), descend, func(p string) {
		if invariants.MatchGlob(pattern, filepath.ToSlash(p)) {
			out = append(out, p)
		}
	})
	slices.Sort(out)
	return out
}

// executableDigest names the running executable once per process: its
// path, size and modification time. A rebuilt guardlint is a new file,
// so a new build never replays an old one's verdicts; hashing the
// executable's bytes instead would cost a warm run tens of milliseconds.
var executableDigest = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cache key: %w", err)
	}
	info, err := os.Stat(exe)
	if err != nil {
		return "", fmt.Errorf("cache key: %w", err)
	}
	return fmt.Sprintf("%s %d %d", exe, info.Size(), info.ModTime().UnixNano()), nil
})

// cachedResult is a Result as the cache stores it: invariants by id.
type cachedResult struct {
	Findings   []cachedFinding `json:"findings"`
	Checked    int             `json:"checked"`
	NotChecked []string        `json:"not_checked"`
	Notes      []string        `json:"notes"`
}

type cachedFinding struct {
	Pos, End token.Position
	ID       string
	// Invariant is the id of the finding's invariant, "" for none (a
	// finding's ID is not always its invariant's).
	Invariant string
	Message   string
	Related   []core.Related
}

// cacheLoad returns the stored result of key, with its invariants bound
// to set's, or nil on a miss (or an entry that does not read back).
func cacheLoad(dir, key string, set *invariants.Set) *Result {
	data, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if err != nil {
		return nil
	}
	var c cachedResult
	if json.Unmarshal(data, &c) != nil {
		return nil
	}
	byID := map[string]*invariants.Invariant{}
	for _, inv := range set.Invariants {
		byID[inv.ID] = inv
	}
	res := &Result{Checked: c.Checked, Notes: c.Notes, Cached: true}
	for _, f := range c.Findings {
		inv := byID[f.Invariant]
		if f.Invariant != "" && inv == nil {
			return nil
		}
		res.Findings = append(res.Findings, core.Finding{Pos: f.Pos, End: f.End, ID: f.ID, Invariant: inv, Message: f.Message, Related: f.Related})
	}
	for _, id := range c.NotChecked {
		if byID[id] == nil {
			return nil
		}
		res.NotChecked = append(res.NotChecked, byID[id])
	}
	return res
}

// cacheStore writes res under key. The cache is an optimisation: a
// failure to write it is not the run's.
func cacheStore(dir, key string, res *Result) {
	c := cachedResult{Checked: res.Checked, Notes: res.Notes, Findings: []cachedFinding{}}
	for _, f := range res.Findings {
		cf := cachedFinding{Pos: f.Pos, End: f.End, ID: f.ID, Message: f.Message, Related: f.Related}
		if f.Invariant != nil {
			cf.Invariant = f.Invariant.ID
		}
		c.Findings = append(c.Findings, cf)
	}
	for _, inv := range res.NotChecked {
		c.NotChecked = append(c.NotChecked, inv.ID)
	}
	data, err := json.Marshal(c)
	if err != nil || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, key+".tmp*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(dir, key+".json")) != nil {
		os.Remove(tmp.Name())
	}
}
