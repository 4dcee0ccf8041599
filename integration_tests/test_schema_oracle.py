"""ts-schema against PyTorch itself: overload choices, schema parsing, the catalogue.

Overload resolution: each case is a small function `torch.jit.script`
compiles; the schema of the node it makes for the operator must be the one
`ts_schema` picks for the same argument types. Parsing: hand-written schemas
print and report their fields as `torch._C.parse_schema` does, and malformed
ones are rejected by both. The catalogue must list `_jit_get_all_schemas()`
in torch's order.
"""

from __future__ import annotations

import importlib.util
import itertools
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from ts_ir import Graph, parse_type  # noqa: E402
from ts_schema import SchemaParseError, insert_call, parse_schema  # noqa: E402

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning"),
]

# (Python expression over the parameters, operator, parameters, arguments, keyword arguments).
# A string argument naming a parameter stands for that input; other values are constants.
CALLS = [
    ("a + b", "aten::add", "a: Tensor, b: Tensor", ["a", "b"], {}),
    ("torch.add(a, b)", "aten::add", "a: Tensor, b: int", ["a", "b"], {}),
    ("a + b", "aten::add", "a: int, b: int", ["a", "b"], {}),
    ("a + b", "aten::add", "a: float, b: int", ["a", "b"], {}),
    ("a + b", "aten::add", "a: int, b: float", ["a", "b"], {}),
    ("a + b", "aten::add", "a: str, b: str", ["a", "b"], {}),
    ("a + b", "aten::add", "a: List[int], b: List[int]", ["a", "b"], {}),
    ("a + b", "aten::add", "a: bool, b: int", ["a", "b"], {}),
    ("torch.add(a, b, alpha=2)", "aten::add", "a: Tensor, b: Tensor", ["a", "b"], {"alpha": 2}),
    ("torch.add(a, 1.5)", "aten::add", "a: Tensor", ["a", 1.5], {}),
    ("a * b", "aten::mul", "a: Tensor, b: Tensor", ["a", "b"], {}),
    ("a * b", "aten::mul", "a: Tensor, b: float", ["a", "b"], {}),
    ("a * b", "aten::mul", "a: int, b: float", ["a", "b"], {}),
    ("a * b", "aten::mul", "a: List[int], b: int", ["a", "b"], {}),
    ("a / b", "aten::div", "a: Tensor, b: Tensor", ["a", "b"], {}),
    ("a / b", "aten::div", "a: int, b: int", ["a", "b"], {}),
    ("a / b", "aten::div", "a: Tensor, b: float", ["a", "b"], {}),
    ("a / b", "aten::div", "a: float, b: float", ["a", "b"], {}),
    (
        "torch.div(a, b, rounding_mode='floor')",
        "aten::div",
        "a: Tensor, b: Tensor",
        ["a", "b"],
        {"rounding_mode": "floor"},
    ),
    ("torch.max(a)", "aten::max", "a: Tensor", ["a"], {}),
    ("torch.max(a, dim=1)", "aten::max", "a: Tensor", ["a"], {"dim": 1}),
    ("torch.max(a, 1, True)", "aten::max", "a: Tensor", ["a", 1, True], {}),
    ("torch.max(a, b)", "aten::max", "a: Tensor, b: Tensor", ["a", "b"], {}),
    ("max(a, b)", "prim::max", "a: int, b: int", ["a", "b"], {}),
    ("max(a, b)", "prim::max", "a: float, b: int", ["a", "b"], {}),
    ("max(a)", "prim::max", "a: List[int]", ["a"], {}),
    ("max(a)", "prim::max", "a: List[float]", ["a"], {}),
    ("torch.clamp(a, min=0.)", "aten::clamp", "a: Tensor", ["a"], {"min": 0.0}),
    ("torch.clamp(a, 0, 1)", "aten::clamp", "a: Tensor", ["a", 0, 1], {}),
    ("torch.clamp(a, b)", "aten::clamp", "a: Tensor, b: Tensor", ["a", "b"], {}),
    ("torch.clamp(a, max=b)", "aten::clamp", "a: Tensor, b: Tensor", ["a"], {"max": "b"}),
    ("torch.sum(a)", "aten::sum", "a: Tensor", ["a"], {}),
    ("torch.sum(a, [0])", "aten::sum", "a: Tensor", ["a", [0]], {}),
    ("torch.sum(a, 0)", "aten::sum", "a: Tensor", ["a", 0], {}),
    ("torch.sum(a, [])", "aten::sum", "a: Tensor", ["a", []], {}),
    (
        "torch.sum(a, dim=0, keepdim=True)",
        "aten::sum",
        "a: Tensor",
        ["a"],
        {"dim": 0, "keepdim": True},
    ),
    ("sum(a)", "aten::sum", "a: List[int]", ["a"], {}),
    ("sum(a)", "aten::sum", "a: List[float]", ["a"], {}),
    ("torch.cat(a, 0)", "aten::cat", "a: List[Tensor]", ["a", 0], {}),
    ("torch.cat(a)", "aten::cat", "a: List[Tensor]", ["a"], {}),
    ("torch.cat([a, b], 1)", "aten::cat", "a: Tensor, b: Tensor", [["a", "b"], 1], {}),
    ("a[0]", "aten::__getitem__", "a: List[int]", ["a", 0], {}),
    ("a[0]", "aten::__getitem__", "a: List[Tensor]", ["a", 0], {}),
    ("a['x']", "aten::__getitem__", "a: Dict[str, int]", ["a", "x"], {}),
    ("a[1]", "aten::__getitem__", "a: Dict[int, Tensor]", ["a", 1], {}),
    ("a[0]", "aten::__getitem__", "a: str", ["a", 0], {}),
    ("len(a)", "aten::len", "a: List[int]", ["a"], {}),
    ("len(a)", "aten::len", "a: List[Tensor]", ["a"], {}),
    ("len(a)", "aten::len", "a: str", ["a"], {}),
    ("len(a)", "aten::len", "a: Dict[str, int]", ["a"], {}),
    ("len(a)", "aten::len", "a: Tensor", ["a"], {}),
    ("a.append(b)", "aten::append", "a: List[Tensor], b: Tensor", ["a", "b"], {}),
    ("a.append(b)", "aten::append", "a: List[int], b: int", ["a", "b"], {}),
    ("torch.zeros([a, 2])", "aten::zeros", "a: int", [["a", 2]], {}),
    ("torch.zeros(a, 2)", "aten::zeros", "a: int", ["a", 2], {}),
    ("torch.zeros(a)", "aten::zeros", "a: List[int]", ["a"], {}),
    ("torch.ones(a, dtype=torch.float64)", "aten::ones", "a: List[int]", ["a"], {"dtype": 7}),
    ("a.view(b, -1)", "aten::view", "a: Tensor, b: int", ["a", "b", -1], {}),
    ("a.to('cpu')", "aten::to", "a: Tensor", ["a", "cpu"], {}),
    ("a.to(torch.float64)", "aten::to", "a: Tensor", ["a", 7], {}),
    ("a == b", "aten::eq", "a: List[int], b: List[int]", ["a", "b"], {}),
    ("a == b", "aten::eq", "a: Tensor, b: int", ["a", "b"], {}),
    ("a == b", "aten::eq", "a: str, b: str", ["a", "b"], {}),
    ("a < b", "aten::lt", "a: int, b: float", ["a", "b"], {}),
    ("torch.softmax(a, 1)", "aten::softmax", "a: Tensor", ["a", 1], {}),
    ("torch.max_pool2d(a, 2)", "aten::max_pool2d", "a: Tensor", ["a", 2], {}),
    ("torch.conv2d(a, b)", "aten::conv2d", "a: Tensor, b: Tensor", ["a", "b"], {}),
    (
        "torch.conv2d(a, b, padding='same')",
        "aten::conv2d",
        "a: Tensor, b: Tensor",
        ["a", "b"],
        {"padding": "same"},
    ),
    ("torch.where(a, b, 0.)", "aten::where", "a: Tensor, b: Tensor", ["a", "b", 0.0], {}),
    ("torch.pow(a, 2)", "aten::pow", "a: Tensor", ["a", 2], {}),
    ("a ** b", "aten::pow", "a: int, b: int", ["a", "b"], {}),
    ("a ** b", "aten::pow", "a: float, b: int", ["a", "b"], {}),
    ("torch.tensor(a)", "aten::tensor", "a: List[int]", ["a"], {}),
    ("torch.full([2], a)", "aten::full", "a: float", [[2], "a"], {}),
    ("torch.arange(a)", "aten::arange", "a: int", ["a"], {}),
    ("torch.arange(0., a)", "aten::arange", "a: float", [0.0, "a"], {}),
    ("torch.mean(a, [1])", "aten::mean", "a: Tensor", ["a", [1]], {}),
    ("a.size(0)", "aten::size", "a: Tensor", ["a", 0], {}),
    ("a.size()", "aten::size", "a: Tensor", ["a"], {}),
    ("str(a)", "aten::str", "a: int", ["a"], {}),
    ("float(a)", "aten::Float", "a: Tensor", ["a"], {}),
    ("int(a)", "aten::Int", "a: float", ["a"], {}),
    ("a.split(2)", "aten::split", "a: Tensor", ["a", 2], {}),
    ("a.split([1, 2])", "aten::split", "a: Tensor", ["a", [1, 2]], {}),
    ("a.split(',')", "aten::split", "a: str", ["a", ","], {}),
    ("a.get('k', 1)", "aten::get", "a: Dict[str, int]", ["a", "k", 1], {}),
    ("a.pop()", "aten::pop", "a: List[int]", ["a"], {}),
    ("a.insert(0, b)", "aten::insert", "a: List[int], b: int", ["a", 0, "b"], {}),
    ("a.reshape(b)", "aten::reshape", "a: Tensor, b: List[int]", ["a", "b"], {}),
    ("a.permute(1, 0)", "aten::permute", "a: Tensor", ["a", 1, 0], {}),
    ("abs(a)", "prim::abs", "a: float", ["a"], {}),
    ("min(a, b)", "prim::min", "a: int, b: float", ["a", "b"], {}),
    ("a // b", "aten::floordiv", "a: int, b: int", ["a", "b"], {}),
    ("a % b", "aten::remainder", "a: int, b: int", ["a", "b"], {}),
    ("a.masked_fill(b, 0.)", "aten::masked_fill", "a: Tensor, b: Tensor", ["a", "b", 0.0], {}),
    ("bool(a)", "aten::Bool", "a: Tensor", ["a"], {}),
    ("math.sqrt(a)", "aten::sqrt", "a: int", ["a"], {}),
    ("torch.topk(a, 2)", "aten::topk", "a: Tensor", ["a", 2], {}),
    ("torch.min(a, 0)", "aten::min", "a: Tensor", ["a", 0], {}),
    ("a.add_(1)", "aten::add_", "a: Tensor", ["a", 1], {}),
    ("torch.squeeze(a, 0)", "aten::squeeze", "a: Tensor", ["a", 0], {}),
    ("round(a)", "aten::round", "a: float", ["a"], {}),
    ("math.floor(a)", "aten::floor", "a: float", ["a"], {}),
    ("math.log(a)", "aten::log", "a: int", ["a"], {}),
    ("a in b", "aten::__contains__", "a: int, b: List[int]", ["b", "a"], {}),
    ("a in b", "aten::__contains__", "a: str, b: Dict[str, int]", ["b", "a"], {}),
    (
        "torch.einsum('ij,jk->ik', [a, b])",
        "aten::einsum",
        "a: Tensor, b: Tensor",
        ["ij,jk->ik", ["a", "b"]],
        {},
    ),
]

