package cliflag

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosest(t *testing.T) {
	names := []string{"config", "json", "sarif", "tags", "tests", "version"}
	for in, want := range map[string]string{
		"JSON":    "json",    // case only
		"jsno":    "json",    // a swap
		"sarf":    "sarif",   // a deletion
		"vresion": "version", // a swap
		"confgi":  "config",
		"tag":     "tags",
		"test":    "tests", // one edit from tests, two from tags
		"x":       "",      // too short to guess from
		"zzzzzz":  "",      // nothing near
		"tast":    "",      // tags and tests are both two edits away: no guess
	} {
		assert.Equal(t, want, Closest(in, names), in)
	}
}
