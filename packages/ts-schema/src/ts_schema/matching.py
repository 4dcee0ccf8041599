"""Overload resolution: which schema a call matches, and the inputs that call needs.

TorchScript's algorithm (`schema_matching.cpp`): try every overload in
registration order without implicit conversions, then all of them again with
conversions; the first match wins. Matching one schema walks its arguments:

- positional arguments first, then keyword arguments by name (for `aten::`
  schemas `input=` also names `self`), then defaults;
- with conversions, trailing positional arguments pack into a list argument
  (`zeros(2, 3)` for `zeros(int[] size)`), and a single int or float fills a
  fixed-size list (`int[2]`);
- type variables (`t`, `List[t]`, `Dict(str, t)`) are bound by the first
  argument that meets them and substituted into the later ones and the
  returns;
- `Optional[T]` takes `T` and None, `Scalar` takes int, float and complex;
- an empty list literal takes the formal list type; a homogeneous tuple
  converts to a list;
- with conversions: Tensor to int/float/complex/Scalar (`aten::IntImplicit`,
  `aten::FloatImplicit`, `aten::ComplexImplicit`, `aten::ScalarImplicit`),
  Scalar and bool to int/float (`aten::Int`, `aten::Float`), str to Device
  (`aten::device`).

One further pass runs after those two, so it can never change an overload
TorchScript would pick, only accept calls TorchScript rejects: an int where a
float is expected (through `aten::Float`, as Python would accept it), and a
non-empty list literal whose elements fit the formal element type.

Matching only plans; nothing is inserted into the graph until a schema
matches, so failed attempts leave no dead nodes. The winner's plan then
inserts its constants (defaults), conversions and lists at the graph's
insertion point.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ts_ir import (
    BoolType,
    ComplexType,
    Device,
    DeviceType,
    FloatType,
    Graph,
    IntType,
    ListType,
    Node,
    NoneType,
    NumberType,
    OptionalType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    Type,
    Value,
    VarType,
    prim,
)

from .errors import NoMatchingSchemaError
from .function_schema import Argument, FunctionSchema
from .registry import Operator, registry
from .type_variables import evaluate_type_variables, type_variable_mismatch

STRICT, CONVERSIONS, WIDENING = 0, 1, 2
_EMPTY_LIST_KINDS = frozenset({prim.ListConstruct, prim.EmptyListLiteral})


class MatchedSchema:
    """The result of matching a call: every input positionally, and the return types.

    `inputs` are the values to give the node, defaults and conversions
    included; `return_types` have the type variables substituted;
    `return_field_names` names the returns when the schema names all of them.
    """

    __slots__ = ("inputs", "return_field_names", "return_types", "schema", "schema_name")

    def __init__(
        self,
        inputs: list[Value],
        return_types: list[Type],
        return_field_names: list[str] | None,
        schema: FunctionSchema,
    ) -> None:
        self.inputs = inputs
        self.return_types = return_types
        self.return_field_names = return_field_names
        self.schema = schema
        self.schema_name = schema.key

    def __repr__(self) -> str:
        types = ", ".join(t.annotation_str() for t in self.return_types)
        return f"<MatchedSchema {self.schema_name} -> ({types})>"


# ---------------------------------------------------------------------------
# Plans: how to produce one input, decided before anything is inserted


class _Plan:
    __slots__ = ("type",)
    type: Type

    def emit(self, graph: Graph, source_range: Any) -> Value:
        raise NotImplementedError

    def list_literal(self) -> Node | None:
        """The `prim::ListConstruct` (or empty list literal) producing this input, if any."""
        return None


class _Existing(_Plan):
    __slots__ = ("value",)

    def __init__(self, value: Value) -> None:
        self.value = value
        self.type = value.type

    def emit(self, graph: Graph, source_range: Any) -> Value:
        return self.value

    def list_literal(self) -> Node | None:
        node = self.value.node
        return node if node.kind in _EMPTY_LIST_KINDS else None


class _Placeholder(_Plan):
    """A value that exists only once an enclosing plan has emitted it (a tuple's element)."""

    __slots__ = ("value",)

    def __init__(self, type: Type) -> None:
        self.type = type
        self.value: Value | None = None

    def emit(self, graph: Graph, source_range: Any) -> Value:
        assert self.value is not None, "placeholder emitted before its tuple was unpacked"
        return self.value


class _Constant(_Plan):
    __slots__ = ("emitted", "value")

    def __init__(self, value: Any, type: Type) -> None:
        self.value = value
        self.type = type
        self.emitted: Value | None = None

    def emit(self, graph: Graph, source_range: Any) -> Value:
        if self.emitted is None:
            self.emitted = graph.insert_constant(self.value, self.type, source_range=source_range)
        return self.emitted


class _MakeList(_Plan):
    __slots__ = ("element", "items")

    def __init__(self, element: Type, items: list[_Plan]) -> None:
        self.element = element
        self.items = items
        self.type = ListType(element)

    def emit(self, graph: Graph, source_range: Any) -> Value:
        values = [item.emit(graph, source_range) for item in self.items]
        node = graph.insert_node(graph.create_list(self.element, values))
        node.source_range = source_range
        return node.output()


class _RetypedList(_Plan):
    """A list literal given the formal list type (`[]` passed for an `int[]`)."""

    __slots__ = ("literal", "source")
    type: ListType

    def __init__(self, source: _Plan, literal: Node, type: ListType) -> None:
        self.source = source
        self.literal = literal
        self.type = type

    def emit(self, graph: Graph, source_range: Any) -> Value:
        literal = self.literal
        value = self.source.emit(graph, source_range)
        if literal.kind is prim.ListConstruct and not value.uses:
            return value.set_type(self.type)
        node = graph.insert_node(graph.create_list(self.type.element, literal.inputs))
        node.source_range = source_range
        return node.output()


class _TupleToList(_Plan):
    __slots__ = ("element", "source")

    def __init__(self, source: _Plan, element: Type) -> None:
        self.source = source
        self.element = element
        self.type = ListType(element)

    def emit(self, graph: Graph, source_range: Any) -> Value:
        unpack = graph.insert_node(graph.create_tuple_unpack(self.source.emit(graph, source_range)))
        unpack.source_range = source_range
        node = graph.insert_node(graph.create_list(self.element, unpack.outputs))
        node.source_range = source_range
        return node.output()


class _TupleConvert(_Plan):
    """A tuple rebuilt from its elements, each converted (`Tuple[Tensor, int]` to `Tuple[float, int]`)."""

    __slots__ = ("elements", "placeholders", "source")

    def __init__(self, source: _Plan, placeholders: list[_Placeholder], elements: list[_Plan]):
        self.source = source
        self.placeholders = placeholders
        self.elements = elements
        self.type = TupleType([e.type for e in elements])

    def emit(self, graph: Graph, source_range: Any) -> Value:
        unpack = graph.insert_node(graph.create_tuple_unpack(self.source.emit(graph, source_range)))
        unpack.source_range = source_range
        for placeholder, value in zip(self.placeholders, unpack.outputs, strict=True):
            placeholder.value = value
        values = [e.emit(graph, source_range) for e in self.elements]
        node = graph.insert_node(graph.create_tuple(values))
        node.source_range = source_range
        return node.output()


class _Convert(_Plan):
    """An implicit conversion: `aten::IntImplicit`, `aten::Float`, `aten::device`, ..."""

    __slots__ = ("kind", "source")

    def __init__(self, kind: str, source: _Plan, result: Type) -> None:
        self.kind = kind
        self.source = source
        self.type = result

    def emit(self, graph: Graph, source_range: Any) -> Value:
        value = self.source.emit(graph, source_range)
        op, matched = match_schemas(
            registry.lookup(self.kind), graph, [value], {}, source_range=source_range
        )
        out = emit_node(graph, op, matched, source_range=source_range)
        assert isinstance(out, Value)
        return out


# ---------------------------------------------------------------------------
# Matching one schema


def _unwrap_optional(t: Type) -> Type:
    return t.element if isinstance(t, OptionalType) else t


def _is_blocklisted(schema: FunctionSchema) -> bool:
    """Overloads TorchScript never picks: `x.view(1)` and `x.view(torch.int8)` read the
    same; `max.unary_out`/`min.unary_out` shadow `max.other`/`min.other`."""
    key = schema.key
    return key in ("aten::view.dtype", "aten::max.unary_out", "aten::min.unary_out")


def _convertible_to_list(t: Type, list_type: Type) -> bool:
    if not isinstance(list_type, ListType):
        return False
    if t.is_subtype_of(list_type):
        return True
    if isinstance(t, TupleType):
        return all(e.is_subtype_of(list_type.element) for e in t.elements)
    return False


def _varargs_can_be_used_as_list(schema: FunctionSchema, index: int, arg: Argument) -> bool:
    args = schema.arguments
    is_last = index + 1 == len(args) or args[index + 1].kwarg_only
    t = arg.type
    return (
        is_last and isinstance(t, ListType) and arg.N is None and not isinstance(t.element, VarType)
    )


def _int_or_float_used_as_list(t: Type, arg: Argument) -> bool:
    if arg.N is None or not isinstance(t, (IntType, FloatType)):
        return False
    formal = _unwrap_optional(arg.type)
    return isinstance(formal, ListType) and formal.element == t


def _default_type(arg: Argument) -> Type:
    value = arg.default_value
    if isinstance(value, list):
        formal = _unwrap_optional(arg.type)
        if isinstance(formal, ListType):
            return formal
    return python_value_type(value)


def python_value_type(value: Any) -> Type:
    """The IR type of a constant Python value: `int` for 3, `List[int]` for [1, 2]."""
    if value is None:
        return NoneType.get()
    if isinstance(value, bool):
        return BoolType.get()
    if isinstance(value, int):
        return IntType.get()
    if isinstance(value, float):
        return FloatType.get()
    if isinstance(value, complex):
        return ComplexType.get()
    if isinstance(value, str):
        return StringType.get()
    if isinstance(value, Device):
        return DeviceType.get()
    if isinstance(value, list):
        # an empty list is typed as TorchScript types `[]`
        return ListType(python_value_type(value[0]) if value else TensorType.get())
    if isinstance(value, tuple):
        return TupleType([python_value_type(v) for v in value])
    if hasattr(value, "numel") and hasattr(value, "dim"):
        return TensorType.get()
    raise TypeError(f"no IR type for the constant {value!r}")


def _convert(plan: _Plan, concrete: Type, level: int) -> _Plan:
    """As TorchScript's tryConvertToType: the plan, converted towards `concrete` if it can be."""
    actual = plan.type
    if (
        isinstance(concrete, OptionalType)
        and not isinstance(actual, OptionalType)
        and not isinstance(actual, NoneType)
    ):
        return _convert(plan, concrete.element, level)
    literal = plan.list_literal()
    if literal is not None and isinstance(concrete, ListType) and actual != concrete:
        if not literal.inputs or (
            level >= WIDENING
            and all(v.type.is_subtype_of(concrete.element) for v in literal.inputs)
        ):
            plan = _RetypedList(plan, literal, concrete)
    tuple_type = plan.type
    if isinstance(tuple_type, TupleType):
        list_type = _unwrap_optional(concrete)
        if isinstance(list_type, ListType) and _convertible_to_list(tuple_type, list_type):
            plan = _TupleToList(plan, list_type.element)
        elif (
            isinstance(concrete, TupleType)
            and not tuple_type.is_subtype_of(concrete)
            and len(concrete.elements) == len(tuple_type.elements)
        ):
            placeholders = [_Placeholder(t) for t in tuple_type.elements]
            converted = [
                _convert(p, t, level) for p, t in zip(placeholders, concrete.elements, strict=True)
            ]
            plan = _TupleConvert(plan, placeholders, converted)
    if level >= CONVERSIONS:
        t = plan.type
        if isinstance(t, TensorType):
            kind = _TENSOR_TO_NUMBER.get(type(concrete))
            if kind is not None:
                plan = _Convert(kind, plan, concrete)
        elif isinstance(t, NumberType):
            kind = _NUMBER_TO_NUMBER.get(type(concrete))
            if kind is not None:
                plan = _Convert(kind, plan, concrete)
        elif isinstance(t, BoolType):
            if isinstance(concrete, FloatType):
                plan = _Convert("aten::Float", plan, concrete)
            elif isinstance(concrete, (IntType, NumberType)):
                plan = _Convert("aten::Int", plan, IntType.get())
        if plan.type.is_subtype_of(StringType.get()) and concrete.is_subtype_of(DeviceType.get()):
            return _Convert("aten::device", plan, DeviceType.get())
    if level >= WIDENING and isinstance(plan.type, IntType) and isinstance(concrete, FloatType):
        plan = _Convert("aten::Float", plan, concrete)
    return plan


_TENSOR_TO_NUMBER: dict[type, str] = {
    FloatType: "aten::FloatImplicit",
    ComplexType: "aten::ComplexImplicit",
    IntType: "aten::IntImplicit",
    NumberType: "aten::ScalarImplicit",
}
_NUMBER_TO_NUMBER: dict[type, str] = {
    FloatType: "aten::Float",
    ComplexType: "aten::Complex",
    IntType: "aten::Int",
}


class _Failure:
    """Collects why a schema did not match, when the caller wants to know."""

    __slots__ = ("lines",)

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, message: str) -> None:
        self.lines.append(message)

    def text(self) -> str:
        return "\n".join(self.lines)


