"""The Python printer: graphs printed back as TorchScript source (`.code`, and archives).

    def seed_if(a: Tensor,
        b: Tensor,
        c: bool) -> Tensor:
      d = torch.add(a, b)
      if c:
        e = torch.add(d, d)
      else:
        e = torch.add(b, d)
      return e

This is TorchScript's `PythonPrint`, rule for rule, so that the text is the
one `torch.jit.script(...).code` shows and the one `torch.jit.save` writes:

- operators print as `torch.<name>(...)` for `aten::` and `ops.<ns>.<name>(...)`
  otherwise, without trailing arguments equal to their schema's defaults;
- a value used once, right where it is computed, is inlined into its user
  unless the program named it (TorchScript's `scanBlock`/`canInline`), and an
  inlined expression that makes a line of 40 characters or more is split
  back into assignments, together with the inlined arguments evaluated
  before it (so evaluation order never changes);
- constants print as literals, except tensors, objects and non-ASCII
  strings, which go to a constant table and print as `CONSTANTS.cN`;
- `prim::If` prints as `if`/`else` with the outputs assigned at the end of
  each branch, `prim::Loop` as `for i in range(n)` or `while c` with the
  loop-carried values assigned before the loop and at the end of the body;
- empty lists and dicts, and containers whose element type their items do
  not determine, are wrapped in `annotate(T, ...)`; `unchecked_cast`,
  `isinstance`, `uninitialized`, `fork` of a nested `def` and the casts
  `int()`, `float()`, `bool()` print as TorchScript writes them.

Printing for an archive (`enforce_importable=True`) also names each method's
`self` type, refuses what cannot be imported back (calls into Python, loops
that no longer have a Python form), and records the classes and functions
the code refers to in `dependencies`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ts_ir import (
    Block,
    ClassType,
    DictType,
    FunctionType,
    Graph,
    ListType,
    Node,
    NoneType,
    OptionalType,
    TorchScriptError,
    TupleType,
    Type,
    UnionType,
    Value,
    constant_value,
    format_double,
    quote_string,
)
from ts_schema import Tag, registry

from .kinds import (
    CALL_FUNCTION,
    CALL_METHOD,
    CONSTANT,
    DICT_CONSTRUCT,
    ENTER,
    EXIT,
    FORK,
    GET_ATTR,
    IF,
    ISINSTANCE,
    LIST_CONSTRUCT,
    LIST_UNPACK,
    LOOP,
    PRINT,
    RETURN,
    SET_ATTR,
    TUPLE_CONSTRUCT,
    TUPLE_INDEX,
    TUPLE_UNPACK,
    UNCHECKED_CAST,
    UNINITIALIZED,
)

INT64_MAX = 2**63 - 1
LONG_LINE = 40  # TorchScript's isLongLine: characters, indentation included

#: names a printed program never gives a value: identifiers the importer resolves, and keywords
RESERVED_NAMES = frozenset(
    {
        "_",
        "as",
        "aten",
        "attribute",
        "CONSTANTS",
        "fork",
        "getattr",
        "inf",
        "nan",
        "infj",
        "nanj",
        "ops",
        "__torch__",
        "uninitialized",
        "unchecked_cast",
        # names the printed code itself uses as builtins
        "torch",
        "annotate",
        "isinstance",
        "range",
        "int",
        "float",
        "bool",
        "str",
        "print",
        "sorted",
        "number",
        # Python's keywords
        "and",
        "assert",
        "async",
        "await",
        "break",
        "class",
        "continue",
        "def",
        "del",
        "elif",
        "else",
        "except",
        "False",
        "finally",
        "for",
        "from",
        "global",
        "if",
        "import",
        "in",
        "is",
        "lambda",
        "None",
        "nonlocal",
        "not",
        "or",
        "pass",
        "raise",
        "return",
        "True",
        "try",
        "while",
        "with",
        "yield",
    }
)


class PrintError(TorchScriptError):
    """A graph that cannot be printed as importable source (the message says which node)."""


class ConstantTable:
    """The values code refers to as `CONSTANTS.cN`: one entry per distinct object."""

    def __init__(self) -> None:
        self.values: list[Any] = []

    def add(self, value: Any) -> int:
        for i, v in enumerate(self.values):
            if v is value or _same_constant(v, value):
                return i
        self.values.append(value)
        return len(self.values) - 1


def _same_constant(a: Any, b: Any) -> bool:
    """Equal values of the same kinds all the way down (so `1`, `1.0` and `True` differ);
    tensors and other objects only by identity."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same_constant(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same_constant(a[k], b[k]) for k in a)
    if isinstance(a, (bool, int, float, complex, str)) or a is None:
        return a == b or (a != a and b != b)  # nan equals nan here
    return a is b


