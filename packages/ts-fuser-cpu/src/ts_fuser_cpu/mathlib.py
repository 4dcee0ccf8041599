"""Transcendental functions as LLVM IR, written so the loops around them vectorize.

How each function is computed, per dtype, and its error against the exact
result (measured over millions of inputs, special values included; the
tests hold these bounds):

| function | float32 | error | float64 |
|---|---|---|---|
| exp | float32 arithmetic, 16 lanes: Cody-Waite reduction by ln 2 (two parts), 1 + s + s²P(s) with P of degree 5, scaling by 2^q in two exact steps | 1 ulp | libm |
| sigmoid | from that exp: with e = exp(-abs(x)), 1/(1+e) or e/(1+e), so results stay accurate into the subnormals | 2 ulp | libm exp, 1/(1+e) as the interpreter |
| tanh | Cephes' odd polynomial below 0.625, 1 - 2/(exp(2 abs(x))+1) above | 1 ulp | libm |
| expm1 | double precision inside, rounded once: Taylor series below 10^-3, exp - 1 above (degree-11 Taylor exp) | 0.5 ulp | libm |
| log, log1p | double precision inside: exponent split, reduction to [√½, √2), the atanh series in s = f/(2+f) | 0.5 ulp | libm |
| sin, cos, tan | double precision inside: three-part Cody-Waite reduction by π/2 (fdlibm's constants) up to 10^6, Taylor polynomials of degree 13/14; larger arguments are recomputed with libm's `sinf`/`cosf`/`tanf` | 0.5 ulp | libm |
| erf | double precision inside: x·P(x²) below 1, 1 − e^(−x²)·Q(x) on [1, 4) (fits in `scripts/fit_erf.py`), 1 beyond | 1 ulp | libm |
| pow | libm (`powf`, `pow`): glibc's are within an ulp; agreement matters more here than vector speed | <1 ulp | libm |
| sqrt, floor, ceil, trunc, rint, fabs | LLVM intrinsics (single instructions) | exact | same |

The functions that neural networks fuse most (exp, sigmoid, tanh) compute in
float32 with twice the vector lanes of double; the others compute in double
and round once, which makes them nearly correctly rounded at half the lanes.
All are plain arithmetic and `select`s, so they vectorize with the loop
around them, and all are closer to the exact result than numpy's own float32
functions (up to ~3.3 ulp on an AVX-512 machine, where numpy uses SIMD
approximations). Polynomials use `llvm.fmuladd` (a fused multiply-add where
the CPU has one); user arithmetic never does. float64 results go to glibc's
libm (within an ulp, as numpy's float64 functions are); those loops stay
scalar.

Every function here takes the builder and an LLVM value of its dtype and
returns one of the same type. The trigonometric ones also return the flag of
elements that need the exact (libm) path (`TrigResult`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from llvmlite import ir

from .llvm_types import F32, F64, I32, I64

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453
LN2_HI = 6.93147180369123816490e-01
LN2_LO = 1.90821492927058770002e-10
LN2_HI_F32 = 0.693145751953125  # 16 significant bits: q * LN2_HI_F32 is exact
LN2_LO_F32 = 1.428606765330187045e-06
TWO_OVER_PI = 0.6366197723675814
# fdlibm's π/2 split: the first two parts have 33 significant bits, so k * part is exact for k < 2^20
PIO2_1 = 1.57079632673412561417e00
PIO2_2 = 6.07710050630396597660e-11
PIO2_2T = 2.02226624879595063154e-21
TRIG_FAST_LIMIT = 1.0e6
EXP_CLAMP = 200.0
SQRT2 = math.sqrt(2.0)

_EXP_TAYLOR = [1.0 / math.factorial(i) for i in range(12)]
# 2 / (2k + 1) for the atanh series of log: log(1+f) = f - s * (f - T(s^2))
_LOG_SERIES = [2.0 / (2 * k + 1) for k in range(1, 9)]
_SIN_TAYLOR = [(-1.0) ** k / math.factorial(2 * k + 1) for k in range(7)]  # up to r^13
_COS_TAYLOR = [(-1.0) ** k / math.factorial(2 * k) for k in range(8)]  # up to r^14
# e^s = 1 + s + s^2 P(s) on [-ln2/2, ln2/2], fitted in double and rounded to float32
_EXP_F32 = [
    0.5, 0.1666666716337204, 0.04166646674275398, 0.0083332983776927,
    0.0013933650916442275, 0.00019899285689461976,
]  # fmt: skip
# Cephes' tanhf: tanh(x) = x + x^3 P(x^2) for |x| < 0.625
_TANH_F32 = [
    -3.33332819422e-1, 1.33314422036e-1, -5.37397155531e-2, 2.06390887954e-2, -5.70498872745e-3,
]  # fmt: skip
# erf(x) / x as a polynomial in x^2 on [0, 1]; relative error 1.1e-12 (scripts/fit_erf.py)
_ERF_SMALL = [
    1.1283791670951977, -0.3761263889367049, 0.11283791378464027, -0.026866138218622267,
    0.005223801577189458, -0.0008543002383872245, 0.00011960679909427826,
    -1.393378287023973e-05, 1.0648710718471934e-06,
]  # fmt: skip
# erfc(x) * exp(x^2) as a polynomial in t = (x - 2.5) / 1.5 on [1, 4]; relative error 2.4e-10
_ERFCX_MID = [
    0.21080636405462616, -0.11152102074917339, 0.05611049427315825, -0.027005275783579367,
    0.012489356649508183, -0.005570928958804348, 0.0024037838272154615,
    -0.0010047884625095488, 0.00040855915002058945, -0.00016449745088159434,
    6.367237167190805e-05, -2.0489641183632352e-05, 7.473544665168767e-06,
    -5.05817919517637e-06, 1.8130126736269477e-06,
]  # fmt: skip


def intrinsic(b: ir.IRBuilder, name: str, ty: ir.Type, n_args: int = 1) -> ir.Function:
    """The declaration of `llvm.<name>.<f32|f64>` in the builder's module."""
    suffix = "f32" if ty == F32 else "f64"
    return declare(b, f"llvm.{name}.{suffix}", ty, [ty] * n_args)


