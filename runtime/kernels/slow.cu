// gl_slow_copy: out = in, written only after each thread has waited
// delay_ns nanoseconds of the global timer. Tests use it as a producer that
// is still running when a consumer on another lane starts.

extern "C" __global__ void gl_slow_copy(float* __restrict__ out,
                                        const float* __restrict__ in,
                                        unsigned int n,
                                        unsigned long long delay_ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < delay_ns);
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x) {
        out[i] = in[i];
    }
}
