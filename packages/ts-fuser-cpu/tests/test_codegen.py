"""What LLVM makes of the generated IR: vector instructions for the host CPU, valid modules."""

from __future__ import annotations

import re

import llvmlite.binding as llvm
import numpy as np
import pytest
import ts_fuser_cpu
from fuser_testing import spec_of
from ts_fuser_cpu.codegen import Abi, generate_ir
from ts_fuser_cpu.specialization import specialize
from ts_ir import parse_ir

IOU = """graph(%x1 : Tensor, %y1 : Tensor, %w1 : Tensor, %h1 : Tensor, %x2 : Tensor, %y2 : Tensor, %w2 : Tensor, %h2 : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %zero : float = prim::Constant[value=0.]()
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %xi : Tensor = aten::max(%x1, %x2)
  %yi : Tensor = aten::max(%y1, %y2)
  %a : Tensor = aten::add(%x1, %w1, %one)
  %b : Tensor = aten::add(%x2, %w2, %one)
  %c : Tensor = aten::min(%a, %b)
  %d : Tensor = aten::sub(%c, %xi, %one)
  %wi : Tensor = aten::clamp(%d, %zero, %none)
  %e : Tensor = aten::add(%y1, %h1, %one)
  %f : Tensor = aten::add(%y2, %h2, %one)
  %g : Tensor = aten::min(%e, %f)
  %h : Tensor = aten::sub(%g, %yi, %one)
  %hi : Tensor = aten::clamp(%h, %zero, %none)
  %ai : Tensor = aten::mul(%wi, %hi)
  %p : Tensor = aten::mul(%w1, %h1)
  %q : Tensor = aten::mul(%w2, %h2)
  %s : Tensor = aten::add(%p, %q, %one)
  %au : Tensor = aten::sub(%s, %ai, %one)
  %den : Tensor = aten::clamp(%au, %eps, %none)
  %r : Tensor = aten::div(%ai, %den)
  return (%r)
"""

# AVX (v-prefixed, any width) or SSE packed single-precision arithmetic
PACKED = re.compile(r"\b(v?(mul|add|sub|div|max|min)ps)\b")


def test_contiguous_kernels_vectorize():
    specs = [spec_of(np.zeros((1000, 1000), np.float32))] * 8
    asm = ts_fuser_cpu.backend.assembly(parse_ir(IOU), specs)
    found = {m.group(1) for m in PACKED.finditer(asm)}
    assert {"mul", "div"} <= {f[-5:-2] if f.startswith("v") else f[:3] for f in found}, found
    assert any(op in found for op in ("vmulps", "mulps")), found
    assert any(op in found for op in ("vaddps", "addps", "vsubps", "subps")), found


@pytest.mark.parametrize(
    "op,packed", [("tanh", r"\bv?(mul|add|div)ps\b"), ("log", r"\bv?(mul|add|div)pd\b")]
)
def test_transcendental_kernels_vectorize(op, packed):
    """tanh computes in float32 vectors; log in vectors of doubles (see mathlib's table)."""
    g = parse_ir(f"graph(%a : Tensor):\n  %r : Tensor = aten::{op}(%a)\n  return (%r)\n")
    asm = ts_fuser_cpu.backend.assembly(g, [spec_of(np.zeros(4096, np.float32))])
    assert re.search(packed, asm)
    assert not re.search(r"call.*\b(tanhf|logf)\b", asm)


def test_strided_rows_vectorize_their_contiguous_inner_loop():
    g = parse_ir(
        "graph(%a : Tensor, %b : Tensor):\n  %r : Tensor = aten::mul(%a, %b)\n  return (%r)\n"
    )
    a = np.zeros((64, 2048), np.float32)[:, :512]
    asm = ts_fuser_cpu.backend.assembly(g, [spec_of(a), spec_of(np.zeros((64, 512), np.float32))])
    assert PACKED.search(asm)


@pytest.mark.parametrize("abi", [Abi(pass_objects=True), Abi(pass_objects=False)])
def test_generated_modules_verify(abi):
    spec = specialize(parse_ir(IOU), [spec_of(np.zeros((3, 5), np.float32))] * 8)
    llvm.parse_assembly(generate_ir(spec, "k", abi)).verify()


def test_the_code_depends_on_structure_not_sizes():
    g = parse_ir(IOU)
    small = specialize(g, [spec_of(np.zeros((3, 5), np.float32))] * 8)
    large = specialize(g, [spec_of(np.zeros((300, 7), np.float32))] * 8)
    assert small.codegen_key == large.codegen_key
    transposed = specialize(g, [spec_of(np.zeros((5, 3), np.float32).T)] * 8)
    assert transposed.codegen_key == small.codegen_key  # all transposed alike: one flat loop
    mixed = specialize(
        g, [spec_of(np.zeros((5, 3), np.float32).T)] + [spec_of(np.zeros((3, 5), np.float32))] * 7
    )
    assert mixed.codegen_key != small.codegen_key