Report = Callable[[str], None] | None


def _match_argument(
    arg: Argument, plan: _Plan, level: int, bindings: dict[str, Type], report: Report
) -> _Plan | None:
    if _int_or_float_used_as_list(plan.type, arg):
        plan = _MakeList(plan.type, [plan] * arg.N)  # type: ignore[operator]
    actual = plan.type
    formal = arg.type
    reason = type_variable_mismatch(formal, actual, bindings)
    if reason is not None:
        if report:
            report(
                f"Could not match type {actual.annotation_str()} to {formal.annotation_str()} "
                f"in argument '{arg.name}': {reason}."
            )
        return None
    concrete = evaluate_type_variables(formal, bindings)
    if concrete is None:
        if report:
            report(
                f"Type variables in type {formal.annotation_str()} could not be inferred from "
                f"actual type {actual.annotation_str()}"
            )
        return None
    plan = _convert(plan, concrete, level)
    if plan.type.is_subtype_of(concrete):
        return plan
    if report:
        found = plan.type.annotation_str()
        message = (
            f"Expected a value of type '{concrete.annotation_str()}' for argument '{arg.name}' "
            f"but instead found type '{found}'."
        )
        if isinstance(plan.type, ListType) and plan.type.element.is_subtype_of(TensorType.get()):
            message += (
                "\nEmpty lists default to List[Tensor]. Add a variable annotation to the "
                "assignment to create an empty list of another type "
                "(torch.jit.annotate(List[T], []) where T is the type of elements in the list)"
            )
        report(message)
    return None


