// Annotated source for the CUDA front end. A trailing `// want ID "regexp"`
// marks a finding the invariant ID must report on that line; every other
// line must stay silent.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

namespace kernels {

void launch_add(const float* a, const float* b, float* out, int n, cudaStream_t s) {
  add_kernel<<<(n + 255) / 256, 256, 0, s>>>(a, b, out, n);
#ifdef KERNELS_DEBUG
  cudaDeviceSynchronize();
#endif
  if (false) {
    cudaDeviceSynchronize();
  }
}

void launch_add_synced(const float* a, const float* b, float* out, int n, cudaStream_t s) {
  add_kernel<<<(n + 255) / 256, 256, 0, s>>>(a, b, out, n);
  cudaDeviceSynchronize();  // want cu-no-sync "kernels::launch_add_synced must not call cudaDeviceSynchronize"
}

void launch_add_deferred(const float* a, const float* b, float* out, int n, cudaStream_t s) {
  add_kernel<<<(n + 255) / 256, 256, 0, s>>>(a, b, out, n);
  auto later = [] { cudaDeviceSynchronize(); };  // want cu-no-sync "this call might run: it is in a lambda that is never called here"
  register_callback(later);
}

void launch_removed(const float* a, const float* b, float* out, int n, cudaStream_t s) {
#if 0
  add_kernel<<<(n + 255) / 256, 256, 0, s>>>(a, b, out, n);  // want cu-launch "this call does not count: it is in `#if 0`"
#endif
}

void launch_after_return(const float* a, const float* b, float* out, int n, cudaStream_t s) {
  if (n == 0) return;
  return;
  add_kernel<<<(n + 255) / 256, 256, 0, s>>>(a, b, out, n);  // want cu-launch "after the return at line 42"
}

}  // namespace kernels
