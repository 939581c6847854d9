// gl_sum_partial: one pass of the sum reduction. Block b (256 threads) sums
// elements [2048*b, 2048*b + 2048): thread t first adds, in order,
// in[2048*b + 256*k + t] for k = 0..7 to 0.0f, then the block folds the 256
// partial sums with a halving tree (sh[t] += sh[t + s] for s = 128..1) and
// writes out[b]. The host repeats passes until one value is left. The CPU
// backend performs exactly these float32 additions in exactly this order,
// so both backends give bit-identical sums.

#define GL_SUM_THREADS 256
#define GL_SUM_PER_THREAD 8

extern "C" __global__ void gl_sum_partial(float* __restrict__ out,
                                          const float* __restrict__ in,
                                          unsigned int n)
{
    __shared__ float sh[GL_SUM_THREADS];
    unsigned int t = threadIdx.x;
    unsigned long long base = (unsigned long long)blockIdx.x * (GL_SUM_THREADS * GL_SUM_PER_THREAD);
    float acc = 0.0f;
    for (int k = 0; k < GL_SUM_PER_THREAD; k++) {
        unsigned long long i = base + (unsigned long long)k * GL_SUM_THREADS + t;
        if (i < n) {
            acc += in[i];
        }
    }
    sh[t] = acc;
    __syncthreads();
    for (unsigned int s = GL_SUM_THREADS / 2; s > 0; s >>= 1) {
        if (t < s) {
            sh[t] += sh[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = sh[0];
    }
}
