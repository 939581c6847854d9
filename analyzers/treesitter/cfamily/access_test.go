package cfamily

import (
	"fmt"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/analyzers/treesitter/model"
	"github.com/guardlint/guardlint/analyzers/treesitter/syntax"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// describe lists accesses as "line object kind how" for comparisons.
func describe(f *syntax.File, as []model.Access) []string {
	var out []string
	for _, a := range as {
		kind := "read"
		switch {
		case a.Write:
			kind = "write"
		case a.Subscript:
			kind = "subscript"
		}
		live := ""
		if !a.Live() {
			live = " (later)"
		}
		out = append(out, fmt.Sprintf("%d %s %s %s%s", f.Position(a.Node.Start).Line, strings.Join(a.Object, ""), kind, a.How, live))
	}
	return out
}

func TestAccesses(t *testing.T) {
	src := `struct K { std::map<int, int> cache_; int n; std::vector<int> v; void f(const K& o, K* p, int x); };
void K::f(const K& o, K* p, int x) {
  auto& m = cache_[1];
  const auto& r = this->cache_;
  for (auto& kv : cache_) {}
  (this->n)++;
  o.cache_.find(1);
  p->cache_.emplace(1, 2);
  int* q = &n;
  n += 2;
  cache_[3] = 4;
  int y = cache_[5];
  auto it = cache_.find(6);
  Other z; z.n = 1;
  auto later = [this] { n = 7; };
  (*this).n = 8;
  { int n = 0; n = 9; }
  n = 10;
}
K::K() : n(0) { }
`
	f, err := syntax.Parse("cpp", "x.cc", []byte(src))
	require.NoError(t, err)
	fns := functions(f, &model.Config{})
	require.Len(t, fns, 2)
	l := Language{Lang: "cpp"}
	got := describe(f, l.Accesses(f, fns[0], "K", "cache_", &model.Config{}))
	assert.Equal(t, []string{
		"3 this write binding a non-const reference to it through operator[]",
		"4 this read ",
		"5 this write binding a non-const reference to it",
		"7 o read ",
		"8 p write emplace()",
		"11 this write an assignment through operator[]",
		"12 this subscript operator[]",
		"13 this read ",
	}, got)
	got = describe(f, l.Accesses(f, fns[0], "K", "n", &model.Config{}))
	assert.Equal(t, []string{
		"6 this write ++",
		"9 this write taking its address",
		"10 this write a compound assignment",
		"15 this write an assignment (later)",
		"16 this write an assignment",
		"18 this write an assignment",
	}, got)
	assert.Equal(t, []string{"std", "::", "map", "<", "int", ",", "int", ">"}, l.FieldType(f, "K", "cache_"))
	assert.True(t, model.MapLike(l.FieldType(f, "K", "cache_")))
	assert.False(t, model.MapLike(l.FieldType(f, "K", "v")))
	assert.Nil(t, l.FieldType(f, "K", "missing"))
	assert.Empty(t, l.Accesses(f, fns[1], "K", "n", &model.Config{}), "member initialisers are no accesses of the body")
}

func TestAccessesC(t *testing.T) {
	src := `typedef struct { int count; pthread_mutex_t mu; } Table;
static void bump(Table *t, struct Other *o) {
  t->count++;
  o->count = 0;
  int c = t->count;
}
`
	f, err := syntax.Parse("c", "x.c", []byte(src))
	require.NoError(t, err)
	fns := functions(f, &model.Config{})
	require.Len(t, fns, 1)
	l := Language{Lang: "c"}
	assert.Equal(t, []string{"3 t write ++", "5 t read "}, describe(f, l.Accesses(f, fns[0], "Table", "count", &model.Config{})))
	assert.Equal(t, []string{"int"}, l.FieldType(f, "Table", "count"))
}

func TestParamNamesAndPrivate(t *testing.T) {
	src := `class C {
  void hidden();
 public:
  void open(int a, const C& other, int);
 private:
  void locked(C* c);
  int x;
 public:
  void both();
 private:
  void both(int);
};
struct S { void pub(); };
void C::open(int a, const C& other, int) {}
`
	f, err := syntax.Parse("cpp", "x.cc", []byte(src))
	require.NoError(t, err)
	l := Language{Lang: "cpp"}
	fns := functions(f, &model.Config{})
	require.Len(t, fns, 1)
	assert.Equal(t, []string{"a", "other", ""}, l.ParamNames(f, fns[0]))
	assert.True(t, l.Private(f, "C", "locked"))
	assert.False(t, l.Private(f, "C", "open"))
	assert.True(t, l.Private(f, "C", "hidden"), "a class's members are private before any label")
	assert.False(t, l.Private(f, "C", "both"), "declared public too")
	assert.False(t, l.Private(f, "S", "pub"))
	assert.False(t, l.Private(f, "Other", "locked"))
}

func TestHasBases(t *testing.T) {
	f, err := syntax.Parse("cpp", "x.cc", []byte("struct B { int x; };\nclass D final : public B { int y; };\n"))
	require.NoError(t, err)
	l := Language{Lang: "cpp"}
	assert.True(t, l.HasBases(f, "D"))
	assert.False(t, l.HasBases(f, "B"))
	assert.False(t, l.HasBases(f, "Missing"))
}
