// kernel: fusion group, strided path, 32-bit indices
//   inputs 2
//   const int 1
//   aten::sub.Tensor[](0,1,2) -> 1
//   return 3
TS_DEVICE void kernel_element(const float x0, const ts_i64 x1, float& r0) {
    const float v1 = x0 - ((float)x1);
    r0 = v1;
}

extern "C" __global__ void __launch_bounds__(256) kernel(
    const float* __restrict__ in0,
    const ts_i64* __restrict__ in1,
    float* __restrict__ out0,
    int n,
    int size0,
    int size1,
    int st0_0,
    int st1_0) {
    const float* __restrict__ p0 = in0;
    const ts_i64* __restrict__ p1 = in1;
    for (int i = (int)blockIdx.x * (int)blockDim.x + (int)threadIdx.x; i < n; i += (int)blockDim.x * (int)gridDim.x) {
        int rest = i;
        int o0 = 0;
        int o1 = 0;
        const int d1 = rest % size1;
        rest = rest / size1;
        o0 += d1;
        const int d0 = rest;
        o0 += d0 * st0_0;
        o1 += d0 * st1_0;
        float r0;
        kernel_element(p0[o0], p1[o1], r0);
        out0[i] = (float)r0;
    }
}