_counter = itertools.count()


def _split_parameters(signature: str) -> list[tuple[str, str]]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(signature + ","):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            name, annotation = signature[start:i].split(":", 1)
            parts.append((name.strip(), annotation.strip()))
            start = i + 1
    return parts


def torch_choice(tmp_path: Path, expr: str, op: str, signature: str) -> str:
    """The schema of the last `op` node in the graph TorchScript makes of `expr`."""
    name = f"tsjit_oracle_case_{next(_counter)}"
    path = tmp_path / f"{name}.py"
    path.write_text(
        "import math\nfrom typing import Dict, List, Tuple\nimport torch\nfrom torch import Tensor\n"
        f"def f({signature}):\n    return {expr}\n"
    )
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    graph = torch.jit.script(module.f).graph
    schemas = [str(n.schema()) for n in graph.nodes() if n.kind() == op]
    assert schemas, f"TorchScript made no {op} node for {expr}:\n{graph}"
    return schemas[-1]


def our_choice(op: str, signature: str, args: list, kwargs: dict) -> str:
    graph = Graph()
    env = {n: graph.add_input(n, parse_type(t)) for n, t in _split_parameters(signature)}

    def resolve(x):
        if isinstance(x, str) and x in env:
            return env[x]
        if isinstance(x, list):
            return [resolve(e) for e in x]
        return x

    insert_call(graph, op, [resolve(a) for a in args], {k: resolve(v) for k, v in kwargs.items()})
    (node,) = [n for n in graph.nodes() if n.kind == op]
    return str(node.schema())


