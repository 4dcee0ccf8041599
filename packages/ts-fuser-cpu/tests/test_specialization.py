"""The analysis of a group for one set of inputs: dtypes, shapes, loop structure, the info array."""

from __future__ import annotations

import numpy as np
import pytest
from fuser_testing import spec_of
from ts_fuser_cpu import UnsupportedFusionError, canonical_text, specialize
from ts_fuser_cpu.specialization import Access, Path, coalesce, memory_order
from ts_ir import ScalarType, parse_ir

ADD = "graph(%a : Tensor, %b : Tensor):\n  %one : int = prim::Constant[value=1]()\n  %r : Tensor = aten::add(%a, %b, %one)\n  return (%r)\n"


def spec(text, *values):
    return specialize(parse_ir(text), [spec_of(v) for v in values])


def test_contiguous_operands_take_the_flat_path():
    s = spec(ADD, np.zeros((4, 5), np.float32), np.zeros((4, 5), np.float32))
    assert s.path is Path.FLAT and s.numel == 20 and s.shape == (4, 5)
    assert [leaf.access for leaf in s.leaves] == [Access.CONTIGUOUS, Access.CONTIGUOUS]


def test_a_single_element_broadcasts_on_the_flat_path():
    s = spec(ADD, np.zeros((4, 5), np.float32), np.zeros((1, 1), np.float32))
    assert s.path is Path.FLAT
    assert [leaf.access for leaf in s.leaves] == [Access.CONTIGUOUS, Access.SCALAR]


def test_row_broadcast_takes_the_strided_path():
    s = spec(ADD, np.zeros((4, 5), np.float32), np.zeros((5,), np.float32))
    assert s.path is Path.STRIDED and s.dims == (4, 5)
    assert [leaf.access for leaf in s.leaves] == [Access.CONTIGUOUS, Access.CONTIGUOUS]
    assert s.leaves[1].iter_strides == (0, 1)
    # offsets, sizes, then each leaf's strides
    assert s.info == [0, 0, 4, 5, 5, 1, 0, 1]


def test_column_broadcast_reads_one_element_per_row():
    s = spec(ADD, np.zeros((4, 5), np.float32), np.zeros((4, 1), np.float32))
    assert s.leaves[1].access is Access.ROW_BROADCAST


def test_promotion_follows_result_type():
    s = spec(ADD, np.zeros(3, np.int32), np.zeros(3, np.float64))
    assert s.outputs[0][1] is ScalarType.Double
    s = spec(ADD, np.zeros(3, np.int64), np.zeros((), np.float32))
    assert s.outputs[0][1] is ScalarType.Float  # a zero-dim float lifts the category
    s = spec(ADD, np.zeros(3, np.int32), np.zeros((), np.int64))
    assert s.outputs[0][1] is ScalarType.Int  # but not the width within it
    s = spec(ADD, np.zeros(3, np.float32), 2.5)
    assert s.outputs[0][1] is ScalarType.Float


def test_coalesce_merges_dimensions_every_operand_allows():
    assert coalesce((2, 3, 4), [[12, 4, 1]]) == ([24], [[1]])
    assert coalesce((2, 3, 4), [[12, 4, 1], [0, 0, 0]]) == ([24], [[1], [0]])
    assert coalesce((2, 3, 4), [[12, 4, 1], [4, 0, 1]]) == ([2, 3, 4], [[12, 4, 1], [4, 0, 1]])
    assert coalesce((1, 5, 1), [[7, 1, 3]]) == ([5], [[1]])


def test_memory_order_follows_the_first_full_operand():
    assert memory_order((3, 5), [[1, 3]]) == [1, 0]
    assert memory_order((3, 5), [[0, 1], [1, 3]]) == [1, 0]
    assert memory_order((3, 5), [[5, 1]]) == [0, 1]


def test_transposed_inputs_make_transposed_outputs():
    a = np.zeros((5, 3), np.float32).T
    s = spec(ADD, a, a)
    assert s.path is Path.FLAT
    assert s.output_layout == ((5, 3), (1, 0))


def test_chunks_are_views_with_offsets():
    text = (
        "graph(%g : Tensor):\n"
        "  %a : Tensor, %b : Tensor = prim::ConstantChunk[chunks=2, dim=1](%g)\n"
        "  %r : Tensor = aten::mul(%a, %b)\n  return (%r)\n"
    )
    s = spec(text, np.zeros((3, 8), np.float64))
    assert [leaf.offset for leaf in s.leaves] == [0, 32]
    assert s.shape == (3, 4) and s.path is Path.STRIDED


@pytest.mark.parametrize(
    "text,values,reason",
    [
        (ADD, [np.zeros(3, np.float16), np.zeros(3, np.float16)], "float16"),
        (ADD, [np.zeros(3, np.complex64), np.zeros(3, np.complex64)], "complex64"),
        (
            "graph(%a : Tensor, %b : Tensor):\n  %r : Tensor = aten::mm(%a, %b)\n  return (%r)\n",
            [np.zeros((2, 2), np.float32)] * 2,
            "no CPU lowering",
        ),
        (
            ADD.replace("aten::add", "aten::sub"),
            [np.zeros(3, np.bool_)] * 2,
            "subtraction of bool",
        ),
        (
            "graph(%a : Tensor, %b : Tensor):\n  %one : int = prim::Constant[value=1]()\n  %x : Tensor = aten::add(%a, %one, %one)\n  %y : Tensor = aten::add(%b, %one, %one)\n  return (%x, %y)\n",
            [np.zeros(3, np.float32), np.zeros((2, 3), np.float32)],
            "outputs of different shapes",
        ),
        (ADD, [np.zeros(3, np.float32), np.zeros(4, np.float32)], "do not broadcast"),
        (
            "graph(%g : Tensor):\n  %a : Tensor, %b : Tensor = prim::ConstantChunk[chunks=2, dim=0](%g)\n  %r : Tensor = aten::mul(%a, %b)\n  return (%r)\n",
            [np.zeros(5, np.float32)],
            "unequal size",
        ),
    ],
    ids=["float16", "complex", "mm", "bool-sub", "output-shapes", "broadcast", "chunks"],
)
def test_unsupported_groups_say_why(text, values, reason):
    with pytest.raises(UnsupportedFusionError, match=reason):
        spec(text, *values)


def test_canonical_text_ignores_names_and_types():
    a = parse_ir("graph(%x : Float(3)):\n  %y : Float(3) = aten::relu(%x)\n  return (%y)\n")
    b = parse_ir("graph(%p : Tensor):\n  %q : Tensor = aten::relu(%p)\n  return (%q)\n")
    assert canonical_text(a) == canonical_text(b)
    c = parse_ir("graph(%p : Tensor):\n  %q : Tensor = aten::sigmoid(%p)\n  return (%q)\n")
    assert canonical_text(a) != canonical_text(c)
