"""The frontend against real PyTorch: the same source scripted by both.

Each program is compiled by `torch.jit.CompilationUnit` and by tsjit's
`CompilationUnit` (its own parser, no Python `ast`). Both are run on the
same inputs and must agree; and the graphs must hold the same operations
(the multiset of non-constant node kinds, all blocks).

(PyTorch's C++ parser reads `a < b < c` as `(a < b) < c`, unlike its Python
frontend and unlike Python; tsjit's parser follows Python, so the programs
here avoid chained comparisons.)
"""

from __future__ import annotations

import math
import typing
from collections import Counter

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import ts_ir  # noqa: E402
import ts_runtime  # noqa: E402
from ts_frontend import CompilationUnit  # noqa: E402

pytestmark = pytest.mark.oracle

# the names the programs' annotations use, for both compilers (PyTorch reads this module's globals)
List = typing.List  # noqa: UP006
Dict = typing.Dict  # noqa: UP006
Optional = typing.Optional
Tuple = typing.Tuple  # noqa: UP006

# (source, name, inputs as builders over a numpy generator)
PROGRAMS = [
    (
        """
def f(x, n: int):
    acc = torch.zeros_like(x)
    for i in range(n):
        if i % 3 == 2:
            continue
        acc = acc + x * float(i)
        if i > 6:
            break
    return acc
""",
        [("tensor", (3, 4)), ("int", 9)],
    ),
    (
        """
def f(x, y: Optional[torch.Tensor], k: int):
    if y is not None:
        x = x + y
    while k > 0:
        x = torch.tanh(x) * 1.5
        k -= 2
    return x
""",
        [("tensor", (2, 5)), ("tensor", (2, 5)), ("int", 5)],
    ),
    (
        """
def f(xs: List[int], s: str):
    out: List[int] = []
    for i, v in enumerate(xs):
        if v > 2:
            out.append(v * i)
    d: Dict[str, int] = {}
    for p in s.split(","):
        d[p] = len(p)
    return out, sorted(d.keys()), sum(out), s.upper()
""",
        [("list", [1, 5, 3, 0, 7]), ("str", "ab,cde,f")],
    ),
    (
        """
def f(x):
    a = x[:, 1:3]
    b = x[..., 0]
    c = x[-1]
    y = x.clone()
    y[0] = 2.5
    y[1, 1:] += 1.0
    return a.sum(), b * 2, c, y
""",
        [("tensor", (3, 4))],
    ),
    (
        """
def f(x, w, b):
    h = torch.relu(torch.matmul(x, w) + b)
    m = h.max(dim=1, keepdim=True)[0]
    e = torch.exp(h - m)
    return e / e.sum(dim=1, keepdim=True), h.mean(), torch.cat([h, -h], dim=1)
""",
        [("tensor", (4, 3)), ("tensor", (3, 5)), ("tensor", (5,))],
    ),
    (
        """
def f(a: int, b: float):
    c = a * 2 + 1
    d = b / 2 - a
    e = math.sqrt(abs(d)) + math.floor(b)
    return c // 3, c % 5, d, e, min(a, c), max(b, d), a < c and c < 100, a == 3 or b > 1.0
""",
        [("int", 7), ("float", 2.75)],
    ),
    (
        """
def f(x, flag: bool):
    if flag:
        return x * 2
    elif x.sum() > 0:
        return x + 1
    return -x
""",
        [("tensor", (2, 3)), ("bool", False)],
    ),
    (
        """
def f(n: int):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i == 4:
            continue
        total += i * i
    return total, [j * 2 for j in range(n)]
""",
        [("int", 7)],
    ),
    (
        """
def f(t: Tuple[int, Tuple[float, str]], x):
    a, (b, c) = t
    return float(a) + b, c + "!", x.size(0), x.dim(), x.t().contiguous().view(-1)
""",
        [("tuple", (3, (0.5, "s"))), ("tensor", (2, 3))],
    ),
    (
        """
def f(x, m):
    y = x.masked_fill(m, 0.0)
    z = torch.where(m, x, torch.ones_like(x))
    return y.sum(dim=0), z, (x > 0).any(), torch.clamp(x, min=-0.5, max=0.5)
""",
        [("tensor", (3, 3)), ("mask", (3, 3))],
    ),
]


def _inputs(specs, lib, rng):
    out = []
    for kind, value in specs:
        if kind == "tensor":
            arr = rng.standard_normal(value).astype(np.float32)
            out.append(torch.from_numpy(arr) if lib is torch else ts_runtime.from_numpy(arr))
        elif kind == "mask":
            arr = rng.standard_normal(value) > 0
            out.append(torch.from_numpy(arr) if lib is torch else ts_runtime.from_numpy(arr))
        else:
            out.append(value)
    return out


def _same(ours, theirs) -> bool:
    if isinstance(theirs, torch.Tensor):
        if not isinstance(ours, ts_runtime.Tensor):
            return False
        a, b = ours.detach().numpy(), theirs.detach().numpy()
        return a.shape == b.shape and a.dtype == b.dtype and np.allclose(a, b, rtol=1e-5, atol=1e-6)
    if isinstance(theirs, (list, tuple)):
        return (
            isinstance(ours, type(theirs))
            and len(ours) == len(theirs)
            and all(_same(a, b) for a, b in zip(ours, theirs, strict=True))
        )
    if isinstance(theirs, float):
        return isinstance(ours, float) and math.isclose(ours, theirs, rel_tol=1e-6)
    return ours == theirs and type(ours) is type(theirs)


def _kinds(graph) -> Counter:
    return Counter(str(n.kind) for n in graph.all_nodes() if n.kind != "prim::Constant")


@pytest.mark.parametrize("index", range(len(PROGRAMS)))
def test_same_results_and_operations_as_pytorch(index):
    source, specs = PROGRAMS[index]
    theirs = torch.jit.CompilationUnit(source).f
    ours = CompilationUnit(
        source,
        namespace={
            "torch": ts_runtime,
            "math": math,
            "List": List,
            "Dict": Dict,
            "Optional": Optional,
            "Tuple": Tuple,
        },
    ).f
    for seed in range(3):
        expected = theirs(*_inputs(specs, torch, np.random.default_rng(seed)))
        got = ours(*_inputs(specs, ts_runtime, np.random.default_rng(seed)))
        assert _same(got, expected), f"seed {seed}: got {got!r}, want {expected!r}"
    their_graph = ts_ir.parse_ir(str(theirs.graph))
    assert _kinds(ours.graph) == _kinds(their_graph), (
        f"\nours:\n{ours.graph}\ntheirs:\n{theirs.graph}"
    )
