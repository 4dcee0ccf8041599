import pytest
from ts_ir import (
    AnyListType,
    AnyTupleType,
    AnyType,
    BoolType,
    ClassType,
    ComplexType,
    Device,
    DeviceType,
    DictType,
    FloatType,
    FutureType,
    InterfaceType,
    IntType,
    IRParseError,
    ListType,
    NoneType,
    NumberType,
    OptionalType,
    ScalarType,
    StringType,
    TensorType,
    TupleType,
    UnionType,
    contiguous_strides,
    map_types,
    parse_type,
    unify_type_list,
    unify_types,
    unshaped_type,
)

S = ScalarType
CPU = Device("cpu")
INT, FLOAT, BOOL, STR, NONE = IntType(), FloatType(), BoolType(), StringType(), NoneType()
COMPLEX, NUMBER, ANY = ComplexType(), NumberType(), AnyType()
TENSOR = TensorType.get()


@pytest.fixture(autouse=True)
def _default_verbosity(monkeypatch):
    monkeypatch.delenv("TS_JIT_TYPE_VERBOSITY", raising=False)


# ---------------------------------------------------------------------------
# Printing


@pytest.mark.parametrize(
    ("t", "text"),
    [
        (TENSOR, "Tensor"),
        (TensorType(S.Float, sizes=[None, None]), "Float(*, *)"),
        (
            TensorType.create_contiguous(S.Float, CPU, [2, 3], requires_grad=False),
            "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)",
        ),
        (TensorType(S.Float, requires_grad=False), "FloatTensor(requires_grad=0)"),
        (TensorType(S.Long), "LongTensor"),
        (TensorType(sizes=()), "Tensor()"),
        (TensorType(S.Bool, CPU, False, sizes=()), "Bool(requires_grad=0, device=cpu)"),
        (TensorType(S.Float, CPU, True, [None, 4]), "Float(*, 4, requires_grad=1, device=cpu)"),
        # strides print only when all are known
        (TensorType(S.Float, sizes=[2, 3], strides=[None, 1]), "Float(2, 3)"),
        (TensorType(device=Device("cuda", 1)), "Tensor(device=cuda:1)"),
        (TensorType(undefined=True), "Tensor[Undefined]"),
        (ListType(INT), "int[]"),
        (ListType(ListType(TENSOR)), "Tensor[][]"),
        (OptionalType(TENSOR), "Tensor?"),
        (OptionalType(ListType(INT)), "int[]?"),
        (TupleType([TENSOR, INT]), "(Tensor, int)"),
        (TupleType([]), "()"),
        (TupleType([INT, STR], names=["a", "b"]), "NamedTuple(a : int, b : str)"),
        (DictType(STR, TENSOR), "Dict(str, Tensor)"),
        (FutureType(TENSOR), "Future[Tensor]"),
        (UnionType.create([INT, STR]), "Union(int, str)"),
        (NUMBER, "Scalar"),
        (NONE, "NoneType"),
        (DeviceType(), "Device"),
        (ClassType("__torch__.M", is_module=True), "__torch__.M"),
        (ANY, "Any"),
    ],
)
def test_printed_form(t, text):
    assert str(t) == text


@pytest.mark.parametrize(
    ("t", "annotation"),
    [
        (ListType(INT), "List[int]"),
        (OptionalType(TENSOR), "Optional[Tensor]"),
        (TupleType([TENSOR, INT]), "Tuple[Tensor, int]"),
        (TupleType([]), "Tuple[()]"),
        (DictType(STR, ListType(TENSOR)), "Dict[str, List[Tensor]]"),
        (FutureType(OptionalType(INT)), "Future[Optional[int]]"),
        (UnionType.create([INT, STR]), "Union[int, str]"),
        (NUMBER, "number"),
        (TensorType(S.Float, sizes=[2]), "Tensor"),
        (TupleType([INT], names=["a"], qualified_name="__torch__.P"), "__torch__.P"),
    ],
)
def test_annotation_str(t, annotation):
    assert t.annotation_str() == annotation


