// kernel: fusion group, flat path, 32-bit indices
//   inputs 3
//   const int 1
//   const float 0.5
//   aten::mul.Scalar[](0,4) -> 1
//   aten::add.Tensor[](5,1,3) -> 1
//   aten::mul.Scalar[](6,2) -> 1
//   return 7
TS_DEVICE void kernel_element(const float x0, const float x1, const double s2, float& r0) {
    const float v1 = x0 * 0.5f;
    const float v2 = v1 + x1;
    const float v3 = v2 * ((float)s2);
    r0 = v3;
}

extern "C" __global__ void __launch_bounds__(256) kernel(
    const float* __restrict__ in0,
    const float* __restrict__ in1,
    double s2,
    float* __restrict__ out0,
    int n) {
    const float* __restrict__ p0 = in0;
    const float* __restrict__ p1 = in1;
    for (int i = (int)blockIdx.x * (int)blockDim.x + (int)threadIdx.x; i < n; i += (int)blockDim.x * (int)gridDim.x) {
        float r0;
        kernel_element(p0[i], p1[i], s2, r0);
        out0[i] = (float)r0;
    }
}

extern "C" __global__ void __launch_bounds__(256) kernel_v4(
    const float* __restrict__ in0,
    const float* __restrict__ in1,
    double s2,
    float* __restrict__ out0,
    int n) {
    const float* __restrict__ p0 = in0;
    const float* __restrict__ p1 = in1;
    const int vectors = n / 4;
    for (int j = (int)blockIdx.x * (int)blockDim.x + (int)threadIdx.x; j < vectors; j += (int)blockDim.x * (int)gridDim.x) {
        const ts_vec<float, 4> l0 = *(const ts_vec<float, 4>*)(p0 + j * 4);
        const ts_vec<float, 4> l1 = *(const ts_vec<float, 4>*)(p1 + j * 4);
        ts_vec<float, 4> o0;
        #pragma unroll
        for (int u = 0; u < 4; ++u) {
            float r0;
            kernel_element(l0.v[u], l1.v[u], s2, r0);
            o0.v[u] = (float)r0;
        }
        *(ts_vec<float, 4>*)(out0 + j * 4) = o0;
    }
    for (int i = vectors * 4 + (int)blockIdx.x * (int)blockDim.x + (int)threadIdx.x; i < n; i += (int)blockDim.x * (int)gridDim.x) {
        float r0;
        kernel_element(p0[i], p1[i], s2, r0);
        out0[i] = (float)r0;
    }
}