def qualified_function_name(fn: Any) -> str:
    """`__torch__.<name>`: how code names a compiled function (and how the importer finds it)."""
    name = getattr(fn, "qualified_name", None) or getattr(fn, "name", None) or str(fn)
    return name if name.startswith("__torch__.") else f"__torch__.{name}"


def _has_name(v: Value) -> bool:
    """Whether the program named `v`: temporaries (`_`, `_0`, `_12`) do not count, as
    TorchScript's emitter never gives such names (its `meaningfulName`)."""
    if not v.has_debug_name():
        return False
    base = v.debug_name_base()
    return not (base[:1] == "_" and base[1:].isdigit())


def _is_valid_identifier(name: str) -> bool:
    return name.isidentifier() and name.isascii()


def _make_valid_identifier(candidate: str) -> str:
    out = "_" if not candidate or candidate[0].isdigit() else ""
    return out + "".join(c if (c.isascii() and c.isalnum()) or c == "_" else "_" for c in candidate)


def _needs_constant_table(value: Any) -> bool:
    if isinstance(value, str):
        return not value.isascii()
    if isinstance(value, (list, tuple)):
        return any(_needs_constant_table(v) for v in value)
    if isinstance(value, dict):
        return any(_needs_constant_table(k) or _needs_constant_table(v) for k, v in value.items())
    return not (value is None or isinstance(value, (bool, int, float, complex)))


def _element_inferable(t: Type) -> bool:
    """TorchScript's elementTypeCanBeInferredFromMembers."""
    if isinstance(t, (UnionType, OptionalType, NoneType)):
        return False
    if isinstance(t, ListType):
        return _element_inferable(t.element)
    return True