def test_verbosity_levels(monkeypatch):
    t = TensorType.create_contiguous(S.Float, CPU, [2, 3], requires_grad=True)
    unranked = TensorType(S.Float, CPU, False)
    outer = ListType(t)
    expected = {
        "0": ("Tensor", "Tensor", "Tensor[]"),
        "1": ("Float(2, 3)", "FloatTensor", "Float(2, 3)[]"),
        "2": ("Float(2, 3, strides=[3, 1])", "FloatTensor", "Float(2, 3, strides=[3, 1])[]"),
        "3": (
            "Float(2, 3, strides=[3, 1], requires_grad=1, device=cpu)",
            "FloatTensor(requires_grad=0, device=cpu)",
            "Float(2, 3, strides=[3, 1], requires_grad=1, device=cpu)[]",
        ),
    }
    for level, (full, unr, lst) in expected.items():
        monkeypatch.setenv("TS_JIT_TYPE_VERBOSITY", level)
        assert (str(t), str(unranked), str(outer)) == (full, unr, lst), level
    # out of range and malformed values clamp or fall back to full
    monkeypatch.setenv("TS_JIT_TYPE_VERBOSITY", "7")
    assert str(t) == expected["3"][0]
    monkeypatch.setenv("TS_JIT_TYPE_VERBOSITY", "-2")
    assert str(t) == "Tensor"
    monkeypatch.setenv("TS_JIT_TYPE_VERBOSITY", "loud")
    assert str(t) == expected["3"][0]


def test_verbosity_is_read_when_printing(monkeypatch):
    from ts_ir import parse_ir

    g = parse_ir("graph(%x : Float(2, strides=[1], requires_grad=0, device=cpu)):\n  return (%x)\n")
    monkeypatch.setenv("TS_JIT_TYPE_VERBOSITY", "1")
    assert str(g) == "graph(%x : Float(2)):\n  return (%x)\n"
    monkeypatch.setenv("TS_JIT_TYPE_VERBOSITY", "0")
    assert str(g) == "graph(%x : Tensor):\n  return (%x)\n"


# ---------------------------------------------------------------------------
# Subtyping


SUBTYPES = [
    (INT, ANY),
    (ListType(TENSOR), ANY),
    (NONE, OptionalType(INT)),
    (INT, OptionalType(INT)),
    (OptionalType(INT), OptionalType(INT)),
    (OptionalType(INT), OptionalType(NUMBER)),
    (INT, NUMBER),
    (FLOAT, NUMBER),
    (COMPLEX, NUMBER),
    (ListType(INT), ListType(INT)),
    (ListType(INT), AnyListType()),
    (TupleType([INT, TENSOR]), TupleType([NUMBER, OptionalType(TENSOR)])),
    (TupleType([INT]), AnyTupleType()),
    (FutureType(INT), FutureType(NUMBER)),
    (TensorType(S.Float, sizes=[2, 3]), TENSOR),
    (TensorType(S.Float, CPU, False, [2, 3]), TensorType(S.Float, sizes=[None, 3])),
    (TensorType(S.Float, sizes=[2]), TensorType(sizes=[None])),
    (INT, UnionType.create([INT, STR])),
    (UnionType.create([INT, STR]), UnionType.create([INT, STR, FLOAT])),
    (OptionalType(INT), UnionType.create([INT, NONE, STR])),
    (UnionType([INT, NONE]), OptionalType(INT)),
    (ClassType("__torch__.A"), ClassType("__torch__.A")),
    (DictType(STR, INT), DictType(STR, INT)),
]

