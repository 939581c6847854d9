package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/guardlint/guardlint/analyzers/cliflag"
	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/driver"
	"github.com/guardlint/guardlint/invariants"
)

// subcommand is one of guardlint's commands besides the check itself.
type subcommand struct {
	name, args, summary string
	run                 func(args []string, stdout, stderr io.Writer, getenv func(string) string) int
}

// subcommands lists the commands in the order usage shows them. It is
// filled in init because help refers to it.
var subcommands []subcommand

func init() {
	subcommands = []subcommand{
		{"prove", "[flags] [packages]", "mutate the guarded code the ways reverts happen; each invariant must fire (docs/prove.md); -revert REV: the revert of a fix must be caught (docs/fixes.md)", proveMain},
		{"suggest", "[flags] REV [packages]", "propose invariants from a fix's diff, proven against its revert (docs/fixes.md)", suggestMain},
		{"list", "[-config FILES] [-C dir] [-json]", "list the loaded invariants: id, kind, target, where declared", listMain},
		{"version", "", "print guardlint's version", versionMain},
		{"help", "[command | kind]", "print this help, a command's, or a rule kind's reference", helpMain},
	}
}

// command returns the subcommand called name, or nil.
func command(name string) *subcommand {
	for i := range subcommands {
		if subcommands[i].name == name {
			return &subcommands[i]
		}
	}
	return nil
}

// unknownCommand returns the subcommand that arg looks like a slip of
// ("lsit", "Prove"), or "". An argument that can be a package pattern (a
// path, an import path with a dot or slash, an existing directory) is
// never taken for a command.
func unknownCommand(arg string) string {
	if arg == "" || strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, "./") || arg == "all" || arg == "std" || arg == "cmd" {
		return ""
	}
	if info, err := os.Stat(arg); err == nil && info.IsDir() {
		return ""
	}
	names := make([]string, len(subcommands))
	for i, c := range subcommands {
		names[i] = c.name
	}
	return cliflag.Closest(arg, names)
}

// usage prints the help of the check command: its synopsis, the
// subcommands, its flags and its exit status.
func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, `usage: guardlint [flags] [packages]
       guardlint <command> [arguments]

Checks the invariants declared in guardlint.yaml (or -config) over the
packages (default ./...) and the C, C++, CUDA, Rust and Metal files they
name.
It runs in any directory: the invariants file is found in the current
directory or a parent up to the repository root, and the Go modules from
the invariants' packages.

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range subcommands {
		fmt.Fprintf(tw, "  %s %s\t%s\n", c.name, c.args, c.summary)
	}
	tw.Flush()
	printKinds(w)
	fmt.Fprintf(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, `
