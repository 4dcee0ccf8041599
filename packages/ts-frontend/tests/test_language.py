"""The script language: each construct compiles and computes what Python computes.

Every function here is scripted and run on a few inputs; results are
compared with calling the Python function itself.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pytest
import ts_runtime as torch
from ts_frontend import annotate, fork, script, wait


def same(a, b) -> bool:
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return (
            isinstance(a, torch.Tensor)
            and isinstance(b, torch.Tensor)
            and a.shape == b.shape
            and np.allclose(a.detach().numpy(), b.detach().numpy())
        )
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9)
    return a == b and type(a) is type(b)


def check(fn, *args):
    compiled = script(fn)
    got = compiled(*copy.deepcopy(args))
    want = fn(*copy.deepcopy(args))
    assert same(got, want), f"{fn.__name__}{args}: got {got!r}, want {want!r}"
    return compiled


X = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])


# -- loops


def loops(n: int, xs: list[int], d: dict[str, int], s: str, t):
    total = 0
    for i in range(n):
        total += i
    for i in range(1, n):
        total += i
    for i in range(n, 0, -1):
        total -= i
    for x in xs:
        total += x
    for k in d:
        total += d[k]
    for ch in s:
        total += len(ch)
    for row in t:
        total += row.numel()
    for i, x in enumerate(xs):
        total += i * x
    for i, _x in enumerate(xs, 3):
        total += i
    for a, b in zip(xs, xs, strict=False):
        total += a * b
    for _v in (1, 2.5, "x"):
        total += 1
    while total > 100:
        total -= 7
    return total


def test_loops():
    for n in (0, 4, 9):
        check(loops, n, [1, 2, 3], {"a": 1, "b": 2}, "abc", X)


def exits(n: int) -> int:
    for i in range(n):
        if i == 3:
            return i * 10
        if i == 5:
            break
    k = 0
    while True:
        k += 1
        if k > 4:
            return k
    return -1


def nested_exits(xs: list[int]) -> int:
    found = -1
    for i in range(len(xs)):
        for j in range(len(xs)):
            if xs[i] + xs[j] == 10:
                found = i * 100 + j
                break
            if xs[j] < 0:
                continue
        if found >= 0:
            break
    return found


def test_break_continue_return_anywhere():
    for n in (0, 2, 4, 8):
        check(exits, n)
    for xs in ([1, 9, 3], [5, -1, 7], [1, 2]):
        check(nested_exits, xs)


# -- expressions


def comprehensions(n: int):
    a = [i * 2 for i in range(n) if i % 2 == 0]
    b = {str(i): i for i in range(n) if i > 1}
    c = [x + y for x in range(2) for y in range(3)]
    return a, b, c


def conditionals(a: int, b: int, c: int):
    return a < b < c, a == b != c, not (a < b), a in [1, 2], a not in [1, 2], (a if a > b else b)


def test_comprehensions_and_conditions():
    check(comprehensions, 5)
    for args in ((1, 2, 3), (3, 2, 1), (2, 2, 5)):
        check(conditionals, *args)


def strings(s: str, n: int):
    return (
        f"{s}-{n}!",
        s.upper(),
        s.replace("a", "b"),
        s.strip(),
        ",".join([s, s]),
        s[1:],
        s[0],
        len(s),
        str(n) + "x",
        s.startswith("ab"),
        s.split("b"),
        "a" in s,
        "ca" not in s,
        "" in s,
    )


def maths(a: float, b: int):
    return (
        math.sqrt(a),
        math.floor(a),
        math.ceil(a),
        math.pi * b,
        math.exp(b),
        math.log(a),
        abs(-b),
        min(a, 2.0),
        max(b, 3),
        divmod(b, 3),
        int(a),
        float(b),
        bool(b),
        b // 2,
        b % 3,
        a**2,
        -a,
        a / 2,
    )


def test_strings_and_math():
    check(strings, "abca", 7)
    check(strings, "xyz", 0)
    check(maths, 2.5, 7)


def builtins_(xs: list[int]):
    return len(xs), sorted(xs), sum(xs), min(xs), max(xs), isinstance(xs, list), list(range(3))


def test_builtins(capsys):
    check(builtins_, [3, 1, 2])


def printing(x: int):
    print("value", x)
    return x


def test_print(capsys):
    script(printing)(5)
    assert "value 5" in capsys.readouterr().out


def indexing(x, i: int):
    a = x[..., 1]
    b = x[None, 0]
    c = x[-1]
    d = x[:, 1:3]
    e = x[i]
    g = x[:, ::2]
    x[0, 1] = 7.0
    x[1] += 1
    f = x[x > 0]
    return a, b, c, d, e, f, g, x


def test_indexing_and_assignment():
    check(indexing, X.clone(), 1)


def slice_calls(x, xs: list[int], s: str, n: int):
    return (
        x[slice(None, 1), slice(1, None, 2)],
        x[slice(1), ...],
        xs[slice(n)],
        xs[slice(1, None)],
        xs[slice(None, None, -1)],
        s[slice(1, n, 2)],
        x[Ellipsis, 0],
    )


def test_slice_calls_index_as_slices():
    check(slice_calls, X.clone(), [1, 2, 3, 4, 5], "abcdef", 4)


def augmented(a: int, b: float, xs: list[int], t):
    a += 1
    a -= 2
    a *= 3
    a //= 2
    a %= 5
    a <<= 1
    a >>= 1
    a |= 8
    a &= 12
    a ^= 3
    b += 1.5
    b -= 0.5
    b *= 2
    b /= 4
    b **= 2
    b //= 1.0
    xs += [1]
    t += 1
    t *= 2
    return a, b, xs, t


def test_every_augmented_assignment():
    check(augmented, 5, 2.0, [1], X.clone())


def tuples(t: tuple[int, tuple[float, str]]):
    a, (b, c) = t
    (x, y), z = (1, 2), 3
    return a + x + y + z, b, c, t[1][1], len(t), t[-1]


def deletes(xs: list[int], d: dict[str, int]):
    del xs[0]
    del d["a"]
    return xs, d


def test_tuples_and_del():
    check(tuples, (1, (2.0, "s")))
    check(deletes, [1, 2, 3], {"a": 1, "b": 2})


def refine(x: int | None, u: int | str | None):
    r = 0
    if x is not None and x > 1:
        r += x
    if isinstance(u, int):
        r += u
    elif isinstance(u, str):
        r += len(u)
    y = x if x is not None else 5
    return r, y


def test_refinement():
    for args in ((3, "hello"), (None, 4), (0, None)):
        check(refine, *args)


class Oops(Exception):
    pass


def raises(x: int):
    assert x != 3, f"three {x}"
    if x < 0:
        raise ValueError(f"negative {x}")
    if x == 0:
        raise Oops("zero")
    if x == 1:
        raise RuntimeError
    return x


def test_raise_keeps_the_exception_class():
    fn = script(raises)
    assert fn(5) == 5
    with pytest.raises(AssertionError, match="three 3"):
        fn(3)
    with pytest.raises(ValueError, match="negative -2"):
        fn(-2)
    with pytest.raises(Oops, match="zero"):
        fn(0)
    with pytest.raises(RuntimeError):
        fn(1)
    assert "builtins.ValueError" in str(fn.graph)


def annotated(n: int):
    xs = annotate(list[int], [])
    ys = []  # type: List[float]
    zs: dict[str, list[int]] = {}
    for i in range(n):
        xs.append(i)
        ys.append(float(i))
        zs[str(i)] = [i]
    return xs, ys, zs


def type_comment(x, n):
    # type: (Tensor, int) -> Tensor
    return x * n


def test_annotations_and_type_comments():
    check(annotated, 3)
    fn = check(type_comment, X, 3)
    assert [a.type.annotation_str() for a in fn.schema.arguments] == ["Tensor", "int"]


def forked(x):
    return x * 2


def forks(x):
    futs = [fork(forked, x), fork(forked, x + 1)]
    return wait(futs[0]) + wait(futs[1])


def test_fork_and_wait():
    fn = check(forks, X)
    assert "prim::fork" in str(fn.graph)


def grad_mode(x):
    with torch.no_grad():
        y = x * 2
    return y, torch.is_grad_enabled()


def test_with_no_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y, enabled = script(grad_mode)(x)
    assert not y.requires_grad and enabled


def defaults(x, n: int = 2, *, scale: float = 1.5):
    return x * n * scale


def calls_defaults(x):
    return defaults(x) + defaults(x, 3, scale=2.0)


def test_calls_with_defaults_and_keywords():
    fn = check(calls_defaults, X)
    assert str(fn.graph).count("prim::CallFunction") == 2
    inlined = fn.inlined_graph
    assert "prim::CallFunction" not in str(inlined)
    assert same(script(defaults)(X, scale=3.0), defaults(X, scale=3.0))


def tensor_ops(x):
    y = x.float() + x.double().float() + x.long().float()
    z = torch.cat([x, x], dim=0).sum(0)
    return y, z, x.size(0), x.t().contiguous(), x.view(-1), x @ x.t(), -x, 1 - x, 2 / (x + 7), 3 * x


def test_tensor_methods_and_scalar_first_operators():
    fn = check(tensor_ops, X)
    graph = str(fn.graph)
    assert "aten::to(" in graph and "aten::matmul" in graph
    assert "<string>" in graph  # `1 - x` is TorchScript's builtin `sub` inlined


def test_x_float_is_aten_to_with_dtype():
    fn = script(lambda_free_float)
    node = next(n for n in fn.graph.nodes() if n.kind == "aten::to")
    assert len(node.inputs) == 5


def lambda_free_float(x):
    return x.float()


def test_graph_for_and_schema():
    fn = script(defaults)
    assert str(fn.schema) == "defaults(Tensor x, int n=2, *, float scale=1.5) -> Tensor"
    assert fn.graph_for(X) is not None


def test_dtype_layout_and_memory_format_names_are_their_codes():
    from ts_frontend import script_source

    # codes as PyTorch 2.13's TorchScript compiles them (c10::ScalarType, Layout, MemoryFormat)
    f = script_source(
        "def f():\n"
        "    return (torch.uint16, torch.float8_e4m3fn, torch.cfloat, torch.strided,\n"
        "            torch.sparse_csc, torch.channels_last, torch.pi, torch.inf)\n"
    )
    assert f() == (27, 24, 9, 0, 4, 2, math.pi, math.inf)


def tolists(x, flags, n):
    a = annotate(list[list[float]], x.tolist())
    b: list[bool] = flags.tolist()
    c = annotate(int, n.tolist())
    return a, b, c


def test_tensor_tolist_takes_its_type_from_the_expected_type():
    check(tolists, X.clone(), torch.tensor([True, False]), torch.tensor(3))


def test_tensor_tolist_needs_a_list_of_numbers_matching_the_tensor():
    from ts_frontend.errors import FrontendTypeError
    from ts_runtime import TensorError

    def no_hint(x):
        return x.tolist()

    def strings(x) -> list[str]:
        return x.tolist()

    def wrong_dim(x) -> list[float]:
        return annotate(list[float], x.tolist())

    with pytest.raises(FrontendTypeError, match="type hint"):
        script(no_hint)
    with pytest.raises(FrontendTypeError, match="element types"):
        script(strings)
    with pytest.raises(TensorError, match="dimension"):
        script(wrong_dim)(X.clone())


def list_indices(x, rows: list[int], flags: list[bool]):
    empty: list[int] = []
    return x[rows], x[flags], x[empty, :], x.__getitem__(torch.tensor([1, 0])), dict([])


def test_lists_index_as_long_tensors_and_getitem_is_indexing():
    """As TorchScript converts them, a list index is a long tensor: a bool list indexes
    rows 1 and 0 (not a mask, as in eager PyTorch), an empty list no rows."""
    rows, flags, empty, got, d = script(list_indices)(X.clone(), [1, 0, 1], [True, False])
    assert rows.tolist() == [X.tolist()[1], X.tolist()[0], X.tolist()[1]]
    assert flags.tolist() == [X.tolist()[1], X.tolist()[0]]
    assert empty.shape == (0, 3)
    assert got.tolist() == [X.tolist()[1], X.tolist()[0]]
    assert d == {}


def any_refined(obj: Any) -> float:
    total = 0.0
    if isinstance(obj, list[float]):
        for v in obj:
            total += v
    if isinstance(obj, dict[str, int]):
        for k in obj.keys():
            total += obj[k] + len(k)
    return total


def test_isinstance_refines_an_any_to_the_checked_type():
    compiled = script(any_refined)
    assert compiled([1.5, 2.0]) == 3.5
    assert compiled({"ab": 3}) == 5.0
    assert compiled("neither") == 0.0


def starred_targets(t: tuple[int, float, str]):
    a, *b = t
    *c, d = 1, 2.0
    e, (f, *g), *h = 1, (2, 3, 4), 5, 6
    i, *j, k = t
    return a, b, c, d, e, f, g, h, i, j, k


def test_a_starred_target_takes_the_rest_as_a_tuple():
    got = script(starred_targets)((1, 2.5, "x"))
    assert got == (1, (2.5, "x"), (1,), 2.0, 1, 2, (3, 4), (5, 6), 1, (2.5,), "x")


def legacy_constructors(xs: list[float]):
    return torch.BoolTensor([2, 0]), torch.LongTensor(), torch.HalfTensor(xs), torch.IntTensor([7])


def test_legacy_tensor_constructors_make_tensors_of_their_dtype():
    flags, empty, half, ints = script(legacy_constructors)([1.5, -2.0])
    assert flags.dtype == torch.bool and flags.tolist() == [True, False]
    assert empty.dtype == torch.int64 and empty.shape == (0,)
    assert half.dtype == torch.float16 and half.tolist() == [1.5, -2.0]
    assert ints.dtype == torch.int32 and ints.tolist() == [7]


def comment_without_return(y, z):
    # type: (int, float)
    return y + z


def test_a_signature_comment_may_leave_the_return_type_out():
    compiled = check(comment_without_return, 2, 0.5)
    assert [str(i.type) for i in compiled.graph.inputs] == ["int", "float"]
    assert str(compiled.graph.outputs[0].type) == "float"


def pools(x):
    F = torch.nn.functional
    plain = F.max_pool1d(x, 2, 2, return_indices=False)
    values, indices = F.max_pool1d(x, 2, 2, 0, 1, False, True)
    return plain, values, indices, F.max_pool1d(x, 2)


def test_return_indices_picks_the_pooling_operator_with_indices():
    x = torch.tensor([[[1.0, 3.0, 2.0, 0.0, 5.0, 4.0]]])
    plain, values, indices, default = script(pools)(x)
    assert plain.tolist() == values.tolist() == default.tolist() == [[[3.0, 2.0, 5.0]]]
    assert indices.tolist() == [[[1, 2, 4]]]


def unwrap(x: int | None) -> int:
    return torch.jit._unwrap_optional(x) + 1


def test_jit_unwrap_optional_is_the_operator():
    compiled = script(unwrap)
    assert compiled(3) == 4
    with pytest.raises(Exception, match="null optional"):
        compiled(None)


def tuple_and_method_binding(a: tuple[int, float], b: tuple[int], x, y):
    c = a + b
    c += b
    return c, x.where(x > 0.0, y)


def test_tuples_concatenate_and_a_method_receiver_binds_to_self():
    c, w = script(tuple_and_method_binding)((1, 2.5), (3,), X.clone(), torch.zeros(2, 3))
    assert c == (1, 2.5, 3, 3)
    assert w.tolist() == [[1.0, 0.0, 3.0], [4.0, 5.0, 0.0]]


def scalar_kind(x):
    s = x.item()
    if isinstance(s, int):
        return s + 3
    elif isinstance(s, float):
        return int(s * 2.0)
    return 8


def test_isinstance_tells_the_kind_of_a_scalar():
    compiled = script(scalar_kind)
    assert compiled(torch.tensor(2)) == 5
    assert compiled(torch.tensor(2.5)) == 5


def dicts_of_pairs(keys: list[str], values: list[int]):
    return dict(zip(keys, values)), dict(enumerate(keys)), dict(zip(keys, [1.5]))  # noqa: B905


def test_dict_of_zip_or_enumerate_collects_the_pairs():
    check(dicts_of_pairs, ["a", "b", "c"], [1, 2, 3])


def test_ordered_dict_compiles_as_a_dict_in_insertion_order():
    # torchvision's IntermediateLayerGetter builds its outputs with `OrderedDict()`
    from collections import OrderedDict

    def layers(x: torch.Tensor) -> dict[str, torch.Tensor]:
        out = OrderedDict()
        out["b"] = x + 1
        out["a"] = x * 2
        return out

    fn = script(layers)
    assert "prim::DictConstruct" in str(fn.graph)
    got = fn(torch.ones(2))
    assert list(got) == ["b", "a"]
    assert got["a"].tolist() == [2.0, 2.0]
