// Elementwise float32 kernels. Each thread moves one float4 (16-byte loads
// and stores); the n % 4 trailing elements are handled one per thread by the
// threads just past the last float4. Buffers come from cuMemAlloc and are
// 256-byte aligned.

struct gl_add_op {
    __device__ float operator()(float u, float v) const { return u + v; }
};

struct gl_mul_op {
    __device__ float operator()(float u, float v) const { return u * v; }
};

// gl_softcap_op computes cap * tanh(u / cap); v is ignored.
struct gl_softcap_op {
    float cap;
    __device__ float operator()(float u, float) const { return cap * tanhf(u / cap); }
};

template <typename Op>
__device__ __forceinline__ void gl_elementwise(float* __restrict__ out,
                                               const float* __restrict__ a,
                                               const float* __restrict__ b,
                                               unsigned int n, Op op)
{
    unsigned int n4 = n / 4;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = reinterpret_cast<const float4*>(a)[i];
        float4 y = reinterpret_cast<const float4*>(b)[i];
        float4 r;
        r.x = op(x.x, y.x);
        r.y = op(x.y, y.y);
        r.z = op(x.z, y.z);
        r.w = op(x.w, y.w);
        reinterpret_cast<float4*>(out)[i] = r;
    } else if (i < n4 + n % 4) {
        unsigned int j = 4 * n4 + (i - n4);
        out[j] = op(a[j], b[j]);
    }
}

// gl_add: out = a + b.
extern "C" __global__ void gl_add(float* __restrict__ out, const float* __restrict__ a,
                                  const float* __restrict__ b, unsigned int n)
{
    gl_elementwise(out, a, b, n, gl_add_op{});
}

// gl_mul: out = a * b.
extern "C" __global__ void gl_mul(float* __restrict__ out, const float* __restrict__ a,
                                  const float* __restrict__ b, unsigned int n)
{
    gl_elementwise(out, a, b, n, gl_mul_op{});
}

// gl_softcap: out = cap * tanh(x / cap).
extern "C" __global__ void gl_softcap(float* __restrict__ out, const float* __restrict__ x,
                                      float cap, unsigned int n)
{
    gl_elementwise(out, x, x, n, gl_softcap_op{cap});
}
