package cfamily

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/guardlint/guardlint/invariants"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPreprocessorConditions(t *testing.T) {
	conf := &model.Config{Defines: []invariants.Define{
		{Name: "ON", Values: []string{""}},
		{Name: "LEVEL", Values: []string{"3"}},
		{Name: "VERSION", Values: []string{"201703L"}},
		{Name: "ODD", Values: []string{"x+"}},
	}}
	for cond, want := range map[string]tri{
		"0":                          no,
		"1":                          yes,
		"ON":                         yes,
		"OFF":                        no,
		"defined(ON)":                yes,
		"defined OFF":                no,
		"!defined(OFF) && LEVEL > 2": yes,
		"LEVEL >= 4 || defined(OFF)": no,
		"VERSION >= 201103L":         yes,
		"(LEVEL - 3) * 2":            no,
		"0x10 == 16":                 yes,
		"FN(1)":                      unknown,
		"FN(1) && 0":                 no,
		"FN(1) || 1":                 yes,
		"ODD":                        unknown,
		"LEVEL / 0":                  unknown,
	} {
		f, err := syntax.Parse("c", "x.c", []byte("#if "+cond+"\nint x;\n#endif\n"))
		require.NoError(t, err)
		n := f.Root.Children[0]
		require.Equal(t, "preproc_if", n.Kind, cond)
		assert.Equal(t, want, eval(f, n.Child("condition"), conf), cond)
	}
}

func TestBranchesTakeTheFirstTrueArm(t *testing.T) {
	conf := &model.Config{Defines: []invariants.Define{{Name: "A", Values: []string{"1"}}}}
	f, err := syntax.Parse("c", "x.c", []byte("#ifndef A\nint a;\n#elif A\nint b;\n#elif 1\nint c;\n#else\nint d;\n#endif\n"))
	require.NoError(t, err)
	var live []tri
	for _, b := range branches(f, f.Root.Children[0], conf) {
		live = append(live, b.live)
	}
	assert.Equal(t, []tri{no, yes, no, no}, live)
}
