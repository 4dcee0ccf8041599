import itertools

import pytest
from ts_ir import DEFAULT_DTYPE, Category, ScalarType, promote_types, result_type, scalar_dtype

S = ScalarType
DIM, ZERO, SCALAR = Category.DIM, Category.ZERO_DIM, Category.SCALAR


def test_dtype_numbers_match_c10():
    # the IR stores dtypes as these integers (`dtype=6` is float32)
    assert (S.Byte, S.Long, S.Half, S.Float, S.Double, S.Bool, S.BFloat16) == (
        0,
        4,
        5,
        6,
        7,
        11,
        15,
    )
    assert S.ComplexFloat == 9


def test_dtype_properties():
    assert S.Float.is_floating_point and S.BFloat16.is_floating_point
    assert not S.ComplexFloat.is_floating_point and S.ComplexFloat.is_complex
    assert S.Int.is_integral() and not S.Bool.is_integral()
    assert S.Bool.is_integral(include_bool=True)
    assert not S.Byte.is_signed and S.Char.is_signed
    assert S.ComplexDouble.itemsize == 16 and S.Half.itemsize == 2
    assert S.Float.to_complex() is S.ComplexFloat and S.ComplexHalf.to_real() is S.Half
    assert S.Long.to_complex() is S.Long


def test_python_names():
    assert S.Float.python_name == "float32"
    assert S.from_python_name("float32") is S.Float
    assert S.from_python_name("double") is S.Double
    assert S.from_python_name("cfloat") is S.ComplexFloat
    for t in S:
        assert S.from_python_name(t.python_name) is t
    with pytest.raises(ValueError, match="unknown dtype"):
        S.from_python_name("float128")


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations_with_replacement(S, 2)))
def test_promote_types_is_symmetric(a, b):
    assert promote_types(a, b) is promote_types(b, a)


@pytest.mark.parametrize("t", list(S))
def test_promote_types_identity_and_bool(t):
    assert promote_types(t, t) is t
    assert promote_types(S.Bool, t) is t


def test_promoted_type_holds_both():
    # the result is in the higher category of the two and not narrower than either
    order = {"bool": 0, "int": 1, "float": 2, "complex": 3}

    def category(t):
        if t is S.Bool:
            return "bool"
        if t.is_complex:
            return "complex"
        return "float" if t.is_floating_point else "int"

    for a, b in itertools.product(S, S):
        r = promote_types(a, b)
        assert order[category(r)] == max(order[category(a)], order[category(b)]), (a, b)
        assert promote_types(r, a) is r and promote_types(r, b) is r, (a, b)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (S.Byte, S.Char, S.Short),
        (S.Byte, S.Short, S.Short),
        (S.Byte, S.Long, S.Long),
        (S.Char, S.Int, S.Int),
        (S.Int, S.Long, S.Long),
        (S.Long, S.Half, S.Half),
        (S.Long, S.Float, S.Float),
        (S.Byte, S.BFloat16, S.BFloat16),
        (S.Half, S.BFloat16, S.Float),
        (S.Half, S.Float, S.Float),
        (S.Float, S.Double, S.Double),
        (S.Float, S.ComplexFloat, S.ComplexFloat),
        (S.Double, S.ComplexFloat, S.ComplexDouble),
        (S.Half, S.ComplexHalf, S.ComplexHalf),
        (S.BFloat16, S.ComplexHalf, S.ComplexFloat),
        (S.Float, S.ComplexHalf, S.ComplexFloat),
        (S.Long, S.ComplexHalf, S.ComplexHalf),
        (S.ComplexHalf, S.ComplexDouble, S.ComplexDouble),
    ],
)
def test_promote_types_known_entries(a, b, expected):
    assert promote_types(a, b) is expected


def test_scalar_dtype():
    assert scalar_dtype(True) is S.Bool
    assert scalar_dtype(3) is S.Long
    assert scalar_dtype(2.5) is DEFAULT_DTYPE is S.Float
    assert scalar_dtype(1j) is S.ComplexFloat
    with pytest.raises(TypeError):
        scalar_dtype("3")


@pytest.mark.parametrize(
    ("operands", "expected"),
    [
        # a tensor with dimensions decides within its category ...
        ([(S.Int, DIM), (S.Long, ZERO)], S.Int),
        ([(S.Float, DIM), (S.Double, ZERO)], S.Float),
        ([(S.Half, DIM), (S.Float, SCALAR)], S.Half),
        ([(S.Byte, DIM), (S.Long, SCALAR)], S.Byte),
        ([(S.Char, DIM), (S.Long, SCALAR)], S.Char),
        ([(S.Float, DIM), (S.Double, DIM)], S.Double),
        # ... a zero-dim tensor or scalar of a higher category lifts it
        ([(S.Long, DIM), (S.Float, SCALAR)], S.Float),
        ([(S.Int, DIM), (S.Double, ZERO)], S.Double),
        ([(S.Bool, DIM), (S.Long, SCALAR)], S.Long),
        ([(S.Bool, DIM), (S.Bool, SCALAR)], S.Bool),
        ([(S.Bool, DIM), (S.Float, SCALAR)], S.Float),
        ([(S.Bool, DIM), (S.Char, ZERO)], S.Char),
        ([(S.Float, DIM), (S.ComplexFloat, SCALAR)], S.ComplexFloat),
        ([(S.Double, DIM), (S.ComplexFloat, SCALAR)], S.ComplexDouble),
        ([(S.Half, DIM), (S.ComplexDouble, ZERO)], S.ComplexHalf),
        ([(S.Long, DIM), (S.ComplexFloat, SCALAR)], S.ComplexFloat),
        ([(S.Long, DIM), (S.ComplexDouble, ZERO)], S.ComplexDouble),
        # zero-dim tensors outrank scalars the same way
        ([(S.Int, ZERO), (S.Long, SCALAR)], S.Int),
        ([(S.Long, ZERO), (S.Float, SCALAR)], S.Float),
        ([(S.Half, ZERO), (S.Float, SCALAR)], S.Half),
        # scalars alone: Python floats count as the default dtype
        ([(S.Long, SCALAR), (S.Double, SCALAR)], S.Float),
        ([(S.Bool, SCALAR)], S.Bool),
        ([(S.ComplexDouble, SCALAR)], S.ComplexFloat),
        # many operands
        (
            [(S.Int, DIM), (S.Char, DIM), (S.Double, ZERO), (S.ComplexFloat, SCALAR)],
            S.ComplexDouble,
        ),
        ([(S.Byte, DIM), (S.Char, ZERO), (S.Long, SCALAR)], S.Byte),
    ],
)
def test_result_type(operands, expected):
    assert result_type(operands) is expected
    assert result_type(list(reversed(operands))) is expected


def test_result_type_needs_an_operand():
    with pytest.raises(ValueError):
        result_type([])