class _MatchPlan:
    __slots__ = ("inputs", "return_types", "schema")

    def __init__(self, schema: FunctionSchema, inputs: list[_Plan], returns: list[Type]):
        self.schema = schema
        self.inputs = inputs
        self.return_types = returns

    def emit(self, graph: Graph, source_range: Any) -> MatchedSchema:
        values = [p.emit(graph, source_range) for p in self.inputs]
        returns = self.schema.returns
        names = [r.name for r in returns] if all(r.name for r in returns) else None
        return MatchedSchema(values, self.return_types, names, self.schema)


def _try_match(
    schema: FunctionSchema,
    args: Sequence[Value],
    kwargs: Mapping[str, Value],
    self_arg: Value | None,
    level: int,
    report: Report,
) -> _MatchPlan | None:
    if _is_blocklisted(schema):
        return None
    bindings: dict[str, Type] = {}
    inputs: list[_Plan] = []
    kw_names = list(kwargs)
    used_kwargs = [False] * len(kw_names)
    is_aten = schema.name.startswith("aten::")
    formals = schema.arguments
    used_args = 0
    n_args = len(args)
    for i, arg in enumerate(formals):
        actual: _Plan
        if arg.name == "self" and self_arg is not None:
            actual = _Existing(self_arg)
            self_arg = None
        elif not arg.kwarg_only and used_args < n_args:
            if level >= CONVERSIONS and _varargs_can_be_used_as_list(schema, i, arg):
                first = args[used_args].type
                formal_list = _unwrap_optional(arg.type)
                if not isinstance(first, ListType) and not _convertible_to_list(first, formal_list):
                    element = formal_list.element  # type: ignore[attr-defined]
                    element_arg = Argument("<varargs>", element)
                    items = []
                    for value in args[used_args:]:
                        item = _match_argument(
                            element_arg, _Existing(value), level, bindings, report
                        )
                        if item is None:
                            return None
                        items.append(item)
                    used_args = n_args
                    inputs.append(_MakeList(element, items))
                    continue
            actual = _Existing(args[used_args])
            used_args += 1
        else:
            k = _find_kwarg(arg.name, kw_names, is_aten)
            if k is not None:
                if used_kwargs[k]:
                    if report:
                        report(
                            f"Argument {kw_names[k]} specified twice in schema, "
                            "submit a bug report!"
                        )
                    return None
                used_kwargs[k] = True
                actual = _Existing(kwargs[kw_names[k]])
            elif arg.has_default_value:
                actual = _Constant(arg.default_value, _default_type(arg))
            else:
                if report:
                    report(f"Argument {arg.name} not provided.")
                return None
        plan = _match_argument(arg, actual, level, bindings, report)
        if plan is None:
            return None
        inputs.append(plan)
    if self_arg is not None:
        if report:
            report("Provided self argument not used in schema.")
        return None
    if schema.is_vararg:
        inputs.extend(_Existing(v) for v in args[used_args:])
        used_args = n_args
    if used_args < n_args:
        if report:
            report(
                f"Expected at most {used_args} arguments but found {n_args} positional arguments."
            )
        return None
    for k, used in enumerate(used_kwargs):
        if not used:
            if report:
                name = kw_names[k]
                if schema.argument_index_with_name(name) is None:
                    report(f"Keyword argument {name} unknown.")
                else:
                    report(f"Keyword argument {name} specified twice.")
            return None
    return_types = []
    for r in schema.returns:
        t = evaluate_type_variables(r.type, bindings)
        if t is None:
            if report:
                report(f"Return type {r.type.annotation_str()} has unbound type variables.")
            return None
        return_types.append(t)
    return _MatchPlan(schema, inputs, return_types)