@pytest.mark.parametrize(
    ("expr", "op", "signature", "args", "kwargs"),
    CALLS,
    ids=[f"{c[0]} [{c[2]}]" for c in CALLS],
)
def test_overload_choice_matches_torchscript(tmp_path, expr, op, signature, args, kwargs):
    assert our_choice(op, signature, args, kwargs) == torch_choice(tmp_path, expr, op, signature)


# ---------------------------------------------------------------------------
# Parsing hand-written schemas

SCHEMAS = [
    'foo::bar(int[2] k=1, int[2] l=[1, 2], float[2] m=1.5, Scalar n=-1e3, str o="a\\"b\\n", '
    "ScalarType p=float, MemoryFormat q=contiguous_format, int r=Mean, Tensor? s=None, *, "
    "Device? d=None, complex c=1j, bool[3] b=[True, False, True], float? f=1, "
    "float[] fl=[1, 2.5]) -> Tensor",
    "foo::bar(Tensor(a!)[] d, Tensor[](b!) e, t(c -> *) f, Tensor(a!)? j, SymInt[1]? s=None) "
    "-> (Tensor(a) x, Tensor y)",
    "foo::bar(Tensor! g) -> Tensor",
    "foo::bar(SymInt a, SymBool c, Dict(str, t)(a) d, Future(t) f, RRef(t) r) -> t",
    "foo::bar.over(...) -> ...",
    "foo::bar(Tensor a, ...) -> (Tensor, ...)",
    "foo::bar() -> ()",
    "foo::bar(Dict(str, t) self) -> ((str, t)[])",
    "foo::bar() -> ((int, int))",
    "foo::bar(Tensor x, *, ScalarType? dtype=float64, Layout? layout=strided) -> Tensor",
    "foo::bar(Any x, AnyEnumType e, Storage s, Stream st, Generator? g=None) -> NoneType",
    "foo::bar(str? s=\"x\", str t='y', int[] u=[], float v=-0.5, float w=1e-05) -> str",
]


