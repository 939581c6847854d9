// Annotated source for lang metal: kernels with address-space
// qualifiers, attributes and MSL's declaration macros parse, and an order
// invariant keeps each kernel's bounds check before its first access.
// `// want ID "regexp"` marks a finding; every other line must stay
// silent.
#include <metal_stdlib>
#include "defines.h"
using namespace metal;

METAL_FUNC float scale(thread const float& x, constant float& s) {
  return x * s;
}

template <typename T>
[[kernel]] void copy_checked(
    device const T* src [[buffer(0)]],
    device T* dst [[buffer(1)]],
    constant uint& size [[buffer(2)]],
    uint index [[thread_position_in_grid]]) {
  if (index >= size) {
    return;
  }
  dst[index] = src[index];
}

kernel void scale_checked(
    device const float* in [[buffer(0)]],
    device float* out [[buffer(1)]],
    constant uint& size [[buffer(2)]],
    constant float& s [[buffer(3)]],
    uint index [[thread_position_in_grid]]) {
  if (index < size) {
    out[index] = scale(in[index], s);
  }
}

[[kernel]] void tile_sum(
    device const float* in [[buffer(0)]],
    device float* out [[buffer(1)]],
    constant uint& size [[buffer(2)]],
    uint index [[thread_position_in_grid]],
    uint lid [[thread_position_in_threadgroup]]) {
  threadgroup float tile[32];
  if (index >= size) {
    return;
  }
  tile[lid] = in[index];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  STEEL_PRAGMA_UNROLL
  for (short i = 0; i < 4; i++) {
    out[index] += tile[(lid + i) % 32];
  }
}

// The reverts of the bounds check.
[[kernel]] void revert_removed(
    device const float* src [[buffer(0)]],
    device float* dst [[buffer(1)]],
    constant uint& size [[buffer(2)]],
    uint index [[thread_position_in_grid]]) {
  dst[index] = src[index];  // want bounds-first "revert_removed must evaluate index >= size before this dst\[index\], on every path"
}

[[kernel]] void revert_moved(
    device const float* src [[buffer(0)]],
    device float* dst [[buffer(1)]],
    constant uint& size [[buffer(2)]],
    uint index [[thread_position_in_grid]]) {
  dst[index] = src[index];  // want bounds-first "revert_moved must evaluate index >= size before this dst\[index\], on every path"
  if (index >= size) {
    return;
  }
}

[[kernel]] void revert_if0(
    device const float* src [[buffer(0)]],
    device float* dst [[buffer(1)]],
    constant uint& size [[buffer(2)]],
    uint index [[thread_position_in_grid]]) {
#if 0
  if (index >= size) {
    return;
  }
#endif
  dst[index] = src[index];  // want bounds-first "revert_if0 must evaluate index >= size before this dst\[index\], on every path"
}

// MSL 3.2's memory coherence qualifier, and a default argument `= {}`,
// parse.
template <typename Off = int>
METAL_FUNC uint offset_of(uint index, Off off = {}) {
  return index + off;
}

// Neither fence_signal nor offset_of may abort: a kernel that aborts
// leaves the fence unsignalled (fence-offset forbids it, naming abort).
[[kernel]] void fence_signal(
    volatile coherent(system) device uint* flag [[buffer(0)]],
    constant uint& size [[buffer(1)]],
    uint index [[thread_position_in_grid]]) {
  if (index >= size) {
    return;
  }
  flag[offset_of(index)] = 1;
}

// A row's base pointer is computed once the row is bounds-checked. The
// patterns of the row invariants are expressions the C++ grammar would
// read as declarations as statements (`row * nb`), one under a cast
// (`src0 + row * nb`, the cast binding to src0 alone), a variable
// (`offset0`) and a parenthesised one (`(row * nb)`).
template <typename T>
[[kernel]] void row_copy(
    device const char* src0 [[buffer(0)]],
    device T* dst [[buffer(1)]],
    constant uint& rows [[buffer(2)]],
    constant uint& nb [[buffer(3)]],
    constant uint& offset0 [[buffer(4)]],
    uint row [[thread_position_in_grid]]) {
  if (row >= rows) {
    return;
  }
  device const T* p = (device const T *) src0 + row * nb + offset0;
  dst[row] = p[(offset0)];
}

// The revert: the base pointer before the check.
template <typename T>
[[kernel]] void revert_row_copy(
    device const char* src0 [[buffer(0)]],
    device T* dst [[buffer(1)]],
    constant uint& rows [[buffer(2)]],
    constant uint& nb [[buffer(3)]],
    constant uint& offset0 [[buffer(4)]],
    uint row [[thread_position_in_grid]]) {
  device const T* p = (device const T *) src0 + (row * nb) + offset0;  // want row-mul "must evaluate row >= rows before this row \* nb" row-cast "must evaluate row >= rows before this src0 \+ row \* nb" row-var "must evaluate row >= rows before this offset0" row-paren "before this \(row \* nb\)"
  if (row >= rows) {
    return;
  }
  dst[row] = p[0];
}
