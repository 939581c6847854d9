// floor.cu measures the floor under the runtime's round trip on a CUDA
// machine: one (a+b)*c kernel, n=4096 float32, launched and waited for in
// the ways a runtime can (a stream synchronize, polling the stream, an
// event, a flag the kernel writes into host-mapped memory, a CUDA graph of
// the kernel, two kernels, the launch alone), 5 runs of 20000 round trips
// each, under the scheduling flag given as the argument (0 default, 1
// spin, 2 yield, 4 blocking sync). The runtime's own overhead is what its
// BenchmarkRoundTrip adds to these (docs/gpu-results.md).
//
//   bench/launchfloor/run OUTDIR     # on the GPU machine (nvcc, PyTorch)
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <chrono>
#include <algorithm>
#include <vector>

__global__ void fused(const float* a, const float* b, const float* c, float* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r[i] = (a[i] + b[i]) * c[i];
}

// The same, and the last block to finish writes seq into a host-mapped
// flag, which the host polls instead of asking the driver.
__global__ void fusedFlag(const float* a, const float* b, const float* c, float* r, int n,
                          unsigned* counter, volatile unsigned* flag, unsigned seq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r[i] = (a[i] + b[i]) * c[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    unsigned done = atomicAdd(counter, 1u);
    if (done == gridDim.x - 1) {
      *counter = 0;
      __threadfence_system();
      *flag = seq;
    }
  }
}

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  const int n = 4096, iters = 20000;
  unsigned schedFlags = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
  cudaSetDeviceFlags(schedFlags | cudaDeviceMapHost);
  float *a, *b, *c, *r;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&c, n * 4); cudaMalloc(&r, n * 4);
  unsigned* counter; cudaMalloc(&counter, 4); cudaMemset(counter, 0, 4);
  volatile unsigned* hflag; cudaHostAlloc((void**)&hflag, 4, cudaHostAllocMapped);
  unsigned* dflag; cudaHostGetDevicePointer((void**)&dflag, (void*)hflag, 0);
  *hflag = 0;
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEvent_t ev; cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  const int threads = 256, blocks = (n + threads - 1) / threads;
  // A graph of the one kernel, captured once and launched each round.
  cudaGraph_t g; cudaGraphExec_t ge;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  fused<<<blocks, threads, 0, s>>>(a, b, c, r, n);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&ge, g, 0);
  unsigned seq = 0;
  const char* names[] = {"launch+streamSync", "launch+spin streamQuery", "launch+eventRecord+eventSync",
                         "launch+host-mapped flag spin", "graphLaunch+streamSync", "two launches+streamSync",
                         "launch only (no wait, per launch)"};
  for (int mode = 0; mode < 7; mode++) {
    std::vector<double> runs;
    for (int rep = 0; rep < 5; rep++) {
      for (int w = 0; w < 1000; w++) { fused<<<blocks, threads, 0, s>>>(a, b, c, r, n); cudaStreamSynchronize(s); }
      double t0 = now();
      for (int it = 0; it < iters; it++) {
        switch (mode) {
          case 0: fused<<<blocks, threads, 0, s>>>(a, b, c, r, n); cudaStreamSynchronize(s); break;
          case 1: fused<<<blocks, threads, 0, s>>>(a, b, c, r, n); while (cudaStreamQuery(s) == cudaErrorNotReady) {} break;
          case 2: fused<<<blocks, threads, 0, s>>>(a, b, c, r, n); cudaEventRecord(ev, s); cudaEventSynchronize(ev); break;
          case 3: ++seq; fusedFlag<<<blocks, threads, 0, s>>>(a, b, c, r, n, counter, dflag, seq); while (*hflag != seq) {} break;
          case 4: cudaGraphLaunch(ge, s); cudaStreamSynchronize(s); break;
          case 5: fused<<<blocks, threads, 0, s>>>(a, b, c, r, n); fused<<<blocks, threads, 0, s>>>(r, b, c, r, n); cudaStreamSynchronize(s); break;
          case 6: fused<<<blocks, threads, 0, s>>>(a, b, c, r, n); if ((it & 255) == 255) cudaStreamSynchronize(s); break;
        }
      }
      cudaStreamSynchronize(s);
      runs.push_back((now() - t0) / iters * 1e6);
    }
    std::sort(runs.begin(), runs.end());
    printf("sched=%u %-36s min %.2f median %.2f max %.2f us\n", schedFlags, names[mode], runs[0], runs[2], runs[4]);
  }
  printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
