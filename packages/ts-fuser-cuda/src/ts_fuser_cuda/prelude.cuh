// tsjit CUDA prelude: the helpers every generated kernel may call.
//
// Each computes what the interpreter (numpy) computes, so fused and unfused
// results agree: integer arithmetic wraps (it goes through unsigned types,
// where C++ defines overflow), float-to-int conversions of values out of
// range (NaN included) give the integer minimum as numpy's on x86 does,
// maximum and minimum propagate NaN, floor division and remainder follow
// Python. The same text compiles with nvcc for the GPU and with g++ (with
// host_shim.h) for the numerics checks on the host.

#define TS_DEVICE static __device__ __forceinline__

typedef long long ts_i64;
typedef unsigned long long ts_u64;

// a tensor's elements moved by one load or store on the vectorized path
template <typename T, int N>
struct __align__(sizeof(T) * N) ts_vec {
    T v[N];
};

// -- constants that have no decimal literal

TS_DEVICE float ts_f32_bits(unsigned int bits) { return __int_as_float((int)bits); }
TS_DEVICE double ts_f64_bits(ts_u64 bits) { return __longlong_as_double((ts_i64)bits); }

// -- wrapping integer arithmetic

TS_DEVICE int ts_iadd(int x, int y) { return (int)((unsigned)x + (unsigned)y); }
TS_DEVICE int ts_isub(int x, int y) { return (int)((unsigned)x - (unsigned)y); }
TS_DEVICE int ts_imul(int x, int y) { return (int)((unsigned)x * (unsigned)y); }
TS_DEVICE int ts_ineg(int x) { return (int)(0u - (unsigned)x); }
TS_DEVICE ts_i64 ts_iadd(ts_i64 x, ts_i64 y) { return (ts_i64)((ts_u64)x + (ts_u64)y); }
TS_DEVICE ts_i64 ts_isub(ts_i64 x, ts_i64 y) { return (ts_i64)((ts_u64)x - (ts_u64)y); }
TS_DEVICE ts_i64 ts_imul(ts_i64 x, ts_i64 y) { return (ts_i64)((ts_u64)x * (ts_u64)y); }
TS_DEVICE ts_i64 ts_ineg(ts_i64 x) { return (ts_i64)(0ull - (ts_u64)x); }

// -- conversions as numpy's astype

TS_DEVICE int ts_to_i32(double x) {
    return (x >= -2147483648.0 && x < 2147483648.0) ? (int)x : (-2147483647 - 1);
}
TS_DEVICE ts_i64 ts_to_i64(double x) {
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0)
               ? (ts_i64)x
               : (-9223372036854775807LL - 1);
}

// -- maximum and minimum: NaN in either operand gives NaN; of equal operands the second

TS_DEVICE float ts_maximum(float x, float y) { return (x > y || x != x) ? x : y; }
TS_DEVICE double ts_maximum(double x, double y) { return (x > y || x != x) ? x : y; }
TS_DEVICE int ts_maximum(int x, int y) { return x >= y ? x : y; }
TS_DEVICE ts_i64 ts_maximum(ts_i64 x, ts_i64 y) { return x >= y ? x : y; }
TS_DEVICE bool ts_maximum(bool x, bool y) { return x || y; }
TS_DEVICE float ts_minimum(float x, float y) { return (x < y || x != x) ? x : y; }
TS_DEVICE double ts_minimum(double x, double y) { return (x < y || x != x) ? x : y; }
TS_DEVICE int ts_minimum(int x, int y) { return x <= y ? x : y; }
TS_DEVICE ts_i64 ts_minimum(ts_i64 x, ts_i64 y) { return x <= y ? x : y; }
TS_DEVICE bool ts_minimum(bool x, bool y) { return x && y; }

// -- division, modulo, powers (an integer divisor of 0 is reported by the caller's flag;
//    these return 0 for it; -1 is negation, which wraps where the hardware would trap)

template <typename T>
TS_DEVICE T ts_safe_divisor(T y) { return (y == 0 || y == -1) ? (T)1 : y; }