class PythonPrinter:
    """Prints functions and classes into `lines`; one instance per output text."""

    def __init__(
        self, *, enforce_importable: bool = False, constants: ConstantTable | None = None
    ) -> None:
        self.enforce_importable = enforce_importable
        self.constants = constants if constants is not None else ConstantTable()
        self.lines: list[str] = []
        self.level = 0
        #: classes and functions the printed code names, by qualified name, in order of use
        self.dependencies: dict[str, Any] = {}
        self._reset_names()

    def _reset_names(self) -> None:
        self.used_names: set[str] = set()
        self.next_id: dict[str, int] = {}
        self.expr_table: dict[Value, str] = {}
        self.ident_refs: dict[Value, str] = {}
        self.output_inline: set[Node] = set()
        self.annotated_unions: set[Value] = set()
        self.visited_split: dict[Node, int] = {}

    def text(self) -> str:
        return "".join(self.lines)

    # -- names

    def gen_name(self, candidate: str) -> str:
        name = candidate
        while name in self.used_names or name in RESERVED_NAMES:
            n = self.next_id.get(name, 0)
            self.next_id[name] = n + 1
            name = f"{candidate}{n}"
        self.used_names.add(name)
        return name

    def gen_unique_name_for(self, v: Value) -> str:
        return self.gen_name(_make_valid_identifier(v.debug_name_base()) if _has_name(v) else "_")

    def use_of(self, v: Value) -> str:
        name = self.ident_refs.get(v)
        if name is not None:
            return name
        expr = self.expr_table.get(v)
        if expr is None:
            raise PrintError(f"%{v.debug_name} is used before the printer gave it a name")
        return expr

    def assign_unique_names(self, values: Iterable[Value]) -> None:
        for v in values:
            self.ident_refs[v] = self.gen_unique_name_for(v)

    # -- output

    def emit(self, text: str) -> None:
        self.lines.append("  " * self.level + text + "\n")

    def is_long_line(self, text: str) -> bool:
        return len(text) + self.level * 2 >= LONG_LINE

    # -- dependencies and types

    def type_str(self, t: Type) -> str:
        self._register_type(t)
        return t.annotation_str()

    def _register_type(self, t: Type) -> None:
        name = t.qualified_name if isinstance(t, (ClassType, TupleType)) else None
        if name is not None:  # a class, or a NamedTuple
            self.dependencies.setdefault(name, t)
        for c in t.contained_types():
            self._register_type(c)

    # -- inlining (TorchScript's scanBlock)

    def can_inline(self, v: Value) -> bool:
        n = v.node
        if len(n.outputs) != 1 or len(v.uses) != 1 or n.blocks:
            return False
        use = v.uses[0]
        if _has_name(v) and use.user.kind is not RETURN:
            return False
        if use.user.kind is LOOP and use.offset >= 2:
            return False
        if use.user.kind is FORK or n.kind is ISINSTANCE:
            return False
        return not (n.kind is TUPLE_UNPACK or n.kind is LIST_UNPACK)

    def scan_block(self, b: Block) -> None:
        self.scan_node(b.return_node)
        for n in list(b.nodes_reversed()):
            self.scan_node(n)

    def scan_node(self, n: Node) -> Node | None:
        if n in self.output_inline:
            return n
        for b in n.blocks:
            self.scan_block(b)
        point = self._previous_non_constant(n)
        for v in reversed(n.inputs):
            point = self.scan_value(point, v)
        return point

    def _previous_non_constant(self, n: Node) -> Node | None:
        p = n.prev
        while p is not None and (p.kind is CONSTANT or _unpacks_constant(p)):
            p = p.prev
        return p

    def scan_value(self, point: Node | None, v: Value) -> Node | None:
        n = v.node
        if n is point and self.can_inline(v):
            point = self.scan_node(n)
            self.output_inline.add(n)
        elif n.kind is CONSTANT or _unpacks_constant(n):
            self.output_inline.add(n)
        return point

    # -- long inlines (TorchScript's splitLongInlines)

    def _is_non_constant_inline(self, v: Value) -> bool:
        return v.node.kind is not CONSTANT and v.node in self.output_inline

    def split_long_inlines(self, v: Value) -> None:
        to_split: list[Value] = []
        use = v.uses[0]
        self._scan_long_inlines(use.user, use.offset, to_split)
        for value in reversed(to_split):
            self.print_output_definition(value.node, self.use_of(value))

    def _scan_long_inlines(self, user: Node, offset: int, to_split: list[Value]) -> None:
        seen = self.visited_split.get(user)
        stop = seen + 1 if seen is not None else 0
        for i in range(offset, stop - 1, -1):
            arg = user.inputs[i]
            if self._is_non_constant_inline(arg):
                to_split.append(arg)
        self.visited_split[user] = offset
        if user not in self.output_inline:
            return
        use = user.output().uses[0]
        # -1: the use itself is still being printed, so it cannot be split
        self._scan_long_inlines(use.user, use.offset - 1, to_split)

    def print_output_definition(self, node: Node, expr: str) -> None:
        self.assign_unique_names(node.outputs)
        if node.outputs:
            self.emit(", ".join(self.use_of(o) for o in node.outputs) + " = " + expr)
        else:
            self.emit(expr)

    # -- constants

    def constant_str(self, value: Any) -> str:
        if _needs_constant_table(value) and not isinstance(value, (list, tuple, dict)):
            return f"CONSTANTS.c{self.constants.add(value)}"
        if value is None:
            return "None"
        if isinstance(value, bool):
            return "True" if value else "False"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            return format_double(value)
        if isinstance(value, complex):
            return f"{format_double(value.real)}+{format_double(value.imag)}j"
        if isinstance(value, str):
            return quote_string(value)
        if isinstance(value, list):
            return "[" + ", ".join(self.constant_str(v) for v in value) + "]"
        if isinstance(value, tuple):
            items = ", ".join(self.constant_str(v) for v in value)
            return f"({items},)" if len(value) == 1 else f"({items})"
        if isinstance(value, dict):
            return (
                "{"
                + ", ".join(
                    f"{self.constant_str(k)}: {self.constant_str(v)}" for k, v in value.items()
                )
                + "}"
            )
        return f"CONSTANTS.c{self.constants.add(value)}"

    def _constant_node_str(self, n: Node) -> str:
        out = n.output()
        t = out.type
        if isinstance(t, FunctionType):
            fn = t.function
            if fn is not None and getattr(fn, "graph", None) is None and self.enforce_importable:
                raise PrintError(
                    f"could not export the call of the Python function '{fn.name}': calls into "
                    "Python (functions marked @ignore) cannot be saved"
                )
            qualified = qualified_function_name(fn) if fn is not None else None
            if qualified is None:
                name = n.s("name") if n.has_attribute("name") else t.function_name
                qualified = f"__torch__.{name}"
            if fn is not None:
                self.dependencies.setdefault(qualified, fn)
            return qualified
        if n.has_attribute("name") and not n.has_attribute("value"):
            return n.s("name")
        value = constant_value(out)
        if self.enforce_importable and isinstance(value, (list, tuple, dict)) and value:
            # a container constant (traced graphs have them) would compile back as a
            # construction from its items; from the constant table it is the same constant
            return f"CONSTANTS.c{self.constants.add(value)}"
        return self.constant_str(value)

    # -- statements

    def print_node(self, node: Node, print_const: bool) -> None:
        kind = node.kind
        if not print_const and kind is CONSTANT:
            return
        if _unpacks_constant(node):
            # the items of a constant tuple are constants: printed in place, as source that
            # spells the tuple out compiles them (so print -> import -> print is stable)
            items = constant_value(node.inputs[0])
            for out, item in zip(node.outputs, items, strict=True):
                self.expr_table[out] = self.constant_str(item)
            return
        if kind is RETURN:
            if self.enforce_importable and len(node.inputs) != 1:
                raise PrintError("importable functions must return a single value")
            if node.inputs:
                self.emit("return " + ", ".join(self.use_of(v) for v in node.inputs))
        elif kind is LOOP:
            self.print_loop(node)
        elif kind is IF:
            self.print_if(node)
        elif kind is TUPLE_UNPACK or kind is LIST_UNPACK:
            self.assign_unique_names(node.outputs)
            names = ", ".join(self.use_of(o) for o in node.outputs)
            self.emit(
                f"{names}, = {self.use_of(node.inputs[0])}"
                if names
                else self.use_of(node.inputs[0])
            )
        elif kind is SET_ATTR:
            obj, value = node.inputs
            self.emit(f"{self.use_of(obj)}.{node.s('name')} = {self.use_of(value)}")
        elif kind is FORK:
            self.print_fork(node)
        elif kind is ENTER:
            self.emit(f"with {self.use_of(node.inputs[0])}:")
            self.level += 1
        elif kind is EXIT:
            self.level -= 1
        else:
            expr = self.rhs(node)
            if node not in self.output_inline or (kind is CONSTANT and self.is_long_line(expr)):
                self.print_output_definition(node, expr)
            else:
                out = node.output()
                self.expr_table[out] = expr
                if self.is_long_line(expr):
                    self.split_long_inlines(out)

    def print_block(self, b: Block, has_other_statements: bool) -> None:
        if not has_other_statements and b.is_empty():
            self.emit("pass")
        for n in b.nodes():
            self.print_node(n, False)

    def print_assignment(self, lhs: list[Value], rhs: list[Value]) -> None:
        if not lhs:
            return
        text = ", ".join(self.use_of(v) for v in lhs)
        if len(lhs) == 1:
            v = lhs[0]
            if (
                v not in self.annotated_unions
                and v not in self.expr_table
                and isinstance(v.type, (UnionType, OptionalType))
            ):
                text += " : " + self.type_str(v.type)
                self.annotated_unions.add(v)
        self.emit(text + " = " + ", ".join(self.use_of(v) for v in rhs))

    def _requires_annotation(self, lhs: Value, rhs: Value) -> bool:
        if isinstance(lhs.type, (UnionType, OptionalType)):
            if lhs in self.annotated_unions:
                return False
            self.annotated_unions.add(lhs)
            return True
        return lhs.type != rhs.type

    def print_annotated_assignment(self, lhs: list[Value], rhs: list[Value]) -> None:
        for a, b in zip(lhs, rhs, strict=True):
            text = self.use_of(a)
            if self._requires_annotation(a, b):
                text += ": " + self.type_str(a.type)
            self.emit(f"{text} = {self.use_of(b)}")

    def print_if(self, n: Node) -> None:
        self.assign_unique_names(n.outputs)
        self.emit(f"if {self.use_of(n.inputs[0])}:")
        then_block, else_block = n.blocks
        for b in (then_block, else_block):
            if b is else_block:
                self.emit("else:")
            self.level += 1
            self.print_block(b, bool(n.outputs))
            self.print_assignment(list(n.outputs), list(b.outputs))
            self.level -= 1

    def print_loop(self, n: Node) -> None:
        trip, cond, *init = n.inputs
        body = n.blocks[0]
        counter, *carried_inputs = body.inputs
        loop_type = _loop_type(n)
        if loop_type == "modified":
            if self.enforce_importable:
                raise PrintError(
                    "a loop that combines a trip count with a condition (made by an "
                    "optimization) has no Python form and cannot be saved"
                )
        as_for = loop_type == "for"
        outputs = list(n.outputs)
        self.assign_unique_names(outputs)
        for block_input, out in zip(carried_inputs, outputs, strict=True):
            self.expr_table[block_input] = self.use_of(out)
        self.print_annotated_assignment(outputs, list(init))
        self.assign_unique_names([counter])
        if as_for:
            self.emit(f"for {self.use_of(counter)} in range({self.use_of(trip)}):")
        elif loop_type == "modified":
            # display only: `.code` of an optimized graph
            self.print_assignment([counter], [cond])
            self.emit(f"while {self.use_of(counter)}:  # and at most {self.use_of(trip)} trips")
        else:
            self.print_assignment([counter], [cond])
            self.emit(f"while {self.use_of(counter)}:")
        self.level += 1
        offset = 1 if as_for else 0
        lhs = list(body.inputs)[offset:]
        self.print_block(body, bool(lhs))
        self.print_assignment(lhs, list(body.outputs)[offset:])
        self.level -= 1

    def print_fork(self, n: Node) -> None:
        name = self.gen_name("__forked_function")
        sub: Graph = n.g("Subgraph")
        self.emit(f"def {name}():")
        for inner, outer in zip(sub.inputs, n.inputs, strict=True):
            self.expr_table[inner] = self.use_of(outer)
        self.print_body(sub.block)
        self.print_output_definition(n, f"fork({name})")

    # -- expressions (TorchScript's printRHS)

    def rhs(self, node: Node) -> str:
        kind = node.kind
        ins = node.inputs
        use = self.use_of
        if kind is CONSTANT:
            return self._constant_node_str(node)
        if kind is UNINITIALIZED:
            return f"uninitialized({self.type_str(node.output().type)})"
        if kind == "aten::ScalarImplicit":
            return f"annotate(number, {use(ins[0])})"
        if Tag.python_builtin in registry.tags_of(node):  # `int(x)`, `sorted(xs)`
            return f"{kind.name.lower()}({', '.join(use(v) for v in ins)})"
        if kind == "aten::__getitem__":
            base = use(ins[0])
            if not _is_valid_identifier(base):
                base = f"({base})"
            return f"{base}[{use(ins[1])}]"
        if kind is PRINT:
            return f"print({', '.join(use(v) for v in ins)})"
        if kind is TUPLE_CONSTRUCT:
            items = ", ".join(use(v) for v in ins)
            t = node.output().type
            if isinstance(t, TupleType) and t.qualified_name is not None:
                self.dependencies.setdefault(t.qualified_name, t)
                return f"{t.qualified_name}({items})"
            return f"({items},)" if len(ins) == 1 else f"({items})"
        if kind is TUPLE_INDEX:
            return f"({use(ins[0])})[{use(ins[1])}]"
        if kind is LIST_CONSTRUCT:
            t = node.output().type
            items = "[" + ", ".join(use(v) for v in ins) + "]"
            if not ins:
                return f"annotate({self.type_str(t)}, [])"
            if isinstance(t, ListType) and not _element_inferable(t.element):
                return f"annotate({self.type_str(t)}, {items})"
            return items
        if kind is DICT_CONSTRUCT:
            t = node.output().type
            pairs = [f"{use(ins[i])}: {use(ins[i + 1])}" for i in range(0, len(ins), 2)]
            text = "{" + ", ".join(pairs) + "}"
            if (
                not ins
                or not isinstance(t, DictType)
                or not _element_inferable(t.key)
                or not _element_inferable(t.value)
            ):
                return f"annotate({self.type_str(t)}, {text})"
            return text
        if kind == "prim::CreateObject":
            name = self.type_str(node.output().type)
            return f"{name}.__new__({name})"
        if kind is GET_ATTR:
            self._register_type(ins[0].type)
            field = node.s("name")
            if _is_valid_identifier(field):
                return f"{use(ins[0])}.{field}"
            return f"getattr({use(ins[0])}, {quote_string(field)})"
        if kind is CALL_FUNCTION:
            return use(ins[0]) + "(" + "".join(f"{use(v)}, " for v in ins[1:]) + ")"
        if kind is CALL_METHOD:
            self._register_type(ins[0].type)
            args = "".join(f"{use(v)}, " for v in ins[1:])
            return f"({use(ins[0])}).{node.s('name')}({args})"
        if kind == "aten::_unwrap_optional":
            v = ins[0]
            if isinstance(v.type, NoneType):
                inner = OptionalType.create(node.output().type)
                return f"torch._unwrap_optional(annotate({self.type_str(inner)}, {use(v)}))"
            return f"torch._unwrap_optional({use(v)})"
        if kind is UNCHECKED_CAST or kind == "prim::unchecked_unwrap_optional":
            return f"unchecked_cast({self.type_str(node.output().type)}, {use(ins[0])})"
        if kind is ISINSTANCE:
            types = [self.type_str(t) for t in node.tys("types")]
            spelled = types[0] if len(types) == 1 else "(" + ", ".join(types) + ")"
            return f"isinstance({use(ins[0])}, {spelled})"
        if kind == "prim::tolist":
            return f"annotate({self.type_str(node.output().type)}, {use(ins[0])}.tolist())"
        return self.operator_call(node)

    def operator_call(self, node: Node) -> str:
        kind = node.kind
        if Tag.autograd_function in registry.tags_of(node):
            name = f"torch.autograd.{kind.name}"
        elif kind.ns == "aten":
            name = f"torch.{kind.name}"
        else:
            name = f"ops.{kind.ns}.{kind.name}"
        schema = None
        try:
            schema = node.maybe_schema()
        except TorchScriptError:
            schema = None
        ins = list(node.inputs)
        use = self.use_of
        if schema is None or not schema.arguments:
            if schema is None and self.enforce_importable and not _is_known(node):
                raise PrintError(f"no registered operator matches the node {node.kind}")
            return f"{name}({', '.join(use(v) for v in ins)})"
        formals = list(schema.arguments)
        necessary, num_out = _necessary_args(formals, ins)
        parts = []
        for i in range(necessary):
            text = use(ins[i])
            if i < len(formals) and formals[i].kwarg_only:
                text = f"{formals[i].name}={text}"
            parts.append(text)
        for i in range(len(formals) - num_out, len(formals)):
            parts.append(f"{formals[i].name}={use(ins[i])}")
        return f"{name}({', '.join(parts)})"

    # -- functions and classes

    def print_body(self, block: Block) -> None:
        constants: list[Node] = []
        seen: set[Node] = set()
        _build_constant_list(block, constants, seen)
        self.scan_block(block)
        self.level += 1
        for n in constants:
            if all(_unpacks_constant(use.user) for use in n.output().uses):
                continue  # only its items are printed
            self.print_node(n, True)
        self.print_block(block, bool(block.return_node.inputs))
        self.print_node(block.return_node, False)
        self.level -= 1

    def print_function(
        self,
        fn: Any,
        *,
        name: str | None = None,
        print_first_argument_type: bool = True,
    ) -> None:
        """`def name(args) -> T:` and the body of compiled function `fn` (graph and schema)."""
        graph: Graph = fn.graph
        self._reset_names()
        schema = getattr(fn, "schema", None)
        args = list(schema.arguments) if schema is not None else None
        if args is not None and len(args) != len(graph.inputs):
            args = None
        def_name = name or fn.name.rpartition(".")[2]
        params = []
        for i, v in enumerate(graph.inputs):
            formal = args[i] if args is not None else None
            arg_name = self.gen_name(
                formal.name if formal is not None else v.debug_name_base() or "_"
            )
            typ = formal.type if formal is not None else v.type
            text = arg_name
            if i > 0 or print_first_argument_type:
                text += ": " + self.type_str(typ)
                self.annotated_unions.add(v)
            if formal is not None and formal.has_default_value:
                text += "=" + self._default_str(formal)
            params.append(text)
            self.ident_refs[v] = arg_name
        if schema is not None and schema.returns:
            ret = schema.returns[0].type
        else:
            ret = graph.outputs[0].type if len(graph.outputs) == 1 else NoneType.get()
        self.emit(f"def {def_name}(" + ",\n    ".join(params) + f") -> {self.type_str(ret)}:")
        self.print_body(graph.block)

    def _default_str(self, formal: Any) -> str:
        value = formal.default_value
        t = formal.type
        n = getattr(formal, "N", None)
        if isinstance(t, ListType) and isinstance(value, (int, float, bool)) and n:
            return "[" + ", ".join(self.constant_str(value) for _ in range(n)) + "]"
        if isinstance(value, tuple) and isinstance(t, (ListType, OptionalType)):
            value = list(value)
        return self.constant_str(value)

    def print_method(self, fn: Any) -> None:
        """A method as `.code` shows it: `self` without its type."""
        self.print_function(fn, print_first_argument_type=False)