def _find_kwarg(name: str, names: list[str], is_aten: bool) -> int | None:
    for i, kw in enumerate(names):
        # aten's functional variants call `self` `input` in Python
        if kw == name or (is_aten and name == "self" and kw == "input"):
            return i
    return None


# ---------------------------------------------------------------------------
# Public entry points

Candidate = Operator | FunctionSchema


def _schema_of(candidate: Candidate) -> FunctionSchema:
    return candidate.schema if isinstance(candidate, Operator) else candidate


def match_schema(
    schema: FunctionSchema,
    graph: Graph,
    args: Sequence[Value],
    kwargs: Mapping[str, Value] | None = None,
    *,
    source_range: SourceRange | None = None,
    allow_conversions: bool = True,
    self_arg: Value | None = None,
) -> MatchedSchema:
    """Match one schema (inserting defaults and conversions) or raise `NoMatchingSchemaError`."""
    kwargs = kwargs or {}
    levels = (CONVERSIONS, WIDENING) if allow_conversions else (STRICT,)
    for level in levels:
        plan = _try_match(schema, args, kwargs, self_arg, level, None)
        if plan is not None:
            return plan.emit(graph, source_range)
    failure = _Failure()
    _try_match(schema, args, kwargs, self_arg, levels[0], failure)
    raise NoMatchingSchemaError([(schema, failure.text())], source_range)