template <typename T>
TS_DEVICE T ts_div_trunc(T x, T y) { return y == -1 ? ts_ineg(x) : x / ts_safe_divisor(y); }

template <typename T>
TS_DEVICE T ts_div_floor(T x, T y) {
    T d = ts_safe_divisor(y);
    T q = x / d;
    T r = x % d;
    if (r != 0 && ((r < 0) != (y < 0))) q = q - 1;
    return y == -1 ? ts_ineg(x) : q;
}

template <typename T>
TS_DEVICE T ts_remainder_int(T x, T y) {
    T r = x % ts_safe_divisor(y);
    if (r != 0 && ((r < 0) != (y < 0))) r = ts_iadd(r, y);
    return y == -1 ? (T)0 : r;
}

template <typename T>
TS_DEVICE T ts_fmod_int(T x, T y) {
    return (y == 0 || y == -1) ? (T)0 : x % y;
}

// Python's floor division of floats: exact where floor(x / y) is not
TS_DEVICE float ts_div_floor(float x, float y) {
    float mod = fmodf(x, y);
    float div = (x - mod) / y;
    if (mod != 0.0f && ((y < 0.0f) != (mod < 0.0f))) div = div - 1.0f;
    float fl = floorf(div);
    if (div - fl > 0.5f) fl = fl + 1.0f;
    if (div == 0.0f) fl = copysignf(0.0f, x / y);
    return y == 0.0f ? x / y : fl;
}
TS_DEVICE double ts_div_floor(double x, double y) {
    double mod = fmod(x, y);
    double div = (x - mod) / y;
    if (mod != 0.0 && ((y < 0.0) != (mod < 0.0))) div = div - 1.0;
    double fl = floor(div);
    if (div - fl > 0.5) fl = fl + 1.0;
    if (div == 0.0) fl = copysign(0.0, x / y);
    return y == 0.0 ? x / y : fl;
}

// Python's modulo of floats: the result takes the divisor's sign
TS_DEVICE float ts_remainder(float x, float y) {
    float mod = fmodf(x, y);
    if (mod != 0.0f) return ((y < 0.0f) != (mod < 0.0f)) ? mod + y : mod;
    return copysignf(0.0f, y);
}
TS_DEVICE double ts_remainder(double x, double y) {
    double mod = fmod(x, y);
    if (mod != 0.0) return ((y < 0.0) != (mod < 0.0)) ? mod + y : mod;
    return copysign(0.0, y);
}

// integer powers by square-and-multiply over every exponent bit (a negative exponent is
// reported by the caller's flag)
TS_DEVICE int ts_pow_int(int base, int exponent) {
    int result = 1;
    unsigned e = (unsigned)exponent;
    for (int k = 0; k < 31; ++k) {
        if (e & 1u) result = ts_imul(result, base);
        base = ts_imul(base, base);
        e >>= 1;
    }
    return result;
}
TS_DEVICE ts_i64 ts_pow_int(ts_i64 base, ts_i64 exponent) {
    ts_i64 result = 1;
    ts_u64 e = (ts_u64)exponent;
    for (int k = 0; k < 63; ++k) {
        if (e & 1ull) result = ts_imul(result, base);
        base = ts_imul(base, base);
        e >>= 1;
    }
    return result;
}

// -- activations

// float32: with e = exp(-|x|), 1 / (1 + e) or e / (1 + e), accurate into the subnormals
TS_DEVICE float ts_sigmoid(float x) {
    float e = expf(-fabsf(x));
    return (x >= 0.0f ? 1.0f : e) / (e + 1.0f);
}
// float64: 1 / (1 + exp(-x)), as the interpreter computes it
TS_DEVICE double ts_sigmoid(double x) { return 1.0 / (exp(-x) + 1.0); }

template <typename T>
TS_DEVICE T ts_sign(T x) {
    return x > (T)0 ? (T)1 : (x < (T)0 ? (T)-1 : x);
}
