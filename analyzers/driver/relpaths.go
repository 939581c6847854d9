package driver

import (
	"path/filepath"
	"strings"

	"github.com/guardlint/guardlint/analyzers/core"
)

// RelativeMessages rewrites the absolute paths under root that the
// findings' messages quote (a syntax error "at /home/me/src/x/a.cc:631",
// the overloads a name matched) as paths relative to root, in place.
//
// The front ends word a message with the path they read, which is
// absolute; the file fields of every format are already relative to the
// repository root (Report.Root), and a message that names the machine's
// directories would differ between a laptop and CI, leak the checkout's
// location into SARIF uploads and break a baseline's match. Rewriting the
// one prefix once, here, keeps every kind's wording free of that concern.
func RelativeMessages(root string, fs []core.Finding) {
	if root == "" || !filepath.IsAbs(root) {
		return
	}
	prefix := filepath.Clean(root) + string(filepath.Separator)
	if prefix == string(filepath.Separator)+string(filepath.Separator) {
		return // the filesystem root: every path is "under" it
	}
	for i := range fs {
		fs[i].Message = strings.ReplaceAll(fs[i].Message, prefix, "")
		for j := range fs[i].Related {
			fs[i].Related[j].Message = strings.ReplaceAll(fs[i].Related[j].Message, prefix, "")
		}
	}
}