NOT_SUBTYPES = [
    (ANY, INT),
    (BOOL, INT),
    (BOOL, NUMBER),
    (STR, NUMBER),
    (OptionalType(INT), INT),
    (NONE, INT),
    (ListType(INT), ListType(NUMBER)),
    (ListType(TensorType(S.Float)), ListType(TENSOR)),
    (ListType(OptionalType(INT)), ListType(INT)),
    (DictType(STR, INT), DictType(STR, NUMBER)),
    (DictType(STR, INT), DictType(STR, OptionalType(INT))),
    (TupleType([INT, STR]), TupleType([INT])),
    (TupleType([NUMBER]), TupleType([INT])),
    (TupleType([INT], names=["a"]), TupleType([INT], names=["b"])),
    (FutureType(NUMBER), FutureType(INT)),
    (TENSOR, TensorType(S.Float)),
    (TensorType(S.Float), TensorType(S.Float, sizes=[None])),
    (TensorType(S.Float, sizes=[2]), TensorType(S.Float, sizes=[3])),
    (TensorType(S.Float, sizes=[2]), TensorType(S.Float, sizes=[2, 1])),
    (TensorType(S.Int), TensorType(S.Float)),
    (UnionType.create([INT, STR]), INT),
    (UnionType.create([INT, STR]), OptionalType(INT)),
    (ClassType("__torch__.A"), ClassType("__torch__.B")),
    (INT, TENSOR),
]


@pytest.mark.parametrize(("sub", "sup"), SUBTYPES, ids=lambda t: str(t))
def test_is_subtype(sub, sup):
    assert sub.is_subtype_of(sup)


@pytest.mark.parametrize(("sub", "sup"), NOT_SUBTYPES, ids=lambda t: str(t))
def test_is_not_subtype(sub, sup):
    assert not sub.is_subtype_of(sup)


def test_class_types_compare_by_name():
    a1, a2 = ClassType("__torch__.A"), ClassType("__torch__.A")
    a1.add_attribute("w", TENSOR, is_parameter=True)
    assert a1 == a2 and hash(a1) == hash(a2)
    assert a1.name == "A"
    assert a1.attribute_slot("w") == 0
    assert ListType(a1) == ListType(a2)


def test_interfaces_are_structural():
    iface = InterfaceType("__torch__.I", ["forward"])
    good, bad = ClassType("__torch__.Good"), ClassType("__torch__.Bad")
    good.methods["forward"] = object()
    bad.methods["other"] = object()
    assert good.is_subtype_of(iface)
    assert not bad.is_subtype_of(iface)


# ---------------------------------------------------------------------------
# Unification


def test_unify_merges_tensor_refinements():
    a = TensorType.create_contiguous(S.Float, CPU, [2, 3], requires_grad=False)
    b = TensorType.create_contiguous(S.Float, CPU, [2, 4], requires_grad=True)
    u = unify_types(a, b)
    assert u == TensorType(S.Float, CPU, None, [2, None], [None, 1])
    assert a.is_subtype_of(u) and b.is_subtype_of(u)
    # different ranks keep only what agrees
    assert unify_types(TensorType(S.Float, sizes=[2]), TensorType(S.Float, sizes=[2, 2])) == (
        TensorType(S.Float)
    )
    assert unify_types(TensorType(S.Float), TensorType(S.Int)) == TENSOR


def test_unify_with_a_subtype_returns_the_supertype():
    assert unify_types(INT, NUMBER) is NUMBER
    assert unify_types(OptionalType(INT), INT) == OptionalType(INT)
    assert unify_types(INT, INT) is INT


def test_unify_creates_optionals():
    assert unify_types(INT, NONE) == OptionalType(INT)
    assert unify_types(NONE, TENSOR) == OptionalType(TENSOR)
    assert unify_types(OptionalType(TensorType(S.Float)), TensorType(S.Int)) == OptionalType(TENSOR)
    assert unify_types(NONE, NONE) is NONE


def test_unify_tuples_elementwise():
    a = TupleType([INT, TensorType(S.Float, sizes=[2])])
    b = TupleType([NONE, TensorType(S.Float, sizes=[3])])
    assert unify_types(a, b) == TupleType([OptionalType(INT), TensorType(S.Float, sizes=[None])])
    assert unify_types(TupleType([INT]), TupleType([INT, INT])) is None
    assert unify_types(TupleType([INT]), TupleType([STR])) is None


def test_unify_futures_elementwise():
    assert unify_types(FutureType(INT), FutureType(NONE)) == FutureType(OptionalType(INT))