def declare(b: ir.IRBuilder, name: str, ret: ir.Type, args: Sequence[ir.Type]) -> ir.Function:
    module = b.block.parent.module
    fn = module.globals.get(name)
    if fn is None:
        fn = ir.Function(module, ir.FunctionType(ret, list(args)), name=name)
    return fn


def call_libm(b: ir.IRBuilder, name: str, x: ir.Value, *more: ir.Value) -> ir.Value:
    """A call to the C library's `name` (`sin`) or `name + 'f'` (`sinf`) for float32."""
    ty = x.type
    symbol = name + "f" if ty == F32 else name
    fn = declare(b, symbol, ty, [ty] * (1 + len(more)))
    return b.call(fn, [x, *more])


def horner(b: ir.IRBuilder, x: ir.Value, coeffs: Sequence[float]) -> ir.Value:
    """c0 + c1 x + c2 x^2 + ... (coefficients lowest degree first).

    Short polynomials use Horner's rule; longer ones Estrin's scheme, which
    evaluates pairs of terms independently: the dependency chain is about
    log2(degree) multiply-adds deep instead of degree, and long chains of
    fused operations are bound by exactly that latency.
    """
    ty = x.type
    if len(coeffs) <= 4:
        acc: ir.Value = ty(coeffs[-1])
        for c in reversed(coeffs[:-1]):
            acc = mul_add(b, acc, x, ty(c))
        return acc
    terms: list[ir.Value] = []
    for i in range(0, len(coeffs), 2):
        if i + 1 < len(coeffs):
            terms.append(mul_add(b, ty(coeffs[i + 1]), x, ty(coeffs[i])))
        else:
            terms.append(ty(coeffs[i]))
    power = b.fmul(x, x)
    while len(terms) > 1:
        paired = []
        for i in range(0, len(terms), 2):
            if i + 1 < len(terms):
                paired.append(mul_add(b, terms[i + 1], power, terms[i]))
            else:
                paired.append(terms[i])
        terms = paired
        if len(terms) > 1:
            power = b.fmul(power, power)
    return terms[0]


