extern "C" __global__ void __launch_bounds__(256) tsjit_reduce_sum_float_float_k1_r1_i32(
    const float* __restrict__ src,
    float* __restrict__ dst,
    int outer,
    int inner,
    int ks0,
    int kst0,
    int rs0,
    int rst0) {
    __shared__ float partial[256];
    for (int o = (int)blockIdx.x; o < outer; o += (int)gridDim.x) {
        int base = 0;
        int o_rest = o;
        base += o_rest * kst0;
        float total = 0.0f;
        for (int r = (int)threadIdx.x; r < inner; r += (int)blockDim.x) {
            int off = base;
            int r_rest = r;
            off += r_rest * rst0;
            const float x = src[off];
            total = total + x;
        }
        partial[threadIdx.x] = total;
        __syncthreads();
        for (unsigned step = blockDim.x / 2; step > 0; step >>= 1) {
            if (threadIdx.x < step) {
                partial[threadIdx.x] = partial[threadIdx.x] + partial[threadIdx.x + step];
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) dst[o] = (float)(partial[0]);
        __syncthreads();
    }
}
