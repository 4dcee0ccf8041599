"""Golden snapshots of generated LLVM IR, so a change to code generation shows in review.

Each snapshot is the unoptimized IR of one kernel (named `kernel`) as
`codegen.generate_ir` writes it. After an intended change, regenerate with

    TS_FUSER_UPDATE_GOLDEN=1 pytest packages/ts-fuser-cpu/tests/test_golden.py

and review the diff of `tests/golden/*.ll`.
"""

from __future__ import annotations

import os
from pathlib import Path

import llvmlite.binding as llvm
import numpy as np
import pytest
from fuser_testing import spec_of
from ts_fuser_cpu.codegen import Abi, generate_ir
from ts_fuser_cpu.specialization import specialize
from ts_ir import parse_ir

GOLDEN = Path(__file__).parent / "golden"

CASES = {
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
    ),
    # the strided path: a transposed operand (iterated in its memory order) minus a row broadcast
    # along it, with an int64 -> float promotion
    "transposed_row_broadcast_promotion": (
        """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %r : Tensor = aten::sub(%a, %b, %one)
  return (%r)
""",
        [np.zeros((5, 3), np.float32).T, np.zeros((5,), np.int64)],
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
    ),
}


def _ir(name: str) -> str:
    text, values = CASES[name]
    spec = specialize(parse_ir(text), [spec_of(v) for v in values])
    return generate_ir(spec, "kernel", Abi(pass_objects=True))


@pytest.mark.parametrize("name", sorted(CASES))
def test_generated_ir_matches_snapshot(name):
    text = _ir(name)
    path = GOLDEN / f"{name}.ll"
    if os.environ.get("TS_FUSER_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"no snapshot {path.name}; run with TS_FUSER_UPDATE_GOLDEN=1"
    assert text == path.read_text(), f"the IR of {name} changed; review and regenerate the snapshot"


@pytest.mark.parametrize("name", sorted(CASES))
def test_snapshots_are_valid_llvm(name):
    llvm.parse_assembly((GOLDEN / f"{name}.ll").read_text()).verify()


def test_snapshot_paths():
    from ts_fuser_cpu.specialization import Path as LoopPath

    paths = {
        name: specialize(parse_ir(text), [spec_of(v) for v in values]).path
        for name, (text, values) in CASES.items()
    }
    assert paths == {
        "flat_mul_add_scalar": LoopPath.FLAT,
        "transposed_row_broadcast_promotion": LoopPath.STRIDED,
        "chunk_two_outputs_sigmoid": LoopPath.STRIDED,
    }
