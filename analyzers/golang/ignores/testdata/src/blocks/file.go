// Code generated for the test; the whole file is a double.

//guardlint:ignore-file whole-file the generated doubles have no pool

package blocks

func d(e *Encoder) {}

func e(e *Encoder) {}
