"""Calling compiled code: `Function` arguments, errors, calls between functions, fork/wait, modules.

Covers argument binding (counts, types, keywords, defaults, the conversions
made on entry) and the typed errors that name the argument and the expected
type; graphs that cannot run (an unknown operator, an operator without an
implementation: `CodeError` at the first call, not at construction);
`CompilationUnit` lookups and `UnknownFunctionError`; `prim::fork` /
`aten::wait`, `InterpreterState` (resumable where it waits), `fork`/`wait`
and `Future`; and `ScriptModule` methods, state_dict round trips and
train/eval.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest
import ts_ir
import ts_runtime
from ts_ir import BoolType, ClassType, FloatType, IntType, TensorType
from ts_runtime import (
    ArgumentCountError,
    ArgumentTypeError,
    CompilationUnit,
    Function,
    Future,
    InterpreterState,
    Parameter,
    ScriptModule,
)
from ts_runtime.function import UnknownFunctionError
from ts_runtime.interpreter.code import Code, CodeError
from ts_runtime.nn import StateDictError
from ts_schema import parse_schema


def function(ir: str, **kwargs) -> Function:
    return Function("f", ts_ir.parse_ir(ir), **kwargs)


def t(values, requires_grad: bool = False) -> ts_runtime.Tensor:
    return ts_runtime.tensor(values, requires_grad=requires_grad)


def values(x: ts_runtime.Tensor) -> np.ndarray:
    return x.detach().numpy()


def completed(value) -> Future:
    fut = Future()
    fut.set_result(value)
    return fut


SCALE = """
graph(%x.1 : Tensor, %n.1 : int, %scale : float):
  %a : Tensor = aten::mul(%x.1, %n.1)
  %b : Tensor = aten::mul(%a, %scale)
  return (%b)
"""

X = [1.0, 2.0]


# ---------------------------------------------------------------------------
# argument binding


def test_parameter_names_come_from_the_graph_inputs():
    assert [p.name for p in function(SCALE).parameters] == ["x", "n", "scale"]
    unnamed = function(
        """
graph(%0 : int, %1 : int):
  %r : int = aten::add(%0, %1)
  return (%r)
"""
    )
    assert [p.name for p in unnamed.parameters] == ["arg0", "arg1"]
    assert unnamed(2, 40) == 42


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((t(X),), {}, "f() is missing a value for argument 'n'"),
        ((t(X), 1, 2.0, 3), {}, "f() takes 3 positional arguments but 4 were given"),
        ((t(X), 2), {"n": 3, "scale": 1.0}, "f() got multiple values for argument 'n'"),
        ((t(X), 2, 1.0), {"bogus": 1}, "f() got an unexpected keyword argument 'bogus'"),
    ],
    ids=["missing", "too-many", "twice", "unknown-keyword"],
)
def test_wrong_argument_counts(args, kwargs, message):
    fn = function(SCALE)
    with pytest.raises(ArgumentCountError) as info:
        fn(*args, **kwargs)
    assert str(info.value) == message
    assert isinstance(info.value, TypeError)  # as Python's own call errors are
    assert fn.executor.compiles == 0  # rejected before anything compiles


@pytest.mark.parametrize(
    ("args", "name", "expected", "found"),
    [
        ((3, 1, 2.0), "x", "Tensor", "int"),
        ((t(X), 1.5, 2.0), "n", "int", "float"),
        ((t(X), True, 2.0), "n", "int", "bool"),  # a bool is not an int here
        ((t(X), 1, "2.0"), "scale", "float", "str"),
        ((t(X), 1, None), "scale", "float", "NoneType"),
        ((np.array(X), 1, 2.0), "x", "Tensor", "ndarray"),
    ],
)
def test_wrong_argument_types_name_the_argument_and_both_types(args, name, expected, found):
    with pytest.raises(ArgumentTypeError) as info:
        function(SCALE)(*args)
    assert str(info.value) == (
        f"f() expected a value of type '{expected}' for argument '{name}' "
        f"but instead found type '{found}'"
    )
    assert isinstance(info.value, TypeError)


def test_keyword_arguments_bind_by_name():
    fn = function(SCALE)
    np.testing.assert_array_equal(values(fn(t(X), 2, scale=3.0)), [6.0, 12.0])
    np.testing.assert_array_equal(values(fn(scale=0.5, n=4, x=t(X))), [2.0, 4.0])


def test_values_are_converted_as_they_enter_a_program():
    fn = function(
        """
