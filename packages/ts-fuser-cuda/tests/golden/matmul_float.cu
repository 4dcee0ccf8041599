extern "C" __global__ void __launch_bounds__(256) tsjit_matmul_float_i32(
    const float* __restrict__ a,
    const float* __restrict__ b,
    float* __restrict__ c,
    int batch,
    int m,
    int n,
    int k,
    int sab,
    int sam,
    int sak,
    int sbb,
    int sbk,
    int sbn) {
    __shared__ float as[16][16];
    __shared__ float bs[16][16];
    const int tx = (int)(threadIdx.x % 16);
    const int ty = (int)(threadIdx.x / 16);
    const int tiles_m = (m + 15) / 16;
    const int tiles_n = (n + 15) / 16;
    const int tiles = batch * tiles_m * tiles_n;
    for (int tile = (int)blockIdx.x; tile < tiles; tile += (int)gridDim.x) {
        const int tn = tile % tiles_n;
        const int tm = (tile / tiles_n) % tiles_m;
        const int bi = tile / (tiles_n * tiles_m);
        const int row = tm * 16 + ty;
        const int col = tn * 16 + tx;
        const float* ab = a + bi * sab;
        const float* bb = b + bi * sbb;
        float acc = 0.0f;
        for (int k0 = 0; k0 < k; k0 += 16) {
            as[ty][tx] = (row < m && k0 + tx < k) ? ab[row * sam + (k0 + tx) * sak] : 0.0f;
            bs[ty][tx] = (k0 + ty < k && col < n) ? bb[(k0 + ty) * sbk + col * sbn] : 0.0f;
            __syncthreads();
            for (int kk = 0; kk < 16; ++kk) {
                acc = acc + as[ty][kk] * bs[kk][tx];
            }
            __syncthreads();
        }
        if (row < m && col < n) c[(bi * m + row) * n + col] = acc;
    }
}