def _unpacks_constant(node: Node) -> bool:
    """A `prim::TupleUnpack` of a constant tuple: its outputs are constants."""
    if node.kind is not TUPLE_UNPACK:
        return False
    source = node.inputs[0].node
    if source.kind is not CONSTANT or not source.has_attribute("value"):
        return False
    items = constant_value(node.inputs[0])
    return isinstance(items, tuple) and len(items) == len(node.outputs)


def _is_known(node: Node) -> bool:
    return node.kind.ns == "prim"


def _build_constant_list(block: Block, out: list[Node], seen: set[Node]) -> None:
    for n in block.nodes():
        _constants_of(n, out, seen)
    _constants_of(block.return_node, out, seen)


def _constants_of(n: Node, out: list[Node], seen: set[Node]) -> None:
    for v in n.inputs:
        c = v.node
        if c.kind is CONSTANT and c not in seen:
            out.append(c)
            seen.add(c)
    for b in n.blocks:
        _build_constant_list(b, out, seen)


def _is_default(v: Value, formal: Any) -> bool:
    """The input equals its formal's default (IValue equality: same kind and value)."""
    if not formal.has_default_value or v.node.kind is not CONSTANT:
        return False
    n = v.node
    if n.has_attribute("name") and not n.has_attribute("value"):
        return False
    value = constant_value(v)
    default = formal.default_value
    if isinstance(default, tuple):
        default = list(default)
    if isinstance(value, tuple) and not isinstance(v.type, ListType):
        return isinstance(default, tuple) and value == default
    if isinstance(value, tuple):
        value = list(value)
    return _same_kind(value, default) and value == default