graph(%s : float, %xs : float[], %pair : (float, int), %d : Device, %o : int?):
  %r : (float, float[], (float, int), Device, int?) = prim::TupleConstruct(%s, %xs, %pair, %d, %o)
  return (%r)
"""
    )
    s, xs, pair, d, o = fn(2, (1, 2.5), [3, 4], "cpu", None)
    assert (s, type(s)) == (2.0, float)  # an int where a float is expected
    assert xs == [1.0, 2.5] and type(xs) is list and type(xs[0]) is float  # tuple to list
    assert pair == (3.0, 4) and type(pair) is tuple and type(pair[0]) is float
    assert d == ts_runtime.device("cpu")
    assert o is None
    assert fn(2, [], (0, 0), "cpu", 7)[4] == 7
    with pytest.raises(ArgumentTypeError, match="'Device' for argument 'd'"):
        fn(2, [], (0, 0), "not-a-device", None)
    with pytest.raises(ArgumentTypeError, match=r"'Tuple\[float, int\]' for argument 'pair'"):
        fn(2, [], (0, 0, 0), "cpu", None)


def test_numbers_enter_as_bools_where_bools_are_expected():
    """PyTorch 2.13 takes 1, 0, 2 and 1.0 for a `bool` (and `List[bool]`) argument, by
    their truth; a string stays refused."""
    fn = function(
        """
graph(%b : bool, %bs : bool[]):
  %r : (bool, bool[]) = prim::TupleConstruct(%b, %bs)
  return (%r)
"""
    )
    assert fn(2, [1, 0, 1.0, True]) == (True, [True, False, True, True])
    assert fn(0.0, []) == (False, [])
    with pytest.raises(ArgumentTypeError, match="'bool' for argument 'b'"):
        fn("a", [])


def test_one_element_tensors_enter_as_numbers():
    """PyTorch 2.13 takes a one-element tensor for an int (truncated), float or bool
    argument, inside lists too; a longer tensor stays refused."""
    fn = function(
        """
graph(%i : int, %f : float, %b : bool, %xs : int[]):
  %r : (int, float, bool, int[]) = prim::TupleConstruct(%i, %f, %b, %xs)
  return (%r)
"""
    )
    got = fn(ts_runtime.tensor(3.5), ts_runtime.tensor([2]), ts_runtime.tensor(True), [t([7.0])])
    assert got == (3, 2.0, True, [7])
    assert type(got[0]) is int and type(got[1]) is float
    with pytest.raises(ArgumentTypeError, match="'int' for argument 'i'"):
        fn(t([1.0, 2.0]), 1.0, True, [])


SCALE_SCHEMA = "f(Tensor x, int n=2, *, float scale=1.5) -> Tensor"


@pytest.mark.parametrize(
    "make",
    [
        lambda g: Function("f", g, schema=parse_schema(SCALE_SCHEMA)),
        lambda g: Function(
            "f",
            g,
            parameters=[
                Parameter("x", TensorType.get()),
                Parameter("n", IntType.get(), default=2),
                Parameter("scale", FloatType.get(), default=1.5, kwarg_only=True),
            ],
        ),
    ],
    ids=["schema", "parameters"],
)
def test_defaults_and_keyword_only_parameters(make):
    fn = make(ts_ir.parse_ir(SCALE))
    x = t(X)
    cases = [
        ((x,), {}, 2 * 1.5),
        ((x, 3), {}, 3 * 1.5),
        ((x,), {"scale": 2}, 2 * 2.0),
        ((), {"x": x, "n": 4, "scale": 0.5}, 4 * 0.5),
    ]
    for args, kwargs, factor in cases:
        np.testing.assert_allclose(values(fn(*args, **kwargs)), np.array(X) * factor)
    with pytest.raises(ArgumentCountError, match=r"takes 2 positional arguments but 3"):
        fn(x, 2, 3.0)  # `scale` is keyword-only
    with pytest.raises(ArgumentCountError, match="missing a value for argument 'x'"):
        fn(n=1)


def test_a_schema_that_does_not_fit_the_graph_is_rejected_at_construction():
    with pytest.raises(ArgumentCountError, match="1 parameters for a graph of 3 inputs"):
        Function("bad", ts_ir.parse_ir(SCALE), schema=parse_schema("bad(Tensor x) -> Tensor"))


def test_a_list_with_a_wrong_element_is_described_truthfully():
    fn = function(
        """
