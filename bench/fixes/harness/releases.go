package main

// The rerun without the histories (docs/fixes.md): a Go commit of the
// corpus whose changed files two tagged releases of its module hold, the
// parent's in one and the commit's in the other (releases.tsv, found by
// bench/fixes/releases from the histories), is rebuilt in a scratch git
// repository from the Go module proxy's copies of the two releases, and
// measured as the harness measures a commit of a mirror. Its row must be
// the row results.md has for it, the rerun on the histories: a figure
// that departs is a change of suggest or prove --revert to look at, or a
// file outside the commit (the release's, not the parent's) that matters.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// release is one eligible commit of releases.tsv.
type release struct {
	Repo, Commit, Module, Before, After string
	// Files are the changed files with their blobs: "-" for a file
	// absent from that side.
	Files []releaseFile
}

type releaseFile struct {
	Path, BeforeBlob, AfterBlob string
}

func readReleases(path string) ([]release, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []release
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if i == 0 {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 8", path, i+1, len(f))
		}
		file := releaseFile{Path: f[5], BeforeBlob: f[6], AfterBlob: f[7]}
		if n := len(out); n > 0 && out[n-1].Commit == f[1] {
			if out[n-1].Module != f[2] || out[n-1].Before != f[3] || out[n-1].After != f[4] {
				return nil, fmt.Errorf("%s:%d: commit %s: module or versions differ from its line before", path, i+1, f[1])
			}
			out[n-1].Files = append(out[n-1].Files, file)
			continue
		}
		out = append(out, release{Repo: f[0], Commit: f[1], Module: f[2], Before: f[3], After: f[4], Files: []releaseFile{file}})
	}
	return out, nil
}

// rerunReleases measures every commit of releases.tsv rebuilt from the
// proxy and compares its row with results.md's. It returns the number of
// rows that depart (or could not be rebuilt).
func rerunReleases(bin, work string, commits []commit, expects []expectation) int {
	here := filepath.Join("bench", "fixes")
	rels, err := readReleases(filepath.Join(here, "releases.tsv"))
	check(err)
	recorded, err := os.ReadFile(filepath.Join(here, "results.md"))
	check(err)
	kinds := knownKinds()
	departed := 0
	for _, rel := range rels {
		i := slices.IndexFunc(commits, func(c commit) bool { return c.Commit == rel.Commit })
		if i < 0 {
			check(fmt.Errorf("releases.tsv: commit %s is not in selected.tsv", rel.Commit))
		}
		c := commits[i]
		e := findExpect(expects, c.Commit)
		if e == nil {
			check(fmt.Errorf("%s %s: no expectation in expect.yaml", c.Repo, c.Commit))
		}
		r := newResult(c, e, kinds)
		dir := filepath.Join(work, strings.Replace(c.Repo, "/", "+", 1)+"-"+c.Commit[:10]+"-releases")
		if err := rebuild(dir, rel, c.Subject); err != nil {
			fmt.Fprintf(os.Stderr, "%s %s: %s@%s..%s: %v\n", c.Repo, c.Commit[:10], rel.Module, rel.Before, rel.After, err)
			departed++
			continue
		}
		measure(bin, dir, "HEAD", "HEAD~1", e, r)
		os.RemoveAll(dir)
		got, want := tableRow(r), recordedRow(string(recorded), c.Commit)
		if got != want {
			fmt.Fprintf(os.Stderr, "%s %s rebuilt from %s@%s..%s departs from results.md:\n  rerun:      %s\n  results.md: %s\n", c.Repo, c.Commit[:10], rel.Module, rel.Before, rel.After, got, want)
			departed++
			continue
		}
		fmt.Printf("%s %s rebuilt from %s@%s..%s: the row of results.md\n", c.Repo, c.Commit[:10], rel.Module, rel.Before, rel.After)
	}
	fmt.Printf("%d of %d commits rebuilt from releases give results.md's row\n", len(rels)-departed, len(rels))
	return departed
}

