"""ts-ir's promotion table and `result_type` against real PyTorch."""

import itertools
import random

import pytest
from ts_ir import Category, ScalarType, promote_types, result_type, scalar_dtype

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle

# Tensors of these dtypes are easy to make in every torch build; bfloat16 and complex32
# take part in the pairwise table only.
OPERAND_DTYPES = [t for t in ScalarType if t not in (ScalarType.BFloat16, ScalarType.ComplexHalf)]
SCALARS = [True, False, 3, -2, 2.5, 1 + 2j]
OPERANDS = [
    *(("dim", t) for t in OPERAND_DTYPES),
    *(("zero", t) for t in OPERAND_DTYPES),
    *(("scalar", s) for s in SCALARS),
]


def torch_dtype(t):
    return getattr(torch, t.python_name)


def name_of(dtype):
    return str(dtype).removeprefix("torch.")


def operand(kind, value):
    """The torch operand and the (dtype, category) that ts-ir's result_type takes."""
    if kind == "scalar":
        return value, (scalar_dtype(value), Category.SCALAR)
    if kind == "dim":
        return torch.zeros(2, dtype=torch_dtype(value)), (value, Category.DIM)
    return torch.zeros((), dtype=torch_dtype(value)), (value, Category.ZERO_DIM)


def operand_id(op):
    kind, value = op
    return f"{kind}-{value!r}" if kind == "scalar" else f"{kind}-{value.python_name}"


@pytest.mark.parametrize(
    ("a", "b"),
    list(itertools.product(ScalarType, ScalarType)),
    ids=lambda t: t.python_name,
)
def test_promote_types_matches_torch(a, b):
    expected = torch.promote_types(torch_dtype(a), torch_dtype(b))
    assert promote_types(a, b).python_name == name_of(expected)


# torch.result_type needs a tensor among its two operands
PAIRS = [
    (a, b) for a, b in itertools.product(OPERANDS, OPERANDS) if "scalar" != a[0] or "scalar" != b[0]
]


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=operand_id)
def test_result_type_matches_torch(a, b):
    (ta, pa), (tb, pb) = operand(*a), operand(*b)
    assert result_type([pa, pb]).python_name == name_of(torch.result_type(ta, tb))


@pytest.mark.parametrize("seed", range(20))
def test_result_type_of_many_operands_matches_torch(seed):
    """More than two operands, against the rule PyTorch's elementwise references apply
    (torch.result_type itself takes two)."""
    prims_common = pytest.importorskip("torch._prims_common")
    kind = prims_common.ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT
    rng = random.Random(seed)
    checked = 0
    while checked < 50:
        ops = [operand(*rng.choice(OPERANDS)) for _ in range(rng.randint(3, 5))]
        values = [v for v, _ in ops]
        if not any(isinstance(v, torch.Tensor) for v in values):
            continue
        _, expected = prims_common.elementwise_dtypes(*values, type_promotion_kind=kind)
        assert result_type([p for _, p in ops]).python_name == name_of(expected), values
        checked += 1
