package cliflag

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosest(t *testing.T) {
	names := []string{"config", "json", "sarif", "tags", "tests", "version"}
	for in, want := range map[string]string{
		"JSON":    "json",    // case only
		"jsno":    "json",    // a swap: two edits
		"sarf":    "sarif",   // a deletion
		"vresion": "version", // a swap: two edits
		"confgi":  "config",
		"tag":     "tags",
		"test":    "tests", // one edit from tests, two from tags
		"x":       "",      // too short to guess from
		"zzzzzz":  "",      // nothing near
	} {
		assert.Equal(t, want, Closest(in, names), in)
	}
	assert.Empty(t, Closest("jsox", []string{"json", "jsor"}), "two candidates one edit away: no guess")
}