// recordedRow is the row of results.md for the commit, or "".
func recordedRow(md, sha string) string {
	for _, l := range strings.Split(md, "\n") {
		if strings.Contains(l, " | `"+sha[:10]+"` | ") {
			return l
		}
	}
	return ""
}

// rebuild makes dir a git repository of two commits: the release
// before's tree, then the same tree with the changed files as the
// release after has them, committed with the fix's subject. Each changed
// file's blob is checked on both sides first: a copy that is not the
// recorded one is an error, never a rerun of something else.
func rebuild(dir string, rel release, subject string) error {
	before, err := moduleDir(rel.Module, rel.Before)
	if err != nil {
		return err
	}
	after, err := moduleDir(rel.Module, rel.After)
	if err != nil {
		return err
	}
	for _, f := range rel.Files {
		if err := checkBlob(before, f.Path, f.BeforeBlob, rel.Before); err != nil {
			return err
		}
		if err := checkBlob(after, f.Path, f.AfterBlob, rel.After); err != nil {
			return err
		}
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The module cache's copies are read-only.
	if out, err := exec.Command("cp", "-R", before+"/.", dir).CombinedOutput(); err != nil {
		return fmt.Errorf("copy %s: %s", before, firstLine(string(out)))
	}
	if out, err := exec.Command("chmod", "-R", "u+w", dir).CombinedOutput(); err != nil {
		return fmt.Errorf("chmod: %s", firstLine(string(out)))
	}
	id := []string{"-c", "user.name=fix corpus", "-c", "user.email=fixes@invalid", "-c", "commit.gpgsign=false"}
	steps := [][]string{
		{"init", "--quiet"},
		{"add", "-A", "-f", "."},
		append(slices.Clone(id), "commit", "--quiet", "--no-verify", "-m", rel.Module+" "+rel.Before),
	}
	for _, s := range steps {
		if out, err := git(dir, s...); err != nil {
			return fmt.Errorf("git %s: %s", strings.Join(s, " "), firstLine(out))
		}
	}
	for _, f := range rel.Files {
		dst := filepath.Join(dir, f.Path)
		if f.AfterBlob == "-" {
			if out, err := git(dir, "rm", "--quiet", "--", f.Path); err != nil {
				return fmt.Errorf("git rm %s: %s", f.Path, firstLine(out))
			}
			continue
		}
		data, err := os.ReadFile(filepath.Join(after, f.Path))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
		if out, err := git(dir, "add", "-f", "--", f.Path); err != nil {
			return fmt.Errorf("git add %s: %s", f.Path, firstLine(out))
		}
	}
	if out, err := git(dir, append(id, "commit", "--quiet", "--no-verify", "-m", subject)...); err != nil {
		return fmt.Errorf("git commit: %s", firstLine(out))
	}
	return nil
}

// moduleDir downloads module@version through the Go module proxy and
// returns its directory in the module cache.
func moduleDir(module, version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir = os.TempDir() // outside any module: the download alone
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out.Bytes(), &info); jerr == nil && info.Error != "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", module, version, info.Error)
	}
	if err != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", module, version, firstLine(errb.String()+out.String()))
	}
	return info.Dir, nil
}

// checkBlob checks that path in dir has the git blob hash want ("-":
// that it is absent).
func checkBlob(dir, path, want, version string) error {
	full := filepath.Join(dir, path)
	if _, err := os.Stat(full); os.IsNotExist(err) {
		if want == "-" {
			return nil
		}
		return fmt.Errorf("%s is absent from %s, want blob %s", path, version, want)
	}
	out, err := exec.Command("git", "hash-object", "--", full).Output()
	if err != nil {
		return fmt.Errorf("git hash-object %s: %w", full, err)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		return fmt.Errorf("%s in %s is blob %s, want %s", path, version, got, want)
	}
	return nil
}
