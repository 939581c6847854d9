// The object-like macro the kernels write before unrolled loops.
#define STEEL_PRAGMA_UNROLL _Pragma("clang loop unroll(full)")
