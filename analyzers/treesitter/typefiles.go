package treesitter

import "github.com/guardlint/guardlint/analyzers/treesitter/syntax"

// The type facts a rule asks of the files (a field's declared type, a
// member function's access, a class's bases) are read from every file
// of the invariant that the front end parsed, not only from those that
// define a function: a C++ header that only declares its class (`class
// Registry { ... std::vector<std::string> names_; };`, every member
// defined in a .cc) holds the facts, and no function. The check of a
// FilesRule (analyzers/nativecheck) records the files it parsed in
// ParsedFiles, whose typeFiles the functions of the job share; a
// Function made elsewhere reads its own file.

// typeFiles are the parsed files of one invariant's job, in the order of
// its globs.
type typeFiles struct {
	files []*syntax.File
	// raw are the files' bytes before the invariant's macros were
	// erased (syntax.EraseMacros keeps every offset), where the
	// thread-safety annotations it erases are still written.
	raw map[*syntax.File][]byte
	// scopedCache holds the guard classes the files declare by their
	// annotations (scopedguards.go).
	scopedCache
}

// rawOf returns a file's bytes before erasure, when the job or the file
// kept them, else the parsed bytes.
func (t *typeFiles) rawOf(f *syntax.File) []byte {
	if t != nil {
		if b, ok := t.raw[f]; ok {
			return b
		}
	}
	if f.Raw != nil {
		return f.Raw
	}
	return f.Src
}

// typeFilesOf returns the files whose type definitions the functions'
// facts are read from: the job's parsed files when the functions carry
// them, else each function's own file, once.
func typeFilesOf(fns []*Function) []*syntax.File {
	seen := map[string]bool{}
	var out []*syntax.File
	add := func(f *syntax.File) {
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f)
		}
	}
	for _, fn := range fns {
		add(fn.File)
	}
	if len(fns) > 0 && fns[0].types != nil {
		// Headers of declarations after the files that define
		// functions, which answered first before they were read.
		for _, f := range fns[0].types.files {
			add(f)
		}
	}
	return out
}

// ParsedFiles are the files one job of a FilesRule parsed, in the order
// of its globs, whose type facts its functions share.
type ParsedFiles struct{ types *typeFiles }

// NewParsedFiles starts the files of a job.
func NewParsedFiles() *ParsedFiles {
	return &ParsedFiles{types: &typeFiles{raw: map[*syntax.File][]byte{}}}
}

// Add records a parsed file with its bytes before erasure.
func (p *ParsedFiles) Add(f *syntax.File, raw []byte) {
	p.types.files = append(p.types.files, f)
	p.types.raw[f] = raw
}

// Share makes fn read the type facts of every file of the job, those
// added after it too, and returns it.
func (p *ParsedFiles) Share(fn *Function) *Function {
	fn.types = p.types
	return fn
}