graph(%xs : int[]):
  %n : int = aten::len(%xs)
  return (%n)
"""
    )
    with pytest.raises(ArgumentTypeError) as info:
        fn([1, 2.5])
    assert "found type 'List[Union[int, float]]'" in str(info.value)


def test_ints_convert_to_floats_inside_dicts_as_inside_lists():
    fn = function(
        """
graph(%d : Dict(str, float), %xs : float[]):
  %r : (Dict(str, float), float[]) = prim::TupleConstruct(%d, %xs)
  return (%r)
"""
    )
    d, xs = fn({"a": 1}, [1])
    assert xs == [1.0]
    assert d == {"a": 1.0} and type(d["a"]) is float


# ---------------------------------------------------------------------------
# graphs that cannot run

UNKNOWN_OPERATOR = """
graph(%x : Tensor):
  %y : Tensor = foo::bar(%x)
  return (%y)
"""

UNIMPLEMENTED_OPERATOR = """
graph(%x : Tensor):
  %y : float = aten::q_scale(%x)
  return (%y)
"""


@pytest.mark.parametrize(
    ("ir", "pattern"),
    [
        (UNKNOWN_OPERATOR, r"no operator schema matches node foo::bar"),
        (UNIMPLEMENTED_OPERATOR, r"aten::q_scale cannot run: .*has a schema but no implementation"),
    ],
    ids=["unknown", "unimplemented"],
)
@pytest.mark.parametrize("optimize", [False, True], ids=["interpreted", "optimized"])
def test_an_operator_that_cannot_run_fails_at_the_first_call_naming_it(ir, pattern, optimize):
    fn = function(ir, optimize=optimize)  # construction compiles nothing
    x = t(X)
    with pytest.raises(CodeError, match=pattern) as info:
        fn(x)
    assert isinstance(info.value, ts_ir.TorchScriptError)
    with pytest.raises(CodeError, match=pattern):
        fn.graph_for(x)  # asking for the plan compiles it, and fails the same way
    with pytest.raises(CodeError, match=pattern):
        Code(ts_ir.parse_ir(ir))  # building Code directly fails at once


# ---------------------------------------------------------------------------
# calls between functions

DOUBLE = """
graph(%x : int):
  %two : int = prim::Constant[value=2]()
  %r : int = aten::mul(%x, %two)
  return (%r)
"""

CALLS = """
graph(%x : int, %call : bool):
  %f : Function = prim::Constant[name="NAME"]()
  %r : int = prim::If(%call)
    block0():
      %y : int = prim::CallFunction(%f, %x)
      -> (%y)
    block1():
      -> (%x)
  return (%r)
"""


def test_functions_of_a_compilation_unit_call_each_other_by_name():
    cu = CompilationUnit()
    double = cu.create_function("double", ts_ir.parse_ir(DOUBLE))
    caller = cu.create_function("caller", ts_ir.parse_ir(CALLS.replace("NAME", "double")))
    assert (caller(21, True), caller(21, False)) == (42, 21)
    assert cu.double is double and cu.find_function("__torch__.mod.double") is double
    assert cu.resolve("double") is double
    assert cu.functions() == [double, caller]
    with pytest.raises(AttributeError):
        _ = cu.triple


def test_a_call_to_an_undefined_function_fails_when_it_runs():
    cu = CompilationUnit()
    caller = cu.create_function("caller", ts_ir.parse_ir(CALLS.replace("NAME", "triple")))
    assert caller(5, False) == 5  # never called: never looked up
    with pytest.raises(UnknownFunctionError, match="'triple' is not defined") as info:
        caller(5, True)
    assert isinstance(info.value, KeyError)
    cu.create_function("triple", ts_ir.parse_ir(DOUBLE.replace("value=2", "value=3")))
    assert caller(5, True) == 15  # defined later, found at the next call


# ---------------------------------------------------------------------------
# fork, wait, InterpreterState

FORK_AND_WAIT = """
graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %f : Future[Tensor] = prim::fork_0(%x)
  %y : Tensor = aten::add(%x, %one, %one)
  %w : Tensor = aten::wait(%f)
  %r : Tensor = aten::add(%w, %y, %one)
  return (%r)
