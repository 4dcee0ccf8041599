// tsjit host shim: CUDA C kernels compiled as C++ for the CPU, the grid run as loops.
//
// It gives g++ what a kernel's source expects from CUDA (the qualifiers,
// threadIdx/blockIdx/blockDim/gridDim, the bit-cast intrinsics, shared memory
// and __syncthreads) so that the very text nvcc compiles runs on the host,
// where its numerics are compared with numpy. A launch runs the blocks one
// after another. Kernels without barriers run each thread to completion in
// turn; kernels with barriers run the threads of a block as cooperative fibers
// (ucontext) that switch at every __syncthreads, so shared memory sees the
// same order of writes and reads as on a GPU. Shared memory is static
// storage, reused by each block in turn as a GPU reuses it.

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>


#define __device__
#define __global__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __shared__ static

struct ts_dim3 {
    unsigned x, y, z;
};

static ts_dim3 threadIdx, blockIdx, blockDim, gridDim;

static inline float __int_as_float(int bits) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}
static inline double __longlong_as_double(long long bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}
template <typename T>
static inline T __ldg(const T* p) {
    return *p;
}

namespace ts_host {

enum { STACK_BYTES = 64 * 1024 };

struct Fiber {
    ucontext_t context;
    char* stack;
    bool done;
    ts_dim3 index;
};

typedef void (*Body)(void**);

static ucontext_t scheduler;
static Fiber* fibers = nullptr;
static int current = -1;
static Body body = nullptr;
static void** body_params = nullptr;
static int barrier_error = 0;

static void fiber_main(void) {
    body(body_params);
    fibers[current].done = true;
}

}  // namespace ts_host

// a barrier: hand control back to the scheduler, which runs the other threads of the block
// up to this barrier before resuming this one
static inline void __syncthreads() {
    if (ts_host::fibers == nullptr) {
        ts_host::barrier_error = 1;  // a kernel launched without barrier support
        return;
    }
    swapcontext(&ts_host::fibers[ts_host::current].context, &ts_host::scheduler);
}

namespace ts_host {

static int run_block_with_barriers(unsigned threads, Body kernel, void** params) {
    Fiber* block = (Fiber*)calloc(threads, sizeof(Fiber));
    char* stacks = (char*)malloc((size_t)threads * STACK_BYTES);
    if (block == nullptr || stacks == nullptr) {
        free(block);
        free(stacks);
        return 3;
    }
    fibers = block;
    body = kernel;
    body_params = params;
    for (unsigned t = 0; t < threads; ++t) {
        Fiber& f = block[t];
        f.index = {t % blockDim.x, (t / blockDim.x) % blockDim.y, t / (blockDim.x * blockDim.y)};
        f.stack = stacks + (size_t)t * STACK_BYTES;
        getcontext(&f.context);
        f.context.uc_stack.ss_sp = f.stack;
        f.context.uc_stack.ss_size = STACK_BYTES;
        f.context.uc_link = &scheduler;
        makecontext(&f.context, fiber_main, 0);
    }
    for (;;) {
        unsigned finished = 0;
        for (unsigned t = 0; t < threads; ++t) {
            if (block[t].done) {
                ++finished;
                continue;
            }
            current = (int)t;
            threadIdx = block[t].index;
            swapcontext(&scheduler, &block[t].context);
        }
        // threads that have finished no longer take part in barriers, as on a GPU
        if (finished == threads) break;
    }
    fibers = nullptr;
    current = -1;
    free(block);
    free(stacks);
    return 0;
}

// 0; 1 when a kernel used a barrier but was launched without barrier support; 3 when the
// fibers' memory could not be allocated
static int run_grid(ts_dim3 grid, ts_dim3 block, bool barriers, Body kernel, void** params) {
    gridDim = grid;
    blockDim = block;
    barrier_error = 0;
    unsigned threads = block.x * block.y * block.z;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                blockIdx = {bx, by, bz};
                if (barriers) {
                    int status = run_block_with_barriers(threads, kernel, params);
                    if (status) return status;
                    continue;
                }
                for (unsigned t = 0; t < threads; ++t) {
                    threadIdx = {t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
                    kernel(params);
                }
            }
    return barrier_error;
}

}  // namespace ts_host
