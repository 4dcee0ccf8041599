"""The random pointwise expressions of `test_fuser_hypothesis.py`, through the CUDA fuser.

The same strategy draws the programs (shapes of rank 0 to 3, one to three
inputs of bool, int32, int64, float32 or float64 in contiguous, transposed,
sliced and expanded layouts, expressions four levels deep). Each program's
group is specialized and written as CUDA C by ts-fuser-cuda; all kernels go
into one compilation unit, which

- nvcc compiles to PTX (in two invocations), so every generated kernel is
  valid CUDA for sm_80, and
- g++ compiles with the host shim, and each kernel runs on the host
  (`HostDriver`) and must match numpy exactly, as the CPU fuser must.

No GPU takes part: this checks the generated code and its numerics, not a
GPU's execution of it.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuser_hypothesis import FUNCTIONS, evaluate, operands, programs, to_ir, ulps
from ts_ir import ScalarType

ts_fuser_cuda = pytest.importorskip("ts_fuser_cuda")
from ts_fuser_cuda.nvcc import compile_ptx_batches, find_nvcc  # noqa: E402
from ts_fuser_cuda.testing import KernelBatch  # noqa: E402

S = ScalarType
EXPRESSIONS = 300
FUNCTION_CASES = 60

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _draw(strategy, n: int) -> list:
    """`n` examples of a strategy, the same in every run."""
    drawn: list = []

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(example):
        drawn.append(example)

    collect()
    return drawn


@st.composite
def function_cases(draw):
    name = draw(st.sampled_from(sorted(FUNCTIONS)))
    dtype = draw(st.sampled_from([S.Float, S.Double]))
    shape = (draw(st.integers(1, 6)), draw(st.integers(1, 40)))
    a = draw(operands(shape, dtype))
    scale = draw(st.sampled_from([0.01, 1.0, 30.0]))
    a = np.asarray(a * a.dtype.type(scale), a.dtype)
    if name in ("log", "sqrt", "rsqrt"):
        a = np.asarray(np.abs(a))
    if name == "log1p":
        a = np.asarray(np.maximum(a, a.dtype.type(-0.999)))
    return name, a


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """A host-emulated device, its kernel cache in a directory of this test run."""
    saved = os.environ.get("TS_JIT_CACHE_DIR")
    os.environ["TS_JIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("cuda-kernels"))
    try:
        yield ts_fuser_cuda.HostDriver()
    finally:
        if saved is None:
            del os.environ["TS_JIT_CACHE_DIR"]
        else:
            os.environ["TS_JIT_CACHE_DIR"] = saved


@pytest.fixture(scope="module")
def batch():
    batch = KernelBatch("tsjit_expr")
    expressions = []
    for i, (expr, arrays) in enumerate(_draw(programs(), EXPRESSIONS)):
        text = to_ir(expr, len(arrays))
        batch.add(f"expr{i}", text, *arrays)
        expressions.append((f"expr{i}", text, expr, arrays))
    functions = []
    for i, (name, a) in enumerate(_draw(function_cases(), FUNCTION_CASES)):
        text = f"graph(%a : Tensor):\n  %r : Tensor = aten::{name}(%a)\n  return (%r)\n"
        batch.add(f"fn{i}", text, a)
        functions.append((f"fn{i}", name, a))
    return batch, expressions, functions


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")
def test_every_generated_kernel_compiles_with_nvcc(batch, record_property):
    kernels, expressions, functions = batch
    ptx = compile_ptx_batches(kernels.bodies, "sm_80", batches=2)
    entries = sum(p.count(".entry ") for p in ptx)
    record_property("kernels compiled by nvcc", entries)
    print(f"\nnvcc -ptx: {entries} kernels of {len(kernels.entries)} groups in {len(ptx)} runs")
    # every group has its kernel (and the flat ones their vectorized entry)
    assert entries >= len(expressions) + len(functions)
    for entry in kernels.entries.values():
        assert all(f".entry {e.name}(" in "".join(ptx) for e in entry.kernel.entries)


def test_random_expressions_match_numpy_exactly_on_the_host(batch, host, record_property):
    kernels, expressions, _ = batch
    compiled = kernels.compile(host)
    for name, text, expr, arrays in expressions:
        want = np.asarray(evaluate(expr, arrays))
        (got,) = compiled.run(name)
        assert got.dtype == want.dtype and got.shape == want.shape, text
        same = np.array_equal(got, want, equal_nan=want.dtype.kind == "f")
        assert same, f"{text}\ngot  {got}\nwant {want}"
    record_property("expressions checked", len(expressions))
    print(f"\nhost shim: {len(expressions)} random expressions match numpy exactly")


def test_math_functions_on_the_host(batch, host):
    """Each function's kernel calls the right library function in the right precision: within
    an ulp or two of the exact result with the host's libm (CUDA's own functions have NVIDIA's
    documented bounds, which only a GPU run shows)."""
    kernels, _, functions = batch
    compiled = kernels.compile(host)
    for name, function, a in functions:
        (got,) = compiled.run(name)
        with np.errstate(all="ignore"):
            exact = np.asarray(FUNCTIONS[function](a.astype(np.float64))).astype(a.dtype)
        bound = 2 if a.dtype == np.float32 else 4
        assert ulps(got, exact) <= bound, (function, a.dtype)
