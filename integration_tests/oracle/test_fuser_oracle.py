"""Fused kernels against real PyTorch: the same functions, the same inputs, the same results.

The LSTM cell and the IoU function of the corpus, and pointwise expressions
over every dtype the fuser computes in, run as tsjit `Function`s (fused by
the CPU backend) and in eager PyTorch. Integer and boolean results must be
identical, floating-point ones within a few float32 ulps (PyTorch's
vectorized transcendental functions and ours round differently).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ts_ir  # noqa: E402
import ts_runtime  # noqa: E402

pytest.importorskip("ts_fuser_cpu")

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def load_jsonl(name: str) -> list[dict]:
    with open(CORPUS / f"{name}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def corpus_function(name: str):
    (row,) = [r for r in load_jsonl("programs") if r["name"] == name]
    return ts_runtime.Function(name, ts_ir.parse_ir(row["inlined_graph"]))


def fusion_groups(fn) -> int:
    graph = fn.executor.last_executed_optimized_graph()
    return sum(1 for n in graph.all_nodes() if n.kind == "prim::FusionGroup")


def compare(ours, theirs, *, rtol=2e-6, atol=1e-6):
    ours = ours if isinstance(ours, tuple) else (ours,)
    theirs = theirs if isinstance(theirs, tuple) else (theirs,)
    for a, b in zip(ours, theirs, strict=True):
        a, b = a.numpy(), b.numpy()
        assert a.dtype == b.dtype and a.shape == b.shape
        if a.dtype.kind == "f":
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(a, b)


def ratio_iou_torch(x1, y1, w1, h1, x2, y2, w2, h2):
    xi = torch.max(x1, x2)
    yi = torch.max(y1, y2)
    wi = torch.clamp(torch.min(x1 + w1, x2 + w2) - xi, min=0.0)
    hi = torch.clamp(torch.min(y1 + h1, y2 + h2) - yi, min=0.0)
    area_i = wi * hi
    area_u = w1 * h1 + w2 * h2 - wi * hi
    return area_i / torch.clamp(area_u, min=1e-5)


def lstm_cell_torch(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)
    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * torch.tanh(cy)
    return hy, cy


def test_ratio_iou():
    rng = np.random.default_rng(0)
    arrays = [rng.random((300, 200), dtype=np.float32) for _ in range(8)]
    fn = corpus_function("ratio_iou")
    ours = fn(*map(ts_runtime.from_numpy, arrays))
    assert fusion_groups(fn) == 1
    theirs = ratio_iou_torch(*map(torch.from_numpy, arrays))
    compare(ours, theirs, rtol=1e-6, atol=0)


def test_lstm_cell():
    rng = np.random.default_rng(1)
    shapes = [(64, 512), (64, 512), (64, 512), (2048, 512), (2048, 512), (2048,), (2048,)]
    arrays = [(rng.standard_normal(s) * 0.1).astype(np.float32) for s in shapes]
    fn = corpus_function("lstm_cell")
    ours = fn(*map(ts_runtime.from_numpy, arrays))
    assert fusion_groups(fn) == 1
    theirs = lstm_cell_torch(*map(torch.from_numpy, arrays))
    # the matrix products differ in summation order: compare at their precision
    compare(ours, theirs, rtol=1e-4, atol=1e-5)


EXPRESSIONS = {
    "activations": (
        """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %none : str = prim::Constant[value="none"]()
  %s : float = prim::Constant[value=0.1]()
  %x : Tensor = aten::gelu(%a, %none)
  %y : Tensor = aten::silu(%b)
  %z : Tensor = aten::leaky_relu(%a, %s)
  %u : Tensor = aten::add(%x, %y, %one)
  %v : Tensor = aten::mul(%u, %z)
  return (%v)
""",
        lambda a, b: (
            (torch.nn.functional.gelu(a) + torch.nn.functional.silu(b))
            * torch.nn.functional.leaky_relu(a, 0.1)
        ),
    ),
    "promotion": (
        """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %h : float = prim::Constant[value=0.5]()
  %x : Tensor = aten::mul(%a, %h)
  %y : Tensor = aten::add(%x, %b, %one)
  %z : Tensor = aten::div(%y, %b)
  return (%z)
""",
        lambda a, b: (a * 0.5 + b) / b,
    ),
    "comparisons": (
        """graph(%a : Tensor, %b : Tensor):
  %x : Tensor = aten::gt(%a, %b)
  %y : Tensor = aten::where(%x, %a, %b)
  %z : Tensor = aten::eq(%y, %a)
  return (%y, %z)
""",
        lambda a, b: (torch.where(a > b, a, b), torch.where(a > b, a, b) == a),
    ),
    "math": (
        """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %x : Tensor = aten::exp(%a)
  %y : Tensor = aten::log1p(%x)
  %z : Tensor = aten::tanh(%b)
  %w : Tensor = aten::sub(%y, %z, %one)
  return (%w)
""",
        lambda a, b: torch.log1p(torch.exp(a)) - torch.tanh(b),
    ),
}

DTYPE_PAIRS = [
    (np.float32, np.float32),
    (np.float64, np.float64),
    (np.float32, np.float64),
    (np.int64, np.float32),
    (np.int32, np.int64),
]


@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
@pytest.mark.parametrize("dtypes", DTYPE_PAIRS, ids=lambda d: f"{np.dtype(d[0])}-{np.dtype(d[1])}")
def test_expressions(name, dtypes):
    text, reference = EXPRESSIONS[name]
    if name in ("activations", "math") and np.dtype(dtypes[0]).kind == "i":
        pytest.skip("PyTorch's activations are not defined for integer tensors")
    rng = np.random.default_rng(2)
    arrays = []
    for dt in dtypes:
        values = rng.standard_normal((33, 17)) * 3
        if np.dtype(dt).kind == "i":
            values = np.round(values) + 10  # no zero divisors
        arrays.append(values.astype(dt))
    fn = ts_runtime.Function(name, ts_ir.parse_ir(text))
    ours = fn(*map(ts_runtime.from_numpy, arrays))
    assert fusion_groups(fn) == 1
    theirs = reference(*map(torch.from_numpy, arrays))
    compare(ours, theirs, rtol=4e-6, atol=1e-6)
