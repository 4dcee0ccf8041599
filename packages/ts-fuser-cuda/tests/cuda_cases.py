"""The fusion groups the numerics and compile tests share: every CUDA lowering on its dtypes.

Each case is a group (IR text), its inputs (host arrays standing for CUDA
tensors, and numbers) and how close the kernel must come to the
interpreter: exactly for arithmetic, comparisons, selections and conversions
(special values included: NaN, infinities, signed zeros, integer extremes),
within a few ulp for the math library's functions. The inputs are drawn from
a fixed seed, so every run (and every test process) builds the same kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

rng = np.random.default_rng(1234)

SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, np.inf, -np.inf, np.nan, 1e-40, 7.0])


def floats(dtype, n=300, scale=4.0):
    a = (rng.standard_normal(n) * scale).astype(dtype)
    k = min(n, len(SPECIALS))
    a[:k] = SPECIALS[:k].astype(dtype)
    return a


def ints(dtype, n=300, low=-50, high=50):
    a = rng.integers(low, high, n).astype(dtype)
    info = np.iinfo(dtype)
    k = min(n, 4)
    a[:k] = [info.min, info.max, 0, -1][:k]
    return a


def bools(n=300):
    return rng.random(n) < 0.5


def data(kind: str, n=300):
    if kind in ("f4", "f8"):
        return floats(np.dtype(kind), n)
    if kind in ("i4", "i8"):
        return ints(np.dtype(kind), n)
    return bools(n)


@dataclass
class Case:
    name: str
    ir: str
    values: tuple
    ulps: int = 0
    falls_back: bool = False  # the kernel must ask for the interpreter
    relative: bool = False  # compare within 4 eps * |input| (gelu: cancellation in 1 + erf(x))


def binary_graph(op: str, args: str) -> str:
    return (
        "graph(%a : Tensor, %b : Tensor):\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %two : int = prim::Constant[value=2]()\n"
        f"  %r : Tensor = {op}{args}\n"
        "  return (%r)\n"
    )


def unary_graph(op: str) -> str:
    return f"graph(%a : Tensor):\n  %r : Tensor = aten::{op}(%a)\n  return (%r)\n"


BINARY = [
    ("aten::add", "(%a, %b, %one)"),
    ("aten::sub", "(%a, %b, %one)"),
    ("aten::add", "(%a, %b, %two)"),
    ("aten::rsub", "(%a, %b, %two)"),
    ("aten::mul", "(%a, %b)"),
    ("aten::maximum", "(%a, %b)"),
    ("aten::minimum", "(%a, %b)"),
    ("aten::max", "(%a, %b)"),
    ("aten::min", "(%a, %b)"),
    ("aten::eq", "(%a, %b)"),
    ("aten::ne", "(%a, %b)"),
    ("aten::lt", "(%a, %b)"),
    ("aten::le", "(%a, %b)"),
    ("aten::gt", "(%a, %b)"),
    ("aten::ge", "(%a, %b)"),
]
BINARY_KINDS = [("f4", "f4"), ("f8", "f8"), ("i8", "i8"), ("i4", "i8"), ("f4", "i4"), ("f8", "f4")]
UNARY_EXACT = ["neg", "abs", "relu", "floor", "ceil", "trunc", "round", "sqrt", "rsqrt",
               "reciprocal", "sign", "square", "frac"]  # fmt: skip
UNARY_MATH = ["exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh", "sigmoid", "erf", "silu"]
ACTIVATIONS = [
    ("aten::gelu(%a, %none_str)", '  %none_str : str = prim::Constant[value="none"]()\n'),
    ("aten::gelu(%a, %tanh_str)", '  %tanh_str : str = prim::Constant[value="tanh"]()\n'),
    ("aten::leaky_relu(%a, %s)", "  %s : float = prim::Constant[value=0.2]()\n"),
    ("aten::hardtanh(%a, %lo, %hi)",
     "  %lo : float = prim::Constant[value=-0.5]()\n  %hi : float = prim::Constant[value=2.]()\n"),
    ("aten::elu(%a, %alpha, %one, %one)",
     "  %alpha : float = prim::Constant[value=1.5]()\n  %one : int = prim::Constant[value=1]()\n"),
    ("aten::softplus(%a, %beta, %th)",
     "  %beta : int = prim::Constant[value=2]()\n  %th : int = prim::Constant[value=5]()\n"),
    ("aten::clamp(%a, %lo, %none)",
     "  %lo : float = prim::Constant[value=-0.5]()\n  %none : NoneType = prim::Constant()\n"),
    ("aten::clamp(%a, %none, %hi)",
     "  %hi : int = prim::Constant[value=2]()\n  %none : NoneType = prim::Constant()\n"),
    ("aten::clamp_min(%a, %lo)", "  %lo : float = prim::Constant[value=-0.5]()\n"),
    ("aten::clamp_max(%a, %hi)", "  %hi : float = prim::Constant[value=0.5]()\n"),
]  # fmt: skip


def _binary_cases() -> list[Case]:
    cases = []
    for op, args in BINARY:
        for kinds in BINARY_KINDS:
            a, b = data(kinds[0]), data(kinds[1])
            if kinds[0] != kinds[1] and "%two" in args:
                # the interpreter scales an int32 operand by alpha in int32 (wrapping at the
                # extremes); PyTorch and the fusers scale in the promoted dtype
                a, b = a[4:], b[4:]
            cases.append(Case(f"{op}{args}-{'-'.join(kinds)}", binary_graph(op, args), (a, b)))
    for op in ("aten::maximum", "aten::minimum"):
        for kind in ("f4", "f8"):
            # equal zeros of opposite signs: numpy takes the second operand
            a = np.array([-0.0, 0.0, -0.0, 0.0] * 5, dtype=kind)
            b = np.array([0.0, -0.0, -0.0, 0.0] * 5, dtype=kind)
            cases.append(Case(f"{op}-signed-zeros-{kind}", binary_graph(op, "(%a, %b)"), (a, b)))
    for op in ("aten::add", "aten::mul", "aten::maximum", "aten::eq", "aten::logical_xor",
               "aten::__and__"):  # fmt: skip
        args = "(%a, %b, %one)" if op == "aten::add" else "(%a, %b)"
        cases.append(Case(f"{op}-bool", binary_graph(op, args), (bools(), bools())))
    for kinds in [("f4", "f4"), ("f8", "f8"), ("i8", "i8"), ("i4", "f4")]:
        a, b = data(kinds[0]), data(kinds[1])
        if kinds[1].startswith("i"):
            b[b == 0] = 3
        cases.append(Case(f"div-{'-'.join(kinds)}", binary_graph("aten::div", "(%a, %b)"), (a, b)))
    for mode in ("trunc", "floor"):
        for kind in ("f4", "f8", "i4", "i8"):
            g = (
                "graph(%a : Tensor, %b : Tensor):\n"
                f'  %m : str = prim::Constant[value="{mode}"]()\n'
                "  %r : Tensor = aten::div(%a, %b, %m)\n"
                "  return (%r)\n"
            )
            a, b = data(kind), data(kind)
            if kind.startswith("i"):
                b[b == 0] = 7
                b[5] = -1  # the minimum over -1 wraps instead of trapping
            cases.append(Case(f"div-{mode}-{kind}", g, (a, b)))
    for kind in ("f4", "f8", "i4", "i8"):
        a, b = data(kind), data(kind)
        if kind.startswith("i"):
            b[b == 0] = -3
        cases.append(Case(f"remainder-{kind}", binary_graph("aten::remainder", "(%a, %b)"), (a, b)))
        cases.append(Case(f"fmod-{kind}", binary_graph("aten::fmod", "(%a, %b)"), (a, b)))
    a = np.arange(40, dtype=np.int64)
    b = np.ones(40, dtype=np.int64)
    b[33] = 0
    cases.append(
        Case(
            "remainder-by-zero",
            binary_graph("aten::remainder", "(%a, %b)"),
            (a, b),
            falls_back=True,
        )
    )
    for kinds in [("f4", "f4"), ("f8", "f8"), ("i8", "i8"), ("f4", "i8")]:
        a, b = data(kinds[0]), data(kinds[1])
        if kinds[1].startswith("i"):
            b = np.abs(b) % 5
        a = np.clip(a, -30, 30) if a.dtype.kind == "i" else a
        ulps = 0 if a.dtype.kind == "i" else 1
        cases.append(
            Case(f"pow-{'-'.join(kinds)}", binary_graph("aten::pow", "(%a, %b)"), (a, b), ulps)
        )
    neg = data("i8")
    neg[7] = -2
    cases.append(
        Case("pow-negative-int-exponent", binary_graph("aten::pow", "(%a, %b)"),
             (data("i8"), neg), falls_back=True)
    )  # fmt: skip
    for exponent in ("2", "0.5", "3", "-1.5"):
        g = (
            "graph(%a : Tensor):\n"
            f"  %e : float = prim::Constant[value={exponent}]()\n"
            "  %r : Tensor = aten::pow(%a, %e)\n"
            "  return (%r)\n"
        )
        cases.append(Case(f"pow-constant-{exponent}", g, (np.abs(floats(np.float32)),), 1))
    return cases


def _unary_cases() -> list[Case]:
    cases = []
    for op in UNARY_EXACT:
        for kind in ("f4", "f8", "i4", "i8"):
            if op == "frac" and kind.startswith("i"):
                continue
            a = data(kind)
            if op in ("sqrt", "rsqrt", "reciprocal") and kind.startswith("i"):
                a = np.abs(a[4:]) + 1
            cases.append(Case(f"{op}-{kind}", unary_graph(op), (a,)))
    for op in UNARY_MATH:
        for kind in ("f4", "f8", "i8"):
            a = data(kind, 2000)
            if op in ("log", "log1p") and kind.startswith("i"):
                a = np.abs(a[4:])
            # the host's libm stands in for CUDA's (float32 within 1-2 ulp of exact by NVIDIA's
            # tables), numpy's float32 functions are within ~3.3 ulp
            cases.append(Case(f"{op}-{kind}", unary_graph(op), (a,), 4))
    for call, consts in ACTIVATIONS:
        for kind in ("f4", "f8"):
            g = f"graph(%a : Tensor):\n{consts}  %r : Tensor = {call}\n  return (%r)\n"
            cases.append(Case(f"{call}-{kind}", g, (data(kind, 1000),), 4, relative="gelu" in call))
    for kind in ("i4", "i8"):
        g = (
            "graph(%a : Tensor):\n  %lo : int = prim::Constant[value=-5]()\n"
            "  %hi : int = prim::Constant[value=9]()\n"
            "  %r : Tensor = aten::clamp(%a, %lo, %hi)\n  return (%r)\n"
        )
        cases.append(Case(f"clamp-int-{kind}", g, (data(kind),)))
    g = (
        "graph(%a : Tensor, %lo : Tensor, %hi : Tensor):\n"
        "  %r : Tensor = aten::clamp(%a, %lo, %hi)\n  return (%r)\n"
    )
    cases.append(Case("clamp-tensor-bounds", g, tuple(floats(np.float32) for _ in range(3))))
    return cases


def _selection_and_logic_cases() -> list[Case]:
    cases = []
    g = (
        "graph(%c : Tensor, %a : Tensor, %b : Tensor):\n"
        "  %r : Tensor = aten::where(%c, %a, %b)\n  return (%r)\n"
    )
    for kinds in [("f4", "f4"), ("f4", "f8"), ("i4", "i8"), ("b1", "f4")]:
        cases.append(Case(f"where-{'-'.join(kinds)}", g, (bools(), data(kinds[0]), data(kinds[1]))))
    g = (
        "graph(%c : Tensor, %a : Tensor):\n  %z : float = prim::Constant[value=0.25]()\n"
        "  %r : Tensor = aten::where(%c, %a, %z)\n  return (%r)\n"
    )
    cases.append(Case("where-scalar", g, (bools(), floats(np.float32))))
    for op in ("logical_and", "logical_or", "logical_xor"):
        for kind in ("f4", "i8", "b1"):
            cases.append(
                Case(
                    f"{op}-{kind}",
                    binary_graph(f"aten::{op}", "(%a, %b)"),
                    (data(kind), data(kind)),
                )
            )
    for kind in ("f4", "i4", "b1"):
        cases.append(Case(f"logical_not-{kind}", unary_graph("logical_not"), (data(kind),)))
    for op in ("bitwise_and", "bitwise_or", "bitwise_xor", "__or__", "__xor__"):
        for kind in ("i4", "i8", "b1"):
            cases.append(
                Case(
                    f"{op}-{kind}",
                    binary_graph(f"aten::{op}", "(%a, %b)"),
                    (data(kind), data(kind)),
                )
            )
    for kind in ("i4", "i8", "b1"):
        cases.append(Case(f"bitwise_not-{kind}", unary_graph("bitwise_not"), (data(kind),)))
    return cases


def _conversion_cases() -> list[Case]:
    cases = []
    for target in (3, 4, 6, 7, 11):
        for kind in ("f4", "f8", "i4", "i8", "b1"):
            g = (
                "graph(%a : Tensor):\n"
                f"  %d : int = prim::Constant[value={target}]()\n"
                "  %f : bool = prim::Constant[value=0]()\n  %none : NoneType = prim::Constant()\n"
                "  %r : Tensor = aten::to(%a, %d, %f, %f, %none)\n  return (%r)\n"
            )
            # out-of-range floats convert to the integer minimum, as numpy's conversion on x86
            cases.append(Case(f"to-{target}-{kind}", g, (data(kind),)))
    g = "graph(%a : Tensor, %b : Tensor):\n  %r : Tensor = aten::type_as(%a, %b)\n  return (%r)\n"
    a = floats(np.float32)
    cases.append(Case("type_as", g, (a[np.isfinite(a)], np.zeros(3, np.int64))))
    for scalar, label in [(2, "int"), (-3, "negative-int"), (0.5, "float"), (True, "bool"),
                          (1e30, "huge-float")]:  # fmt: skip
        for kind in ("f4", "f8", "i4", "i8"):
            t = {int: "int", float: "float", bool: "bool"}[type(scalar)]
            g = (
                f"graph(%a : Tensor, %s : {t}):\n  %one : int = prim::Constant[value=1]()\n"
                "  %x : Tensor = aten::mul(%a, %s)\n  %r : Tensor = aten::add(%x, %s, %one)\n"
                "  return (%r)\n"
            )
            a = data(kind)
            if kind.startswith("i") and isinstance(scalar, float):
                a = a[4:]
            cases.append(Case(f"runtime-scalar-{label}-{kind}", g, (a, scalar)))
    return cases


def _layout_cases() -> list[Case]:
    """Broadcasting, memory orders, chunks and several outputs: the strided path."""
    cases = []
    g = (
        "graph(%a : Tensor, %b : Tensor):\n  %one : int = prim::Constant[value=1]()\n"
        "  %r : Tensor = aten::sub(%a, %b, %one)\n  return (%r)\n"
    )
    big = floats(np.float32, 35).reshape(5, 7)
    cases.append(Case("transposed-minus-row", g, (big.T, data("i8", 5))))
    cases.append(Case("row-broadcast", g, (big, floats(np.float32, 5).reshape(5, 1))))
    cases.append(Case("zero-dim-operand", g, (big, np.array(2.5, np.float64))))
    sliced = floats(np.float64, 5 * 15).reshape(5, 15)[:, 1::2]
    cases.append(Case("sliced-step-2", g, (sliced, floats(np.float64, 7))))
    cube = floats(np.float32, 60).reshape(3, 4, 5)
    cases.append(Case("rank-3-permuted", g, (cube.transpose(2, 0, 1), cube.transpose(2, 0, 1) * 2)))
    expanded = np.broadcast_to(floats(np.float32, 4), (6, 4))
    cases.append(Case("expanded", g, (expanded, floats(np.float32, 24).reshape(6, 4))))
    chunk = (
        "graph(%g : Tensor, %c : Tensor):\n"
        "  %i : Tensor, %f : Tensor = prim::ConstantChunk[chunks=2, dim=1](%g)\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %si : Tensor = aten::sigmoid(%i)\n"
        "  %x : Tensor = aten::mul(%si, %c)\n"
        "  %y : Tensor = aten::add(%x, %f, %one)\n"
        "  return (%x, %y)\n"
    )
    cases.append(Case("chunk-two-outputs", chunk, (floats(np.float32, 2 * 90).reshape(9, 20),
                                                   floats(np.float32, 90).reshape(9, 10)), 4))  # fmt: skip
    lstm = (
        "graph(%gates : Tensor, %cx : Tensor):\n"
        "  %i : Tensor, %f : Tensor, %c : Tensor, %o : Tensor = prim::ConstantChunk[chunks=4, dim=1](%gates)\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %ig : Tensor = aten::sigmoid(%i)\n  %fg : Tensor = aten::sigmoid(%f)\n"
        "  %cg : Tensor = aten::tanh(%c)\n  %og : Tensor = aten::sigmoid(%o)\n"
        "  %p : Tensor = aten::mul(%fg, %cx)\n  %q : Tensor = aten::mul(%ig, %cg)\n"
        "  %cy : Tensor = aten::add(%p, %q, %one)\n  %t : Tensor = aten::tanh(%cy)\n"
        "  %hy : Tensor = aten::mul(%og, %t)\n  return (%hy, %cy)\n"
    )
    cases.append(Case("lstm-cell-pointwise", lstm, (floats(np.float32, 6 * 64).reshape(6, 64),
                                                    floats(np.float32, 6 * 16).reshape(6, 16)), 8))  # fmt: skip
    flat = (
        "graph(%a : Tensor, %b : Tensor, %s : float):\n"
        "  %one : int = prim::Constant[value=1]()\n  %half : float = prim::Constant[value=0.5]()\n"
        "  %x : Tensor = aten::mul(%a, %half)\n  %y : Tensor = aten::add(%x, %b, %one)\n"
        "  %r : Tensor = aten::mul(%y, %s)\n  return (%r)\n"
    )
    # 1027 elements: the vectorized entry's tail runs too
    cases.append(
        Case("flat-odd-length", flat, (floats(np.float32, 1027), floats(np.float32, 1027), 2.0))
    )
    return cases


def lowering_cases() -> list[Case]:
    cases = [
        *_binary_cases(),
        *_unary_cases(),
        *_selection_and_logic_cases(),
        *_conversion_cases(),
        *_layout_cases(),
    ]
    names = [c.name for c in cases]
    assert len(set(names)) == len(names), "case names must be unique"
    return cases


CASES = {c.name: c for c in lowering_cases()}