def _fields(arg) -> tuple:
    alias = arg.alias_info
    alias_fields = (
        None
        if alias is None
        else (sorted(alias.before_set), sorted(alias.after_set), alias.is_write)
    )
    return (
        arg.name,
        arg.type.annotation_str() if callable(arg.type.annotation_str) else arg.type.annotation_str,
        arg.kwarg_only,
        arg.is_out,
        arg.N,
        repr(arg.default_value) if _has_default(arg) else None,
        alias_fields,
    )


def _has_default(arg) -> bool:
    has = arg.has_default_value
    return has() if callable(has) else has


def _torch_fields(arg) -> tuple:
    alias = arg.alias_info
    alias_fields = (
        None
        if alias is None
        else (
            sorted(s.split("::")[-1] for s in alias.before_set),
            sorted(s.split("::")[-1] for s in alias.after_set),
            alias.is_write,
        )
    )
    return (
        arg.name,
        arg.type.annotation_str,
        arg.kwarg_only,
        arg.is_out,
        arg.N,
        repr(arg.default_value) if arg.has_default_value() else None,
        alias_fields,
    )


@pytest.mark.parametrize("text", SCHEMAS)
def test_parsing_agrees_with_torch(text):
    ours = parse_schema(text)
    theirs = torch._C.parse_schema(text)
    assert str(ours) == str(theirs)
    assert [_fields(a) for a in ours.arguments] == [_torch_fields(a) for a in theirs.arguments]
    assert [_fields(r) for r in ours.returns] == [_torch_fields(r) for r in theirs.returns]
    assert ours.is_mutable == theirs.is_mutable


MALFORMED = [
    "foo::bar(Tensor a=1) -> Tensor",
    "foo::bar(int a=1, int b) -> Tensor",
    "foo::bar(..., int a) -> Tensor",
    "foo::bar(int a=1, ...) -> Tensor",
    "foo::bar.default(Tensor a) -> Tensor",
    "foo::bar.__x(Tensor a) -> Tensor",
    "foo::bar(Tensor a) -> (..., Tensor)",
    "foo::bar(Tensor a)",
    "foo::bar(Tensor a) -> Tensor extra stuff",
    "foo::bar(Tensor(a a) -> Tensor",
    "foo::bar(Dimname a) -> Tensor",
    "foo::bar(int[] a=[1.5]) -> Tensor",
    "foo::bar(str[] a=['x']) -> Tensor",
    "foo::bar(int a=foo) -> Tensor",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_schemas_are_rejected_by_both(text):
    with pytest.raises(RuntimeError):
        torch._C.parse_schema(text)
    with pytest.raises(SchemaParseError):
        parse_schema(text)


# ---------------------------------------------------------------------------
# The catalogue


def test_catalogue_is_torchs_schema_list_in_order():
    path = (
        Path(__file__).parents[1]
        / "packages"
        / "ts-schema"
        / "src"
        / "ts_schema"
        / "catalogue"
        / "torch_schemas.txt"
    )
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    # Asked of a fresh interpreter: scripting code in this process (other tests do) makes
    # PyTorch register more schemas as it goes.
    listing = subprocess.run(
        [sys.executable, "-c", _LIST_SCHEMAS], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert lines == listing


_LIST_SCHEMAS = "import torch\nfor s in torch._C._jit_get_all_schemas():\n    print(s)\n"
