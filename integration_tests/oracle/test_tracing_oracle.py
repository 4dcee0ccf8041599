"""Tracing against real PyTorch: the same Python function traced by both.

Each function is traced at batch 4 by `torch.jit.trace` and by tsjit's `trace`; both
traces then run at three batch sizes (2, 4 and 7) and must agree, and tracing must give
the same `TracerWarning`s (category and message). Sizes read from tensors must be
recorded as PyTorch records them (`aten::size` and `prim::NumToTensor`, `aten::Int` where
a size is passed as an int), so a trace follows the batch size; a value baked into the
trace (a tensor turned into a Python number, a length) must be baked into both.
The recorded counterpart, without torch, is the traced part of the real-world corpus
(test_realworld.py) and the tracer's own tests.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import tsjit  # noqa: E402

pytestmark = pytest.mark.oracle


def zeros_by_batch(t, x):
    return t.zeros(x.size(0), 3) + x.sum()


def flatten_batch(t, x):
    return x.view(x.size(0), -1)


def shape_unpacking(t, x):
    b, c, h = x.shape
    return x.reshape(b, c * h).mean(1, keepdim=True).expand(b, 4)


def size_arithmetic(t, x):
    return x[:, : x.size(1) // 2] * x.shape[1]


def numel_scaling(t, x):
    return x / x.numel()


def new_zeros_and_arange(t, x):
    return x.new_zeros(x.shape[0], 2) + t.arange(x.size(0)).unsqueeze(1)


def last_row(t, x):
    return x[x.size(0) - 1]


def sqrt_of_a_size(t, x):
    return x / math.sqrt(x.size(-1))


def data_dependent_branch(t, x):
    return x * 2 if bool(x.sum() > 0) else x - 1


def int_of_a_reduction(t, x):
    return t.zeros(3) + int(x.sum())


def item_of_a_maximum(t, x):
    return x + x.max().item()


def tolist_round_trip(t, x):
    return t.tensor(x.tolist()) + x


def length(t, x):
    return x * len(x)


def iteration(t, x):
    return t.stack([row * 2 for row in x])


def shape_comparison(t, x):
    return x + 1 if x.shape[2] == 5 else x - 1


def loop_over_a_size(t, x):
    return t.stack([x[i] * i for i in range(x.size(0))])


FUNCTIONS = [
    zeros_by_batch,
    flatten_batch,
    shape_unpacking,
    size_arithmetic,
    numel_scaling,
    new_zeros_and_arange,
    last_row,
    sqrt_of_a_size,
    data_dependent_branch,
    int_of_a_reduction,
    item_of_a_maximum,
    tolist_round_trip,
    length,
    iteration,
    shape_comparison,
    loop_over_a_size,
]


def _example(batch: int) -> np.ndarray:
    rng = np.random.default_rng(batch)
    return rng.standard_normal((batch, 3, 5)).astype(np.float32)


def _trace(namespace, fn):
    """Trace `fn` at batch 4 under `namespace`; the trace and its TracerWarnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        namespace.jit.TracerWarning.ignore_lib_warnings()
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        traced = namespace.jit.trace(
            lambda x: fn(namespace, x), (namespace.from_numpy(_example(4)),), check_trace=False
        )
    messages = {
        (w.category.__name__, str(w.message))
        for w in caught
        if issubclass(w.category, namespace.jit.TracerWarning)
    }
    return traced, messages


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_traced_function_matches_pytorch_at_three_batch_sizes(fn):
    expected, torch_warnings = _trace(torch, fn)
    traced, tsjit_warnings = _trace(tsjit, fn)
    assert tsjit_warnings == torch_warnings
    for batch in (2, 4, 7):
        x = _example(batch)
        try:
            want = expected(torch.from_numpy(x.copy())).numpy()
        except RuntimeError:
            with pytest.raises(Exception):  # noqa: B017 - whatever tsjit raises for it
                traced(tsjit.from_numpy(x.copy()))
            continue
        got = traced(tsjit.from_numpy(x.copy())).numpy()
        assert got.shape == want.shape, f"batch {batch}"
        assert got.dtype == want.dtype, f"batch {batch}"
        assert np.allclose(got, want, rtol=1e-5, atol=1e-6), f"batch {batch}"


@pytest.mark.parametrize("fn", [zeros_by_batch, flatten_batch, new_zeros_and_arange])
def test_sizes_are_recorded_as_pytorch_records_them(fn):
    expected, _ = _trace(torch, fn)
    traced, _ = _trace(tsjit, fn)

    def size_nodes(graph) -> list[str]:
        kinds = [str(n.kind()) if callable(n.kind) else str(n.kind) for n in graph.nodes()]
        return [k for k in kinds if k in ("aten::size", "prim::NumToTensor", "aten::Int")]

    assert size_nodes(traced.graph) == size_nodes(expected.graph)