Exit status: 0 every invariant checked holds, 1 findings (including
invariants that cannot be verified), 2 unusable configuration or command
line, 3 packages failed to load or type-check.
Also: go vet -vettool=$(command -v guardlint) [packages]. See the README.
`)
}

// summary is the line printed on stderr after a check: what was checked,
// what was found, what the patterns left out.
func summary(res *driver.Result, set *invariants.Set, patterns []string) string {
	s := fmt.Sprintf("guardlint: %s checked, %s", plural(res.Checked, "invariant"), plural(len(res.Findings), "finding"))
	bySeverity := map[invariants.Severity]int{}
	for _, f := range res.Findings {
		bySeverity[driver.SeverityOf(f)]++
	}
	if len(bySeverity) > 1 || bySeverity[invariants.SeverityError] == 0 && len(res.Findings) > 0 {
		var parts []string
		for _, sev := range invariants.Severities {
			if n := bySeverity[sev]; n > 0 {
				parts = append(parts, plural(n, string(sev)))
			}
		}
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	if n := len(res.NotChecked); n > 0 {
		s += fmt.Sprintf("; %s outside %s not checked", plural(n, "invariant"), strings.Join(patterns, " "))
	}
	if n := len(set.Unchecked); n > 0 {
		s += fmt.Sprintf("; %s disabled or deselected", plural(n, "invariant"))
	}
	return s
}

// plural writes a count and a noun.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// helpMain is `guardlint help [command]`.
func helpMain(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		_, err := parseFlags([]string{"-h"}, stdout, stdout)
		if errors.Is(err, flag.ErrHelp) {
			return ExitClean
		}
		return ExitConfig
	}
	if k := kindByName(args[0]); k != nil {
		printKind(stdout, k)
		return ExitClean
	}
	c := command(args[0])
	if c == nil || c.name == "help" {
		msg := fmt.Sprintf("guardlint help: unknown topic %q (a command or a rule kind)", args[0])
		if guess := cliflag.Closest(args[0], helpTopics()); guess != "" {
			msg += "; did you mean " + guess + "?"
		}
		fmt.Fprintln(stderr, msg)
		return ExitConfig
	}
	if c.name == "version" {
		fmt.Fprintf(stdout, "usage: guardlint version\n\n%s.\n", c.summary)
		return ExitClean
	}
	return c.run([]string{"-h"}, stdout, stdout, getenv)
}

// helpTopics are what `guardlint help` takes: the commands (help itself
// aside) and the rule kinds.
func helpTopics() []string {
	var out []string
	for _, c := range subcommands {
		if c.name != "help" {
			out = append(out, c.name)
		}
	}
	return append(out, kindNames()...)
}

// versionMain is `guardlint version`.
func versionMain(args []string, stdout, stderr io.Writer, _ func(string) string) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "usage: guardlint version\n")
		return ExitConfig
	}
	fmt.Fprintln(stdout, versionLine())
	return ExitClean
}

// listMain is `guardlint list`: the loaded invariants, one per line or
// as JSON.
func listMain(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := cliflag.NewFlagSet("guardlint list")
	var config, dir string
	commonFlags(fs, &config, &dir)
	jsonOut := fs.Bool("json", false, "print the invariants as a JSON array")
	listUsage := func() {
		fmt.Fprintf(stderr, "usage: guardlint list [-config FILES] [-C dir] [-json]\n\nLists the invariants that guardlint loads, with the file and line that declare each.\n\nFlags:\n")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
	}
	if err := cliflag.Parse(fs, args, stderr, listUsage); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitClean
		}
		return ExitConfig
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "guardlint list: unexpected argument %q; list takes flags only\n", fs.Arg(0))
		return ExitConfig
	}
	dir, err := absDir(dir)
	if err != nil {
		fmt.Fprintf(stderr, "guardlint list: %v\n", err)
		return ExitConfig
	}
	set, code := loadInvariants(config, dir, getenv, stderr)
	if set == nil {
		return code
	}
	entries := make([]listEntry, len(set.Invariants))
	for i, inv := range set.Invariants {
		entries[i] = listEntryOf(inv, dir)
	}
	if *jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(entries); err != nil {
			fmt.Fprintf(stderr, "guardlint list: %v\n", err)
			return ExitFailure
		}
		return ExitClean
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tTARGET\tDECLARED")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.ID, e.Kind, e.Target, e.Declared)
	}
	tw.Flush()
	return ExitClean
}

// listEntry is one invariant as `guardlint list` prints it.
type listEntry struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Lang string `json:"lang"`
	// Target is the functions or the field the invariant guards, with the
	// files they are looked up in for C, C++, CUDA and Rust.
	Target string `json:"target"`
	// Summary states the rule in one line, as SARIF's short description.
	Summary  string `json:"summary"`
	Why      string `json:"why"`
	Ref      string `json:"ref,omitempty"`
	Declared string `json:"declared"`
}

func listEntryOf(inv *invariants.Invariant, dir string) listEntry {
	var names []string
	for _, f := range inv.Functions {
		names = append(names, f.Short())
	}
	if inv.Field != nil {
		names = append(names, inv.Field.Short())
	}
	target := strings.Join(names, ", ")
	if inv.Lang.TreeSitter() {
		var globs []string
		for _, g := range inv.Files {
			globs = append(globs, g.Pattern)
		}
		target += " in " + strings.Join(globs, ", ")
	}
	return listEntry{
		ID: inv.ID, Kind: string(inv.Kind()), Lang: string(inv.Lang), Target: target,
		Summary: core.Summary(inv), Why: inv.Why, Ref: inv.Ref,
		Declared: fmt.Sprintf("%s:%d:%d", core.RelPath(dir, inv.Pos.File), inv.Pos.Line, inv.Pos.Col),
	}
}