with prim::fork_0 = graph(%a : Tensor):
  %three : int = prim::Constant[value=3]()
  %m : Tensor = aten::mul(%a, %three)
  return (%m)
"""

FORK_MAY_RAISE = """
graph(%x : int):
  %f : Future[int] = prim::fork_0(%x)
  %w : int = aten::wait(%f)
  return (%w)
with prim::fork_0 = graph(%a : int):
  %cls : str = prim::Constant[value="builtins.ValueError"]()
  %msg : str = prim::Constant[value="negative input"]()
  %zero : int = prim::Constant[value=0]()
  %negative : bool = aten::lt(%a, %zero)
   = prim::If(%negative)
    block0():
       = prim::RaiseException(%msg, %cls)
      -> ()
    block1():
      -> ()
  %r : int = aten::mul(%a, %a)
  return (%r)
"""

WAITS_ON_ITS_INPUT = """
graph(%f : Future[int]):
  %one : int = prim::Constant[value=1]()
  %v : int = aten::wait(%f)
  %r : int = aten::add(%v, %one)
  return (%r)
"""


@pytest.mark.parametrize("optimize", [False, True], ids=["interpreted", "optimized"])
def test_a_forked_subgraph_result_arrives_through_wait(optimize):
    fn = function(FORK_AND_WAIT, optimize=optimize)
    x = np.array([1.0, -2.0, 4.0], np.float32)
    np.testing.assert_array_equal(values(fn(t(x))), 3 * x + (x + 1))
    assert fn.code_for(t(x)).is_async


def test_a_forked_subgraph_runs_with_the_callers_grad_mode():
    fn = function(FORK_AND_WAIT)
    x = t([2.0], requires_grad=True)
    out = fn(x)
    out.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0])  # d(3x + x + 1)/dx
    with ts_runtime.no_grad():
        assert not fn(x).requires_grad


def test_an_exception_in_a_forked_subgraph_is_raised_by_wait():
    fn = function(FORK_MAY_RAISE)
    assert fn(7) == 49
    with pytest.raises(ValueError, match=r"^negative input$"):
        fn(-7)


def test_interpreter_state_runs_code_that_waits():
    code = Code(ts_ir.parse_ir(FORK_AND_WAIT))
    x = np.array([1.0, 2.0], np.float32)
    expected = 3 * x + (x + 1)
    np.testing.assert_array_equal(values(InterpreterState(code).run(t(x))), expected)
    done = InterpreterState(code).run_async(t(x))
    np.testing.assert_array_equal(values(done.wait()), expected)


def test_run_async_returns_before_the_awaited_future_completes_and_resumes_after():
    state = InterpreterState(Code(ts_ir.parse_ir(WAITS_ON_ITS_INPUT)))
    pending = Future()
    result = state.run_async(pending)
    assert not result.done()  # suspended at aten::wait, no thread blocked
    pending.set_result(41)
    assert result.done() and result.wait() == 42
    assert state.run(completed(9)) == 10  # run blocks on the wait instead


def test_run_async_passes_on_the_awaited_futures_exception():
    state = InterpreterState(Code(ts_ir.parse_ir(WAITS_ON_ITS_INPUT)))
    pending = Future()
    result = state.run_async(pending)
    pending.set_exception(KeyError("gone"))
    with pytest.raises(KeyError, match="gone"):
        result.wait()


def test_run_async_of_code_that_never_waits_completes_at_once():
    code = Code(ts_ir.parse_ir(DOUBLE))
    assert not code.is_async
    assert InterpreterState(code).run_async(8).wait() == 16
    failing = InterpreterState(Code(ts_ir.parse_ir(FORK_MAY_RAISE)))
    with pytest.raises(ValueError, match="negative input"):
        failing.run_async(-1).wait()


def test_fork_runs_a_python_callable_and_wait_returns_its_result():
    fut = ts_runtime.fork(lambda a, *, b: a * 10 + b, 4, b=2)
    assert ts_runtime.wait(fut) == 42
    assert fut.done() and fut.value() == 42
    chained = ts_runtime.fork(lambda: 5).then(lambda f: f.wait() + 1)
    assert chained.wait() == 6
    with ts_runtime.no_grad():
        assert ts_runtime.fork(ts_runtime.is_grad_enabled).wait() is False
    assert ts_runtime.fork(ts_runtime.is_grad_enabled).wait() is True
    failed = ts_runtime.fork(lambda: {}["missing"])
    with pytest.raises(KeyError):
        failed.wait()
    broken_chain = failed.then(lambda f: f.wait())
    with pytest.raises(KeyError):
        broken_chain.wait()


# ---------------------------------------------------------------------------
# ScriptModule

NET_FORWARD = """
graph(%self : __torch__.Net, %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %training : bool = prim::GetAttr[name="training"](%self)
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %running : Tensor = prim::GetAttr[name="running"](%self)
  %inner : __torch__.Inner = prim::GetAttr[name="inner"](%self)
  %b : Tensor = prim::GetAttr[name="bias"](%inner)
  %y : Tensor = aten::mul(%x, %w)
  %z : Tensor = aten::add(%y, %b, %one)
  %u : Tensor = aten::add(%z, %running, %one)
  %r : Tensor = prim::If(%training)
    block0():
      %two : int = prim::Constant[value=2]()
      %d : Tensor = aten::mul(%u, %two)
      -> (%d)
    block1():
      -> (%u)
  return (%r)
"""


def make_net(weight=(2.0, 3.0), bias=(1.0, -1.0), running=(0.5, 0.5)) -> ScriptModule:
    """Net(weight, running buffer, inner: Inner(bias)); forward = (x * w + b + running) * (2 if training)."""
    inner_type = ClassType("__torch__.Inner", is_module=True)
    inner_type.add_attribute("training", BoolType.get())
    inner_type.add_attribute("bias", TensorType.get(), is_parameter=True)
    net_type = ClassType("__torch__.Net", is_module=True)
    net_type.add_attribute("training", BoolType.get())
    net_type.add_attribute("weight", TensorType.get(), is_parameter=True)
    net_type.add_attribute("running", TensorType.get())
    net_type.add_attribute("inner", inner_type)
    net_type.add_attribute("label", ts_ir.StringType.get())
    net_type.methods["forward"] = Function("forward", ts_ir.parse_ir(NET_FORWARD))
    inner = ScriptModule(
        inner_type, {"training": True, "bias": t(bias, requires_grad=True)}, parameters={"bias"}
    )
    attributes = {
        "training": True,
        "weight": t(weight, requires_grad=True),
        "running": t(running),
        "inner": inner,
        "label": "net",
    }
    return ScriptModule(net_type, attributes, parameters={"weight"}, buffers={"running"})


def net_forward(x, weight, bias, running, training: bool) -> np.ndarray:
    out = np.asarray(x) * weight + bias + running
    return out * 2 if training else out


def test_forward_reads_parameters_buffers_and_submodules():
    net = make_net()
    x = [1.0, 10.0]
    expected = net_forward(x, [2.0, 3.0], [1.0, -1.0], [0.5, 0.5], training=True)
    np.testing.assert_array_equal(values(net(t(x))), expected)
    np.testing.assert_array_equal(values(net.forward(t(x))), expected)
    out = net(t(x))
    out.sum().backward()
    np.testing.assert_array_equal(net.weight.grad.numpy(), [2.0, 20.0])
    np.testing.assert_array_equal(net.inner.bias.grad.numpy(), [2.0, 2.0])


def test_state_dict_lists_parameters_then_buffers_then_submodules_detached():
    net = make_net()
    sd = net.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ["weight", "running", "inner.bias"]
    np.testing.assert_array_equal(sd["weight"].numpy(), [2.0, 3.0])
    assert not sd["weight"].requires_grad  # detached...
    sd["weight"]._data[0] = 100.0  # ...but sharing memory, as PyTorch's does
    assert net.weight._data[0] == 100.0
    kept = net.state_dict(prefix="model.", keep_vars=True)
    assert list(kept) == ["model.weight", "model.running", "model.inner.bias"]
    assert kept["model.weight"] is net.weight
    assert [n for n, _ in net.named_parameters()] == ["weight", "inner.bias"]
    assert [n for n, _ in net.named_buffers()] == ["running"]
    assert [n for n, _ in net.named_modules()] == ["", "inner"]


def test_state_dict_round_trip_changes_what_forward_computes():
    source = make_net(weight=(5.0, -1.0), bias=(0.0, 2.0), running=(1.0, 1.0))
    target = make_net()
    x = [1.0, 2.0]
    assert target.load_state_dict(source.state_dict()) == ([], [])
    for key, value in source.state_dict().items():
        np.testing.assert_array_equal(values(target.state_dict()[key]), values(value))
    np.testing.assert_array_equal(values(target(t(x))), values(source(t(x))))
    np.testing.assert_array_equal(
        values(target(t(x))), net_forward(x, [5.0, -1.0], [0.0, 2.0], [1.0, 1.0], training=True)
    )
    # the values were copied into the target's own tensors, which still require grad
    assert target.weight is not source.weight and target.weight.requires_grad


def test_load_state_dict_keeps_the_modules_dtypes():
    net = make_net()
    sd = net.state_dict()
    sd["weight"] = ts_runtime.tensor([7.0, 8.0], dtype=ts_runtime.float64)
    net.load_state_dict(sd)
    assert net.weight.dtype == ts_runtime.float32
    np.testing.assert_array_equal(values(net.weight), [7.0, 8.0])


def test_load_state_dict_reports_missing_and_unexpected_keys():
    net = make_net()
    sd = net.state_dict()
    del sd["running"]
    sd["extra"] = t([1.0])
    with pytest.raises(StateDictError) as err:
        net.load_state_dict(sd)
    assert 'Missing key(s) in state_dict: "running"' in str(err.value)
    assert 'Unexpected key(s) in state_dict: "extra"' in str(err.value)
    sd["weight"] = t([9.0, 9.0])
    assert net.load_state_dict(sd, strict=False) == (["running"], ["extra"])
    np.testing.assert_array_equal(values(net.weight), [9.0, 9.0])  # the rest was loaded
    np.testing.assert_array_equal(values(net.running), [0.5, 0.5])


def test_load_state_dict_rejects_wrong_shapes_and_non_tensors():
    net = make_net()
    bad_shape = net.state_dict()
    bad_shape["weight"] = t([1.0, 2.0, 3.0])
    with pytest.raises(StateDictError, match=r"size mismatch for weight: .*\[3\].*\[2\]"):
        net.load_state_dict(bad_shape)
    not_tensor = net.state_dict()
    not_tensor["running"] = [1.0, 2.0]
    with pytest.raises(StateDictError, match=r'parameter named "running", expected torch\.Tensor'):
        net.load_state_dict(not_tensor)


def test_train_and_eval_switch_every_module_and_forward_follows():
    net = make_net()
    x = [1.0, 2.0]
    params = ([2.0, 3.0], [1.0, -1.0], [0.5, 0.5])
    assert net.eval() is net
    assert (net.training, net.inner.training, net.training_mode) == (False, False, False)
    np.testing.assert_array_equal(values(net(t(x))), net_forward(x, *params, training=False))
    net.train()
    assert (net.training, net.inner.training) == (True, True)
    np.testing.assert_array_equal(values(net(t(x))), net_forward(x, *params, training=True))
    net.train(False)
    assert not net.inner.training


def test_attributes_are_fixed_and_methods_are_looked_up_on_the_type():
    net = make_net()
    net.label = "renamed"
    assert net.label == "renamed"
    with pytest.raises(AttributeError, match="cannot add attribute 'extra'"):
        net.extra = 1
    with pytest.raises(AttributeError, match="has no attribute 'backward'"):
        _ = net.backward
    with pytest.raises(AttributeError, match="has no method 'backward'"):
        net.method("backward")
    assert net.method("forward").graph is net.graph
    assert net.original_name == "Net"
    with pytest.raises(ArgumentCountError):
        net(t([1.0, 2.0]), t([3.0, 4.0]))