def mul_add(b: ir.IRBuilder, a: ir.Value, x: ir.Value, c: ir.Value) -> ir.Value:
    """a * x + c, fused into one instruction where the CPU has FMA (`llvm.fmuladd`). Only the
    functions here use it: user arithmetic is never contracted."""
    return b.call(intrinsic(b, "fmuladd", a.type, 3), [a, x, c])


def is_nan(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    return b.fcmp_unordered("uno", x, x)


def fabs(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    return b.call(intrinsic(b, "fabs", x.type), [x])


def copysign(b: ir.IRBuilder, mag: ir.Value, sign: ir.Value) -> ir.Value:
    return b.call(intrinsic(b, "copysign", mag.type, 2), [mag, sign])


def rint(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    return b.call(intrinsic(b, "rint", x.type), [x])


def clamp(b: ir.IRBuilder, x: ir.Value, lo: float, hi: float) -> ir.Value:
    """x limited to [lo, hi]; NaN stays NaN (ordered comparisons are false for it)."""
    ty = x.type
    x = b.select(b.fcmp_ordered(">", x, ty(hi)), ty(hi), x)
    return b.select(b.fcmp_ordered("<", x, ty(lo)), ty(lo), x)


def _widen(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    return b.fpext(x, F64)


def _narrow(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    return b.fptrunc(x, F32)


# ---------------------------------------------------------------------------
# double-precision cores (inputs pre-sanitized by their callers)


def exp_core(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """exp(x) for a double in [-200, 200] (no NaN): 2^k * P(r), r = x - k ln 2, |r| <= ln2/2."""
    k = rint(b, b.fmul(x, F64(LOG2E)))
    r = b.fsub(b.fsub(x, b.fmul(k, F64(LN2_HI))), b.fmul(k, F64(LN2_LO)))
    p = horner(b, r, _EXP_TAYLOR)
    bits = b.shl(b.add(b.fptosi(k, I64), I64(1023)), I64(52))
    return b.fmul(p, b.bitcast(bits, F64))


def exp_safe(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """exp of any double, computed well enough for a float32 result (inf, 0 and NaN included)."""
    nan = is_nan(b, x)
    xc = b.select(nan, F64(0.0), clamp(b, x, -EXP_CLAMP, EXP_CLAMP))
    return b.select(nan, x, exp_core(b, xc))


def log_core(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """log(x) for a positive, finite, normal double."""
    bits = b.bitcast(x, I64)
    e = b.sub(b.lshr(bits, I64(52)), I64(1023))
    mbits = b.or_(b.and_(bits, I64(0x000FFFFFFFFFFFFF)), I64(0x3FF0000000000000))
    m = b.bitcast(mbits, F64)
    big = b.fcmp_ordered(">", m, F64(SQRT2))
    m = b.select(big, b.fmul(m, F64(0.5)), m)
    e = b.add(e, b.zext(big, I64))
    f = b.fsub(m, F64(1.0))
    s = b.fdiv(f, b.fadd(f, F64(2.0)))
    z = b.fmul(s, s)
    t = b.fmul(z, horner(b, z, _LOG_SERIES))
    log_m = b.fsub(f, b.fmul(s, b.fsub(f, t)))
    return b.fadd(b.fmul(b.sitofp(e, F64), F64(LN2)), log_m)


def log_safe(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """log of any double that is zero, a float32-range number, inf or NaN (as IEEE says)."""
    valid = b.and_(b.fcmp_ordered(">", x, F64(0.0)), b.fcmp_ordered("<", x, F64(math.inf)))
    r = log_core(b, b.select(valid, x, F64(1.0)))
    r = b.select(b.fcmp_ordered("==", x, F64(0.0)), F64(-math.inf), r)
    r = b.select(b.fcmp_ordered("==", x, F64(math.inf)), F64(math.inf), r)
    bad = b.fcmp_unordered("ult", x, F64(0.0))  # negative or NaN
    return b.select(bad, F64(math.nan), r)


# ---------------------------------------------------------------------------
# float32 functions (through double) and float64 functions (libm)


def exp(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    if x.type == F64:
        return call_libm(b, "exp", x)
    return exp_f32(b, x)


def exp_f32(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """exp in float32 arithmetic, 16 lanes to a vector: q = round(x / ln 2), s = x - q ln 2 (two
    parts), 1 + s + s^2 P(s) with a degree-5 fit, times 2^q applied in two halves so that
    results near overflow and in the subnormal range scale exactly. Within an ulp."""
    nan = is_nan(b, x)
    xc = b.select(nan, F32(0.0), clamp(b, x, -104.0, 89.0))
    q = rint(b, b.fmul(xc, F32(LOG2E)))
    s = mul_add(b, b.fneg(q), F32(LN2_HI_F32), xc)
    s = mul_add(b, b.fneg(q), F32(LN2_LO_F32), s)
    u = horner(b, s, _EXP_F32)
    r = b.fadd(mul_add(b, u, b.fmul(s, s), s), F32(1.0))
    qi = b.fptosi(q, I32)
    half = b.ashr(qi, I32(1))
    for part in (half, b.sub(qi, half)):
        r = b.fmul(r, b.bitcast(b.shl(b.add(part, I32(127)), I32(23)), F32))
    return b.select(nan, x, r)


def expm1(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    if x.type == F64:
        return call_libm(b, "expm1", x)
    xd = _widen(b, x)
    small = b.fcmp_ordered("<", fabs(b, xd), F64(1e-3))
    series = b.fmul(xd, horner(b, xd, [1.0, 1 / 2, 1 / 6, 1 / 24, 1 / 120]))
    big = b.fsub(exp_safe(b, xd), F64(1.0))
    return _narrow(b, b.select(small, series, big))


def log(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    if x.type == F64:
        return call_libm(b, "log", x)
    return _narrow(b, log_safe(b, _widen(b, x)))


def log1p(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    if x.type == F64:
        return call_libm(b, "log1p", x)
    xd = _widen(b, x)
    small = b.fcmp_ordered("<", fabs(b, xd), F64(1e-4))
    series = b.fmul(xd, horner(b, xd, [1.0, -1 / 2, 1 / 3, -1 / 4, 1 / 5]))
    # 1 + x is exact in double for every float32 x of magnitude >= 1e-4
    big = log_safe(b, b.fadd(xd, F64(1.0)))
    return _narrow(b, b.select(small, series, big))


def sigmoid(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """float64: 1 / (1 + exp(-x)), as the interpreter computes it. float32: with e = exp(-|x|),
    1 / (1 + e) for x >= 0 and e / (1 + e) below, so tiny results stay accurate down to the
    subnormals instead of dividing by an overflowed exponential (within two ulps)."""
    if x.type == F64:
        e = call_libm(b, "exp", b.fneg(x))
        return b.fdiv(F64(1.0), b.fadd(e, F64(1.0)))
    e = exp_f32(b, b.fneg(fabs(b, x)))
    numerator = b.select(b.fcmp_ordered(">=", x, F32(0.0)), F32(1.0), e)
    return b.fdiv(numerator, b.fadd(e, F32(1.0)))


def tanh(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """float32: Cephes' odd polynomial below 0.625, 1 - 2 / (exp(2|x|) + 1) above, with the sign
    of x (within two ulps)."""
    if x.type == F64:
        return call_libm(b, "tanh", x)
    a = fabs(b, x)
    z = b.fmul(a, a)
    small = mul_add(b, b.fmul(horner(b, z, _TANH_F32), z), a, a)
    e = exp_f32(b, b.fmul(F32(2.0), a))
    large = b.fsub(F32(1.0), b.fdiv(F32(2.0), b.fadd(e, F32(1.0))))
    r = b.select(b.fcmp_ordered("<", a, F32(0.625)), small, large)
    return b.select(is_nan(b, x), x, copysign(b, r, x))


def erf(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    if x.type == F64:
        return call_libm(b, "erf", x)
    xd = _widen(b, x)
    a = fabs(b, xd)
    nan = is_nan(b, a)
    a = b.select(b.fcmp_ordered(">", a, F64(4.0)), F64(4.0), b.select(nan, F64(0.0), a))
    small = b.fmul(a, horner(b, b.fmul(a, a), _ERF_SMALL))
    t = b.fmul(b.fsub(a, F64(2.5)), F64(1.0 / 1.5))
    tail = b.fmul(exp_core(b, b.fneg(b.fmul(a, a))), horner(b, t, _ERFCX_MID))
    mid = b.fsub(F64(1.0), tail)
    r = b.select(b.fcmp_ordered("<", a, F64(1.0)), small, mid)
    r = b.select(b.fcmp_ordered(">=", a, F64(4.0)), F64(1.0), r)
    r = b.select(nan, xd, copysign(b, r, xd))
    return _narrow(b, r)


class TrigResult:
    """The value of a float32 trigonometric function and whether it needs the exact path."""

    __slots__ = ("needs_exact", "value")

    def __init__(self, value: ir.Value, needs_exact: ir.Value | None) -> None:
        self.value = value
        self.needs_exact = needs_exact


def _reduce_pio2(b: ir.IRBuilder, xd: ir.Value) -> tuple[ir.Value, ir.Value, ir.Value]:
    """(r, quadrant, too_large): x = k π/2 + r with |r| <= π/4, quadrant = k mod 4."""
    big = b.fcmp_ordered(">", fabs(b, xd), F64(TRIG_FAST_LIMIT))
    ok = b.and_(b.not_(big), b.fcmp_ordered("ord", xd, xd))
    xs = b.select(ok, xd, F64(0.0))
    k = rint(b, b.fmul(xs, F64(TWO_OVER_PI)))
    r = b.fsub(xs, b.fmul(k, F64(PIO2_1)))
    r = b.fsub(r, b.fmul(k, F64(PIO2_2)))
    r = b.fsub(r, b.fmul(k, F64(PIO2_2T)))
    r = b.select(ok, r, xd)  # NaN stays NaN
    quadrant = b.and_(b.fptosi(k, I64), I64(3))
    return r, quadrant, big


def _sin_cos_poly(b: ir.IRBuilder, r: ir.Value) -> tuple[ir.Value, ir.Value]:
    z = b.fmul(r, r)
    s = b.fmul(r, horner(b, z, _SIN_TAYLOR))
    c = horner(b, z, _COS_TAYLOR)
    return s, c


def _pick(b: ir.IRBuilder, q: ir.Value, values: Sequence[ir.Value]) -> ir.Value:
    """values[q] for q in 0..3."""
    low = b.select(b.icmp_unsigned("==", q, I64(0)), values[0], values[1])
    high = b.select(b.icmp_unsigned("==", q, I64(2)), values[2], values[3])
    return b.select(b.icmp_unsigned("<", q, I64(2)), low, high)


def _trig(name: str) -> Callable[[ir.IRBuilder, ir.Value], TrigResult]:
    def fn(b: ir.IRBuilder, x: ir.Value) -> TrigResult:
        if x.type == F64:
            return TrigResult(call_libm(b, name, x), None)
        xd = _widen(b, x)
        r, q, big = _reduce_pio2(b, xd)
        s, c = _sin_cos_poly(b, r)
        if name == "sin":
            value = _pick(b, q, [s, c, b.fneg(s), b.fneg(c)])
        elif name == "cos":
            value = _pick(b, q, [c, b.fneg(s), b.fneg(c), s])
        else:
            even = b.icmp_unsigned("==", b.and_(q, I64(1)), I64(0))
            value = b.select(even, b.fdiv(s, c), b.fneg(b.fdiv(c, s)))
        return TrigResult(_narrow(b, value), big)

    fn.__name__ = name
    return fn


sin = _trig("sin")
cos = _trig("cos")
tan = _trig("tan")


def exact(b: ir.IRBuilder, name: str, x: ir.Value) -> ir.Value:
    """The libm result, for elements a fast path cannot handle."""
    return call_libm(b, name, x)
