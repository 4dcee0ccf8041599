extern "C" __global__ void __launch_bounds__(256) tsjit_copy_long_float_r2_i32(
    const ts_i64* __restrict__ src,
    float* __restrict__ dst,
    int n,
    int size0,
    int size1,
    int ss0,
    int ss1,
    int ds0,
    int ds1) {
    for (int i = (int)blockIdx.x * (int)blockDim.x + (int)threadIdx.x; i < n; i += (int)blockDim.x * (int)gridDim.x) {
        int rest = i;
        int so = 0;
        int dout = 0;
        const int d1 = rest % size1;
        rest = rest / size1;
        so += d1 * ss1;
        dout += d1 * ds1;
        const int d0 = rest;
        so += d0 * ss0;
        dout += d0 * ds0;
        const ts_i64 x = src[so];
        dst[dout] = (float)((float)x);
    }
}
