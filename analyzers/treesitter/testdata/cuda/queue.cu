// Annotated CUDA for requires: launches onto the shared stream happen
// under its mutex, taken in the block around them. A trailing `// want
// ID "regexp"` marks a finding; every other line must stay silent.
#include <cuda_runtime.h>
#include <mutex>

__global__ void scale_kernel(float* x, int n);
std::mutex& stream_mutex();

void launch(float* x, int n, cudaStream_t s, bool ready) {
  if (ready) {
    std::lock_guard<std::mutex> lock(stream_mutex());
    scale_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  }
}

void revert_launch(float* x, int n, cudaStream_t s) {
  { std::lock_guard<std::mutex> lock(stream_mutex()); }
  scale_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, n);  // want cu-stream-locked "revert_launch \(it is not static, so other files can call it\) calls scale_kernel without holding stream_mutex\(\) \(exclusive\).*the guard at line 18 does not count: it is declared in a block that ends at line 18, before this"
}
