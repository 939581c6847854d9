package treesitter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/guardlint/guardlint/invariants"
)

// nestedShapes are the shapes whose cost after the parse grew faster than
// their size: one function nesting depth levels, with a call (and for
// Rust a `?` exit) at every level, so that every fact builder has work at
// every depth.
var nestedShapes = []struct {
	name string
	lang invariants.Lang
	src  func(depth int) []byte
}{
	{"c-if", invariants.LangC, func(d int) []byte {
		return nestShape("void f(int a) {", "if (g()) { h(); ", "g();", "}", "}\n", d)
	}},
	{"cpp-lambda", invariants.LangCPP, func(d int) []byte {
		return nestShape("void f() {", "[&]{ g(); ", "h();", "}();", "}\n", d)
	}},
	{"rust-if", invariants.LangRust, func(d int) []byte {
		return nestShape("fn f(a: bool) {", "if g() { h(); ", "g();", " }", "}\n", d)
	}},
	{"rust-if-let", invariants.LangRust, func(d int) []byte {
		return nestShape("fn f() -> R {", "if let Some(x) = g()? { h(x)?; ", "g();", " }", "}\n", d)
	}},
	{"rust-try", invariants.LangRust, func(d int) []byte {
		return nestShape("fn f() -> R { (", "g()?.(", "h()", ")?", "); }\n", d)
	}},
	{"cpp-chain", invariants.LangCPP, func(d int) []byte {
		return []byte("void f(X x) { x" + strings.Repeat(".g()", d) + "; }\n")
	}},
	{"rust-chain", invariants.LangRust, func(d int) []byte {
		return []byte("fn f(&self) { self.m" + strings.Repeat(".lock()?", d) + ".push(g()); }\n")
	}},
	{"rust-lock", invariants.LangRust, func(d int) []byte {
		return nestShape("fn f(&self) {", "{ let _g = self.m.lock().unwrap(); self.a.push(g()?); ", "h();", " }", "}\n", d)
	}},
}

// depths are the depths BenchmarkNestedShapes runs each shape at.
var depths = []int{256, 512, 1024, 2048}

// BenchmarkNestedShapes runs the fuzz body over each nested shape at
// doubling depths: a builder linear in the function's size costs about
// twice as much at twice the depth (cpu-ms/op, the process's CPU time).
func BenchmarkNestedShapes(b *testing.B) {
	for _, shape := range nestedShapes {
		for _, depth := range depths {
			src := shape.src(depth)
			b.Run(fmt.Sprintf("%s/%d", shape.name, depth), func(b *testing.B) {
				start := cpuTime()
				for b.Loop() {
					frontEnd(b, shape.lang, src)
				}
				b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// nestShape is head, depth copies of open, body, depth copies of close,
// and tail.
func nestShape(head, open, body, close, tail string, depth int) []byte {
	return []byte(head + strings.Repeat(open, depth) + body + strings.Repeat(close, depth) + tail)
}
