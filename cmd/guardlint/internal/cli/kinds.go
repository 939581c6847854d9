package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/registry"
	"github.com/guardlint/guardlint/invariants"
)

// The rule kinds as the help shows them. Their text is the kinds' own:
// each kind's Doc, which its analyzer takes from the kind package's
// doc.go (core/docs), so `guardlint help hold`, go vet's -help and
// pkg.go.dev print one text.

// kindByName returns the registered kind called name, or nil.
func kindByName(name string) *core.Kind {
	for i := range registry.Kinds {
		if string(registry.Kinds[i].Name) == name {
			return &registry.Kinds[i]
		}
	}
	return nil
}

// kindDoc is the kind's documentation: its summary line, a blank line and
// the body.
func kindDoc(k *core.Kind) string {
	// The analyzer is built over an empty set only to read its Doc,
	// which does not depend on the invariants.
	a := k.Analyzer(guardconf.New(guardconf.Static(&invariants.Set{})))
	return a.Doc
}

// kindNames lists the registered kinds' names in the registry's order.
func kindNames() []string {
	out := make([]string, len(registry.Kinds))
	for i, k := range registry.Kinds {
		out[i] = string(k.Name)
	}
	return out
}

// langNames lists the languages an invariant may name, as `lang:` spells
// them.
func langNames(langs []invariants.Lang) string {
	out := make([]string, len(langs))
	for i, l := range langs {
		out[i] = string(l)
	}
	return strings.Join(out, ", ")
}

// printKinds writes the kinds, one line each with its summary, and the
// languages: the part of the usage text that says what guardlint checks.
func printKinds(w io.Writer) {
	fmt.Fprintf(w, "\nRule kinds (guardlint help <kind> prints one's reference):\n")
	for _, k := range registry.Kinds {
		summary, _, _ := strings.Cut(kindDoc(&k), "\n")
		fmt.Fprintf(w, "  %-15s %s\n", k.Name, summary)
	}
	fmt.Fprintf(w, "\nLanguages (lang:): %s. go is the default; the others are\nchecked by the tree-sitter front end over the files an invariant names.\n", langNames(invariants.Langs))
}

// printKind writes the reference of one kind: its documentation, the
// languages it is checked for, its rule's keys and an example per
// language family.
func printKind(w io.Writer, k *core.Kind) {
	fmt.Fprintf(w, "kind %s: %s\n", k.Name, kindDoc(k))
	fmt.Fprintf(w, "\nLanguages: %s\n", langNames(k.Langs))
	if len(k.Keys) > 0 {
		fmt.Fprintf(w, "Keys of %s: %s\n", k.Name, strings.Join(k.Keys, ", "))
	}
	langs := make([]string, 0, len(k.Examples))
	for l := range k.Examples {
		langs = append(langs, string(l))
	}
	slices.Sort(langs)
	if len(langs) > 0 {
		fmt.Fprintf(w, "\nExamples (the target and rule of an invariant; docs/invariants.md has the rest):\n")
		for _, l := range langs {
			fmt.Fprintf(w, "  %-4s %s\n", l, k.Examples[invariants.Lang(l)])
		}
	}
}
