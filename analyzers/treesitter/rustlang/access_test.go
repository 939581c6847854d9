package rustlang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAccesses(t *testing.T) {
	src := `struct K { m: HashMap<u32, u32>, mu: Mutex<()> }
impl K {
    fn f(&self, o: &K, p: Arc<K>, z: &Other) {
        let _g = self.mu.lock().unwrap();
        self.m.insert(1, 2);
        let x = &mut self.m;
        self.m[&1] = 3;
        o.m.get(&1);
        p.m.len();
        z.m.clear();
        let later = move || self.m.clear();
        let n = self.m[&2];
        let k = K { m: HashMap::new(), mu: Mutex::new(()) };
    }
}
`
	f, err := syntax.Parse("rust", "x.rs", []byte(src))
	require.NoError(t, err)
	fns := functions(f, &model.Config{})
	require.Len(t, fns, 1)
	var got []string
	for _, a := range (Language{}).Accesses(f, fns[0], "K", "m", &model.Config{}) {
		kind := "read"
		if a.Write {
			kind = "write"
		}
		later := ""
		if !a.Live() {
			later = " (later)"
		}
		got = append(got, fmt.Sprintf("%d %s %s %s%s", f.Position(a.Node.Start).Line, strings.Join(a.Object, ""), kind, a.How, later))
	}
	assert.Equal(t, []string{
		"5 self write insert()",
		"6 self write &mut",
		"7 self write an assignment through IndexMut",
		"8 o read ",
		"9 p read ",
		"11 self write clear() (later)",
		"12 self read ",
	}, got)
	assert.True(t, model.MapLike((Language{}).FieldType(f, "K", "m")))
}