def match_schemas(
    operators: Sequence[Candidate],
    graph: Graph,
    args: Sequence[Value],
    kwargs: Mapping[str, Value] | None = None,
    *,
    source_range: SourceRange | None = None,
    self_arg: Value | None = None,
) -> tuple[Any, MatchedSchema]:
    """The first overload (Operator or FunctionSchema) the call matches, and the match.

    Tries every candidate in order without conversions, then with them, then
    with the widening conversions TorchScript lacks. Raises
    `NoMatchingSchemaError` listing each candidate and why it failed.
    """
    kwargs = kwargs or {}
    schemas = [_schema_of(c) for c in operators]
    for level in (STRICT, CONVERSIONS, WIDENING):
        for candidate, schema in zip(operators, schemas, strict=True):
            plan = _try_match(schema, args, kwargs, self_arg, level, None)
            if plan is not None:
                return candidate, plan.emit(graph, source_range)
    failures = []
    for schema in schemas:
        if _is_blocklisted(schema):
            continue
        failure = _Failure()
        _try_match(schema, args, kwargs, self_arg, CONVERSIONS, failure)
        failures.append((schema, failure.text()))
    name = str(schemas[0].name) if schemas else None
    raise NoMatchingSchemaError(failures, source_range, name=name)


def emit_node(
    graph: Graph,
    op: Candidate,
    matched: MatchedSchema,
    *,
    source_range: Any = None,
) -> Value | tuple[Value, ...] | None:
    """Insert the node for a match at the insertion point; its output, outputs or None."""
    schema = _schema_of(op)
    node = graph.create(schema.name, matched.inputs, 0)
    for t in matched.return_types:
        node.add_output(t)
    node.source_range = source_range
    graph.insert_node(node)
    if isinstance(op, Operator):
        node.schema_cache = op
    outputs = node.outputs
    if len(outputs) == 1:
        return outputs[0]
    if not outputs:
        return None
    return tuple(outputs)
