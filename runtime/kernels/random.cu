// gl_uniform: counter-based uniform random numbers in [0, 1). Element i is
// a pure function of (i, k0, k1): two rounds of a 32-bit integer mix, the
// top 24 bits scaled by 2^-24. Only integer operations and one exact
// conversion and scaling are involved, so the CPU backend's Go version gives
// bit-identical numbers.

__device__ __forceinline__ unsigned int gl_mix(unsigned int x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

extern "C" __global__ void gl_uniform(float* __restrict__ out, unsigned int n,
                                      unsigned int k0, unsigned int k1)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int h = gl_mix((i * 0x9e3779b9U) ^ k0);
        h = gl_mix(h ^ k1);
        out[i] = (float)(h >> 8) * (1.0f / 16777216.0f);
    }
}
