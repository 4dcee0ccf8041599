"""Golden snapshots of generated CUDA C, so a change to code generation shows in review.

Each snapshot is the CUDA C of one kernel (named `kernel`) as `codegen.generate`
writes it (without the prelude). After an intended change, regenerate with

    TS_FUSER_UPDATE_GOLDEN=1 pytest packages/ts-fuser-cuda/tests/test_cuda_golden.py

and review the diff of `tests/golden/*.cu`. The snapshots are also compiled
by nvcc, and the PTX of some is checked for what the generator promises:
16-byte loads on the vectorized path, no fused multiply-adds, 32-bit index
arithmetic where the sizes allow it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest
from ts_fuser_cuda import PRELUDE, module_source
from ts_fuser_cuda.backend import backend
from ts_fuser_cuda.codegen import generate
from ts_fuser_cuda.eager.copies import copy_kernel
from ts_fuser_cuda.eager.matmul import matmul_kernel
from ts_fuser_cuda.eager.reductions import reduction_kernel
from ts_fuser_cuda.nvcc import compile_ptx, find_nvcc
from ts_fuser_cuda.testing import spec_of
from ts_ir import ScalarType, parse_ir

S = ScalarType
GOLDEN = Path(__file__).parent / "golden"

FUSED = {
    # the flat path: contiguous operands and a scalar, with a Python float constant
    "flat_mul_add_scalar": (
        """graph(%a : Tensor, %b : Tensor, %s : float):
  %one : int = prim::Constant[value=1]()
  %half : float = prim::Constant[value=0.5]()
  %x : Tensor = aten::mul(%a, %half)
  %y : Tensor = aten::add(%x, %b, %one)
  %r : Tensor = aten::mul(%y, %s)
  return (%r)
""",
        [np.zeros((4, 8), np.float32), np.zeros((4, 8), np.float32), 2.0],
        32,
    ),
    # the strided path: a transposed operand (iterated in its memory order) minus a row
    # broadcast along it, with an int64 -> float promotion
    "transposed_row_broadcast_promotion": (
        """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %r : Tensor = aten::sub(%a, %b, %one)
  return (%r)
""",
        [np.zeros((5, 3), np.float32).T, np.zeros((5,), np.int64)],
        32,
    ),
    # chunks of one input, two outputs, a transcendental function
    "chunk_two_outputs_sigmoid": (
        """graph(%g : Tensor, %c : Tensor):
  %i : Tensor, %f : Tensor = prim::ConstantChunk[chunks=2, dim=1](%g)
  %one : int = prim::Constant[value=1]()
  %si : Tensor = aten::sigmoid(%i)
  %x : Tensor = aten::mul(%si, %c)
  %y : Tensor = aten::add(%x, %f, %one)
  return (%x, %y)
""",
        [np.zeros((2, 8), np.float32), np.zeros((2, 4), np.float32)],
        32,
    ),
    # integer floor division, which can fail (the status word), with 64-bit indices
    "int_floor_div_status_64bit": (
        """graph(%a : Tensor, %b : Tensor):
  %mode : str = prim::Constant[value="floor"]()
  %r : Tensor = aten::div(%a, %b, %mode)
  return (%r)
""",
        [np.zeros((3, 4), np.int64), np.zeros((4,), np.int32)],
        64,
    ),
}

EAGER = {
    "reduce_sum_float_k1_r1": lambda: reduction_kernel("sum", S.Float, S.Float, 1, 1, 32),
    "matmul_float": lambda: matmul_kernel(S.Float, 32),
    "copy_long_float_r2": lambda: copy_kernel(S.Long, S.Float, 2, 32),
}


def entry_name(name: str) -> str:
    """The name a snapshot's kernel has in the PTX (fused kernels are renamed after their
    snapshot; eager kernels keep their own names)."""
    if name in FUSED:
        return name
    return EAGER[name]()[1][0].name


def _fused(name: str) -> str:
    text, values, bits = FUSED[name]
    spec = backend.specialize(parse_ir(text), [spec_of(v) for v in values])
    return generate(spec, "kernel", index_bits=bits).source


def _source(name: str) -> str:
    if name in FUSED:
        return _fused(name)
    return EAGER[name]()[0]


NAMES = sorted(FUSED) + sorted(EAGER)


@pytest.mark.parametrize("name", NAMES)
def test_generated_cuda_matches_snapshot(name):
    text = _source(name)
    path = GOLDEN / f"{name}.cu"
    if os.environ.get("TS_FUSER_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"no snapshot {path.name}; run with TS_FUSER_UPDATE_GOLDEN=1"
    assert text == path.read_text(), f"the CUDA C of {name} changed; review and regenerate"


needs_nvcc = pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")


@pytest.fixture(scope="module")
def snapshot_ptx():
    """All snapshots in one compilation unit (renamed apart), compiled once."""
    bodies = []
    for name in NAMES:
        bodies.append(
            re.sub(r"\bkernel(_v4|_element)?\b", rf"{name}\1", (GOLDEN / f"{name}.cu").read_text())
        )
    ptx = compile_ptx(module_source(bodies))
    functions = {}
    for match in re.finditer(r"\.entry (\w+)\((.*?)\n\}", ptx, re.S):
        functions[match.group(1)] = match.group(2)
    return {**functions, **{name: functions[entry_name(name)] for name in NAMES}}


@needs_nvcc
def test_snapshots_compile_with_nvcc(snapshot_ptx):
    # every snapshot's kernel is in the PTX (the fixture looks each up), and the flat fused
    # kernel has its vectorized entry too
    assert set(NAMES) <= set(snapshot_ptx)
    assert "flat_mul_add_scalar_v4" in snapshot_ptx


@needs_nvcc
def test_vectorized_entry_moves_16_bytes_per_load_and_store(snapshot_ptx):
    vector = snapshot_ptx["flat_mul_add_scalar_v4"]
    scalar = snapshot_ptx["flat_mul_add_scalar"]
    assert re.search(r"ld\.global(\.nc)?\.v4\.f32", vector)
    assert re.search(r"st\.global\.v4\.f32", vector)
    assert not re.search(r"\.v4\.", scalar)


@needs_nvcc
def test_no_fused_multiply_adds_in_user_arithmetic(snapshot_ptx):
    # a * 0.5 + b: rounded twice, as the interpreter computes it
    for name in ("flat_mul_add_scalar", "flat_mul_add_scalar_v4", "matmul_float"):
        assert "fma" not in snapshot_ptx[name], name


@needs_nvcc
def test_index_width(snapshot_ptx):
    # 32-bit indices: the element index is a 32-bit register scaled once into an address;
    # 64-bit ones divide in 64 bits
    narrow = snapshot_ptx["transposed_row_broadcast_promotion"]
    wide = snapshot_ptx["int_floor_div_status_64bit"]
    assert re.search(r"(div|rem)\.[su]32", narrow)
    assert not re.search(r"(div|rem)\.[su]64", narrow)
    assert re.search(r"(div|rem)\.[su]64", wide)


def test_snapshots_call_only_prelude_helpers():
    """Every `ts_` helper a snapshot calls is defined in the prelude."""
    defined = set(re.findall(r"\b(ts_\w+)\s*\(", PRELUDE)) | set(
        re.findall(r"\b(ts_\w+)\b", PRELUDE)
    )
    for name in NAMES:
        called = set(re.findall(r"\b(ts_\w+)\s*\(", (GOLDEN / f"{name}.cu").read_text()))
        assert called <= defined, (name, called - defined)