def _same_kind(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_kind(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b)


def _necessary_args(formals: list[Any], ins: list[Value]) -> tuple[int, int]:
    """TorchScript's CalculateNecessaryArgs: (arguments to print, trailing out= arguments)."""
    idx = len(formals) - 1
    while idx >= 0 and formals[idx].is_out:
        idx -= 1
    num_out = len(formals) - idx - 1
    if len(formals) < len(ins):
        return len(ins), num_out
    while idx >= 0:
        if idx < len(ins) and not _is_default(ins[idx], formals[idx]):
            return idx + 1, num_out
        idx -= 1
    return 0, num_out


def _loop_type(n: Node) -> str:
    """TorchScript's LoopView::loopType: "for", "while" or "modified"."""
    trip, cond = n.inputs[0], n.inputs[1]
    next_cond = n.blocks[0].outputs[0]

    def const(v: Value) -> Any:
        return constant_value(v) if v.node.kind is CONSTANT else _NOT_CONSTANT

    trip_value = const(trip)
    always_true = const(cond) is True and const(next_cond) is True
    trip_specified = trip_value is _NOT_CONSTANT or trip_value != INT64_MAX
    if always_true:
        return "for" if trip_specified else "while"
    return "modified" if trip_specified else "while"


_NOT_CONSTANT = object()


# -- entry points


def print_graph_as_python(graph: Graph, name: str, *, method: bool = False) -> str:
    """A graph (without a schema: parameters named after the graph's inputs) as a `def`."""

    class _Fn:
        pass

    fn = _Fn()
    fn.graph = graph  # type: ignore[attr-defined]
    fn.name = name  # type: ignore[attr-defined]
    fn.schema = None  # type: ignore[attr-defined]
    p = PythonPrinter()
    p.print_function(fn, print_first_argument_type=not method)
    return p.text()


def print_function(fn: Any) -> str:
    """The `.code` of a compiled function or method."""
    graph = fn.graph
    method = bool(graph.inputs) and isinstance(graph.inputs[0].type, ClassType)
    p = PythonPrinter()
    p.print_function(fn, print_first_argument_type=not method)
    return p.text()


def print_for_archive(
    fn: Any, constants: ConstantTable, *, name: str | None = None
) -> tuple[str, dict[str, Any]]:
    """Importable source of a function or method, and the classes and functions it names."""
    p = PythonPrinter(enforce_importable=True, constants=constants)
    p.print_function(fn, name=name)
    return p.text(), p.dependencies


__all__ = [
    "ConstantTable",
    "PrintError",
    "PythonPrinter",
    "print_for_archive",
    "print_function",
    "print_graph_as_python",
    "qualified_function_name",
]