def test_unify_mutable_containers_only_through_unshaped_types():
    # lists are invariant: refined tensors unify by forgetting refinements ...
    assert unify_types(ListType(TensorType(S.Float)), ListType(TensorType(S.Int))) == ListType(
        TENSOR
    )
    assert unify_types(
        DictType(STR, TensorType(S.Float)), DictType(STR, TensorType(S.Int))
    ) == DictType(STR, TENSOR)
    # ... but element types that differ otherwise do not unify
    assert unify_types(ListType(INT), ListType(FLOAT)) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [(INT, STR), (INT, FLOAT), (TENSOR, INT), (DictType(STR, INT), DictType(INT, INT))],
)
def test_unify_failure_is_none(a, b):
    assert unify_types(a, b) is None


def test_unify_options():
    assert unify_types(INT, STR, default_to_union=True) == UnionType.create([INT, STR])
    assert unify_types(INT, FLOAT, type_hint=NUMBER) is NUMBER
    assert unify_types(INT, STR, type_hint=NUMBER) is None


def test_unify_type_list():
    assert unify_type_list([INT, NONE, INT]) == OptionalType(INT)
    assert unify_type_list([INT, STR]) is None
    assert unify_type_list([]) is None


def test_union_create_flattens_and_simplifies():
    assert UnionType.create([INT, INT]) is INT
    assert UnionType.create([INT, NONE]) == OptionalType(INT)
    assert UnionType.create([INT, OptionalType(STR)]) == UnionType([INT, STR, NONE])
    assert UnionType.create([UnionType([INT, STR]), FLOAT]) == UnionType([INT, STR, FLOAT])
    # members that are subtypes of others collapse into them
    assert UnionType.create([TensorType(S.Float), TENSOR]) == TENSOR
    assert OptionalType.create(OptionalType(INT)) == OptionalType(INT)
    assert OptionalType.create(NONE) is NONE


def test_unshaped_and_map_types():
    refined = TensorType(S.Float, sizes=[2])
    t = DictType(STR, TupleType([refined, ListType(OptionalType(refined))]))
    assert unshaped_type(t) == DictType(STR, TupleType([TENSOR, ListType(OptionalType(TENSOR))]))
    seen = []
    map_types(t, lambda x: seen.append(str(x)) or x)
    assert seen[-1] == str(t)
    assert seen.count("Float(2)") == 2
    assert map_types(ListType(INT), lambda x: FLOAT if x == INT else x) == ListType(FLOAT)


def test_tensor_type_helpers():
    assert contiguous_strides([2, 3, 4]) == (12, 4, 1)
    assert contiguous_strides([0, 3]) == (3, 1)
    assert contiguous_strides([]) == ()
    t = TensorType.create_contiguous(S.Float, CPU, [2, 3])
    assert t.is_complete() and t.dim() == 2
    assert not TensorType(S.Float, sizes=[2, None]).is_complete()
    assert t.dimensioned_only() == TensorType(S.Float, CPU, None, [None, None])
    assert t.with_rank(1) == TensorType(S.Float, CPU, None, [None])
    assert t.with_scalar_type(S.Int).scalar_type is S.Int
    assert TENSOR.is_plain() and not t.is_plain()
    with pytest.raises(ValueError, match="same rank"):
        TensorType(sizes=[1, 2], strides=[1])


def test_devices():
    assert Device("cuda:1") == Device("cuda", 1)
    assert str(Device("cuda:1")) == "cuda:1"
    assert repr(Device("cpu")) == "device(type='cpu')"
    assert repr(Device("cuda", 0)) == "device(type='cuda', index=0)"
    with pytest.raises(ValueError):
        Device("tpu")
    with pytest.raises(ValueError):
        Device("cuda:x")


def test_singletons_and_structural_equality():
    assert IntType() is IntType.get()
    assert ListType(INT) == ListType(IntType()) and hash(ListType(INT)) == hash(ListType(INT))
    assert ListType(INT) != OptionalType(INT)
    assert TupleType([INT], names=["a"]) != TupleType([INT])
    assert TensorType(S.Float, sizes=[2]) == TensorType(S.Float, sizes=(2,))


# ---------------------------------------------------------------------------
# parse_type


