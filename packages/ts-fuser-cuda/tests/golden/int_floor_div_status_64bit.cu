// kernel: fusion group, strided path, 64-bit indices
//   inputs 2
//   const str 'floor'
//   aten::div.Tensor_mode[](0,1,2) -> 1
//   return 3
TS_DEVICE void kernel_element(const ts_i64 x0, const int x1, ts_i64& r0, bool& fail) {
    const ts_i64 v1 = ((ts_i64)x1);
    const ts_i64 v2 = ts_div_floor(x0, v1);
    r0 = v2;
    fail = fail || (v1 == 0);
}

extern "C" __global__ void __launch_bounds__(256) kernel(
    const ts_i64* __restrict__ in0,
    const int* __restrict__ in1,
    ts_i64* __restrict__ out0,
    ts_i64 n,
    ts_i64 size0,
    ts_i64 size1,
    ts_i64 st0_0,
    ts_i64 st1_0,
    int* __restrict__ status) {
    const ts_i64* __restrict__ p0 = in0;
    const int* __restrict__ p1 = in1;
    bool fail = false;
    for (ts_i64 i = (ts_i64)blockIdx.x * (ts_i64)blockDim.x + (ts_i64)threadIdx.x; i < n; i += (ts_i64)blockDim.x * (ts_i64)gridDim.x) {
        ts_i64 rest = i;
        ts_i64 o0 = 0;
        ts_i64 o1 = 0;
        const ts_i64 d1 = rest % size1;
        rest = rest / size1;
        o0 += d1;
        o1 += d1;
        const ts_i64 d0 = rest;
        o0 += d0 * st0_0;
        o1 += d0 * st1_0;
        ts_i64 r0;
        kernel_element(p0[o0], p1[o1], r0, fail);
        out0[i] = (ts_i64)r0;
    }
    if (fail) *status = 1;
}
