package cliflag

import "flag"

// Build is what a command line says about how Go packages are built:
// -tags. Every command that loads Go packages registers it, so that the
// check, the prover and suggest see the same files for the same flags.
type Build struct {
	// Tags are the comma-separated build tags, as go build -tags takes
	// them.
	Tags string
}

// Register adds -tags to fs.
func (b *Build) Register(fs *flag.FlagSet) {
	fs.StringVar(&b.Tags, "tags", "", "comma-separated build `tags` for loading packages, as go build -tags")
}

// Flags returns the go command's flags for loading packages: none
// without tags.
func (b Build) Flags() []string {
	if b.Tags == "" {
		return nil
	}
	return []string{"-tags=" + b.Tags}
}
