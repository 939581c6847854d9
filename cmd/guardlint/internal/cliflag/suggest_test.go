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
		"verison": "version", // a swap
		"confgi":  "config",
		"tag":     "tags",
		"x":       "", // too short to guess from
		"test":    "", // tests and tags... tests is one edit, tags two: tests
		"zzzzzz":  "", // nothing near
		"tast":    "", // tags and tests are both one edit away: no guess
	} {
		if in == "test" {
			want = "tests"
		}
		assert.Equal(t, want, Closest(in, names), in)
	}
}