PRINTED_FORMS = [
    "Tensor",
    "Float(*, *)",
    "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)",
    "Float(*, 4, requires_grad=1, device=cuda:0)",
    "FloatTensor(requires_grad=0)",
    "LongTensor",
    "Tensor()",
    "Float()",
    "Bool(requires_grad=0, device=cpu)",
    "Tensor(requires_grad=0)",
    "Tensor(device=cpu)",
    "Tensor[Undefined]",
    "Float(2)[Undefined]",
    "int[]",
    "Tensor[][]",
    "Tensor?",
    "int[]?",
    "int?[]",
    "Float(*, *)[]?",
    "(Tensor, int)",
    "()",
    "((int, str), Tensor?)",
    "NamedTuple(a : int, b : Tensor)",
    "Dict(str, Tensor)",
    "Dict(int, Dict(str, float[]))",
    "Future[Tensor]",
    "Future[int]?",
    "RRef[int]",
    "Union(int, str)",
    "Union(int, str, NoneType)",
    "Scalar",
    "NoneType",
    "Any",
    "Device",
    "Layout",
    "ScalarType",
    "Function",
    "__torch__.M",
    "__torch__.a.b.C[]",
    "complex",
]


@pytest.mark.parametrize("text", PRINTED_FORMS)
def test_parse_type_round_trips_printed_forms(text):
    t = parse_type(text)
    assert str(t) == text
    assert parse_type(str(t)) == t


def test_parse_type_builds_the_right_types():
    assert parse_type("Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)") == (
        TensorType.create_contiguous(S.Float, CPU, [2, 3], requires_grad=False)
    )
    assert parse_type("FloatTensor(requires_grad=0)") == TensorType(S.Float, requires_grad=False)
    assert parse_type("FloatTensor").sizes is None
    assert parse_type("Tensor()").dim() == 0
    assert parse_type("Float()").dim() == 0
    assert parse_type("Bool(requires_grad=0, device=cpu)").dim() == 0
    assert parse_type("Tensor(requires_grad=0)").sizes is None
    assert parse_type("Float(*, 3)").sizes == (None, 3)
    assert parse_type("Tensor[Undefined]") == TensorType(undefined=True)
    assert parse_type("(int, str)") == TupleType([INT, STR])
    assert parse_type("int?[]") == ListType(OptionalType(INT))
    assert parse_type("NamedTuple(a : int)").names == ("a",)
    m = parse_type("__torch__.M")
    assert isinstance(m, ClassType) and m.is_module
    assert parse_type("Scalar") is NUMBER


@pytest.mark.parametrize(
    ("annotation", "printed"),
    [
        ("List[int]", "int[]"),
        ("Optional[Tensor]", "Tensor?"),
        ("Tuple[int, str]", "(int, str)"),
        ("Tuple[()]", "()"),
        ("Dict[str, List[int]]", "Dict(str, int[])"),
        ("Union[int, str]", "Union(int, str)"),
        ("Union[int, None]", "int?"),
        ("Optional[Optional[int]]", "int?"),
        ("number", "Scalar"),
        ("Future[Tuple[int]]", "Future[(int)]"),
    ],
)
def test_parse_type_reads_annotations(annotation, printed):
    t = parse_type(annotation)
    assert str(t) == printed
    assert parse_type(t.annotation_str()) == t


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("Tensr", 1, "unknown type 'Tensr'"),
        ("int[", 4, "expected end of the type"),
        ("Dict(int)", 1, "Dict takes 2 type arguments, got 1"),
        ("List[int, str]", 1, "List takes 1 type argument, got 2"),
        ("Float(2, strides=[1, 1])", 10, "2 strides given for 1 sizes"),
        ("Float(2, requires_grad=2)", 24, "requires_grad must be 0 or 1"),
        ("Float(2, device=tpu)", 17, "unknown device type 'tpu'"),
        ("Float(2, color=1)", 10, "expected a size"),
        ("Float(-1)", 7, "expected a size"),
        ("(int, str", 10, "expected ',' or ')'"),
        ("int int", 5, "expected end of the type"),
        ("", 1, "expected a type"),
    ],
)
def test_parse_type_errors(text, column, message):
    with pytest.raises(IRParseError) as info:
        parse_type(text)
    err = info.value
    assert (err.line, err.column) == (1, column)
    assert message in err.message
    assert text in str(err)
