"""`parse_ir`: IR text to a `Graph`, reading everything the printer writes.

Unlike PyTorch's own parser it also reads nodes without outputs
(` = prim::If(...)`), subgraph sections (`with prim::FusionGroup_0 =
graph(...)`), tensor constants as PyTorch prints them (` 1  2 [
CPUFloatType{2} ]`), and `# file:line:col` comments, which become node
source locations. Numeric value names are kept as the values' unique
numbers, so printing a parsed graph gives back the text it was parsed from.

What PyTorch's parser accepts, this one accepts too: a value without a
type is a `Tensor` (`graph(%a):`), a name defined again names the new value
from there on (`%x = a::a(%x)`; the new value prints unnamed, as in
PyTorch), an unknown lowercase type name is a type variable (`string`),
and a `prim::If` may have one block or a non-bool condition (`lint` still
reports those; passes need two blocks).

Malformed text raises `IRParseError` pointing at the offending token.
"""

from __future__ import annotations

import re
from typing import Any

from .attributes import AttributeKind, TensorLiteral, make_tensor_literal
from .dtypes import ScalarType
from .errors import IRParseError
from .ir import Graph, Node, Value, is_valid_name
from .lexer import Lexer, Token
from .lint import structure_problem
from .memory import cyclic_gc_paused
from .source import Source, SourceLocation, SourceRange
from .symbol import Symbol
from .tensor_text import TYPE_NAME_RE, assemble
from .type_parser import TypeParser
from .types import SINGLETON_TYPES, TensorType, Type, VarType

_BLOCK_RE = re.compile(r"block\d+\Z")
_GROUP_RE = re.compile(r"(.*)_(\d+)\Z")
_LOCATION_RE = re.compile(r"#\s*(.+):(\d+):(\d+)\s*\Z")
_NUMERIC_NAME_RE = re.compile(r"%(\d+)\b")
_VALUE_NAMES = frozenset({"inf", "nan", "True", "False", "None", "annotate"})


class _Scope:
    __slots__ = ("names", "parent")

    def __init__(self, parent: _Scope | None) -> None:
        self.parent = parent
        self.names: dict[str, Value] = {}

    def lookup(self, name: str) -> Value | None:
        scope: _Scope | None = self
        while scope is not None:
            v = scope.names.get(name)
            if v is not None:
                return v
            scope = scope.parent
        return None


class _IRTypeParser(TypeParser):
    def unknown_name(self, name: str, tok) -> Type:  # type: ignore[no-untyped-def]
        # PyTorch's schema type parser reads an unknown lowercase name as a type variable
        if name[:1].islower():
            return VarType(name)
        return super().unknown_name(name, tok)


class IRParser:
    def __init__(self, text: str, filename: str | None = None) -> None:
        self.source = Source(text, filename)
        self.L = Lexer(self.source, percent_names=True, error_class=IRParseError)
        self.types = _IRTypeParser(self.L)
        self._comment_index = 0
        numeric = [int(m) for m in _NUMERIC_NAME_RE.findall(text)]
        self._first_unique = max(numeric) + 1 if numeric else 0

    # -- graphs

    def parse(self) -> Graph:
        try:
            graph = self.parse_graph()
        except RecursionError:
            self.L.error("the text is nested too deeply")
        self.L.expect("eof", "end of input")
        return graph

    def parse_graph(self) -> Graph:
        L = self.L
        graph = Graph()
        graph._next_unique = self._first_unique
        defined: dict[str, Value] = {}
        scope = _Scope(None)
        head = L.expect("ident", "'graph'")
        if head.text != "graph":
            L.error(f"expected 'graph' but found {head.describe()}", head)
        L.expect("(")
        self._params(graph.block, scope, defined, ")")
        L.expect(":")
        groups: list[Node] = []
        self._statements(graph, graph.block, scope, defined, groups, end="return")
        L.next()  # 'return'
        L.expect("(")
        for v in self._uses(scope, ")"):
            graph.register_output(v)
        self._subgraph_sections(groups)
        return graph

    def _subgraph_sections(self, groups: list[Node]) -> None:
        """Attach `with kind_N = graph(...)` sections to the nodes printed as `kind_N`."""
        L = self.L
        for node in groups:
            if not (L.cur.kind == "ident" and L.cur.text == "with"):
                return
            L.next()
            kind_tok = L.cur
            kind = self._kind()
            if kind != node.kind:
                L.error(f"expected the subgraph of {node.kind} but found one for {kind}", kind_tok)
            L.expect("=")
            subgraph = self.parse_graph()
            match = _GROUP_RE.match(node.kind)
            assert match is not None
            node.kind = Symbol(match.group(1))
            attrs = node._attrs or {}
            node._attrs = None
            node.g_("Subgraph", subgraph)
            for name, (k, v) in attrs.items():
                node.set_attr(name, k, v)

    def _params(self, block: Any, scope: _Scope, defined: dict[str, Value], close: str) -> None:
        L = self.L
        if L.next_if(close):
            return
        while True:
            tok = L.expect("var", "a value name like %x")
            v = block.add_input(type=self._optional_type())
            self._define(v, tok, scope, defined)
            if L.next_if(close):
                return
            L.expect(",", f"',' or '{close}'")

    def _optional_type(self) -> Type:
        """`: Type`, or Tensor where a value is written without a type (as PyTorch reads it)."""
        if self.L.next_if(":"):
            return self.types.parse_type()
        return TensorType.get()

    def _define(self, v: Value, tok: Token, scope: _Scope, defined: dict[str, Value]) -> None:
        name = _value_name(tok)
        if name in defined:
            # a redefinition names the new value from here on; it prints without the name
            scope.names[name] = v
            return
        if name.isdecimal():
            v.unique = int(name)
        elif is_valid_name(name):
            v.set_debug_name(name)
        else:
            self.L.error(f"invalid value name {tok.text}", tok)
        defined[name] = v
        scope.names[name] = v

    def _uses(self, scope: _Scope, close: str) -> list[Value]:
        L = self.L
        values: list[Value] = []
        if L.next_if(close):
            return values
        while True:
            tok = L.expect("var", "a value name like %x")
            v = scope.lookup(_value_name(tok))
            if v is None:
                L.error(f"value {tok.text} is used but not defined in scope", tok)
            values.append(v)  # type: ignore[arg-type]
            if L.next_if(close):
                return values
            L.expect(",", f"',' or '{close}'")

    # -- statements

    def _statements(
        self,
        graph: Graph,
        block: Any,
        scope: _Scope,
        defined: dict[str, Value],
        groups: list[Node],
        end: str,
    ) -> None:
        L = self.L
        while True:
            tok = L.cur
            if (
                end == "return" and tok.kind == "ident" and tok.text == "return"
            ) or tok.kind == end:
                return
            if tok.kind not in ("var", "=", "ident"):  # an ident: a node without outputs
                expected = "'return'" if end == "return" else "'->'"
                L.error(f"expected a statement or {expected} but found {tok.describe()}")
            self._statement(graph, block, scope, defined, groups)

    def _statement(
        self, graph: Graph, block: Any, scope: _Scope, defined: dict[str, Value], groups: list[Node]
    ) -> None:
        L = self.L
        outputs: list[tuple[Token, Type]] = []
        if L.cur.kind == "var":
            while True:
                tok = L.expect("var", "a value name like %x")
                outputs.append((tok, self._optional_type()))
                if not L.next_if(","):
                    break
        if outputs or L.cur.kind == "=":  # a node without outputs may leave out the ` = `
            L.expect("=", "'='")
        kind_start = L.cur.start
        kind = self._kind()
        kind_end = L.prev_end
        node = Node(graph, kind)
        if L.cur.kind == "[":
            self._attributes(node)
        L.expect("(", "'(' and the node's inputs")
        for v in self._uses(scope, ")"):
            node.add_input(v)
        location = self._trailing_location(L.prev_end)
        if location is not None:
            node.source_range = location
        block.append_node(node)
        group = _GROUP_RE.match(kind)
        if group is not None and group.group(2) == str(len(groups)):
            groups.append(node)
        # blocks come before the outputs are visible
        while L.cur.kind == "ident" and _BLOCK_RE.match(L.cur.text):
            L.next()
            b = node.add_block()
            inner = _Scope(scope)
            L.expect("(")
            self._params(b, inner, defined, ")")
            L.expect(":")
            self._statements(graph, b, inner, defined, groups, end="->")
            L.expect("->")
            L.expect("(")
            for v in self._uses(inner, ")"):
                b.register_output(v)
        for tok, t in outputs:
            self._define(node.add_output(t), tok, scope, defined)
        problem = structure_problem(node, parsing=True)
        if problem is not None:
            raise IRParseError(problem, SourceRange(self.source, kind_start, kind_end))

    def _kind(self) -> Symbol:
        L = self.L
        ns = L.expect("ident", "an operator name like aten::add")
        L.expect("::", "'::'")
        name = L.expect("ident", "an operator name")
        return Symbol(f"{ns.text}::{name.text}")

    def _trailing_location(self, after: int) -> SourceLocation | None:
        """A `# file:line:col` comment on the same line, right after offset `after`."""
        comments = self.L.comments
        text = self.source.text
        found = None
        limit = self.L.cur.start
        while self._comment_index < len(comments):
            c = comments[self._comment_index]
            if c.start > limit:
                break
            self._comment_index += 1
            if found is None and c.start >= after and "\n" not in text[after : c.start]:
                m = _LOCATION_RE.match(c.text)
                if m:
                    found = SourceLocation(m.group(1), int(m.group(2)), int(m.group(3)))
        return found

    # -- attributes

    def _attributes(self, node: Node) -> None:
        L = self.L
        L.expect("[")
        while True:
            name = L.expect("ident", "an attribute name")
            L.expect("=")
            kind, value = self._attribute_value()
            if node.has_attribute(name.text):
                L.error(f"attribute '{name.text}' given twice", name)
            node.set_attr(name.text, kind, value)
            if L.next_if("]"):
                return
            L.expect(",", "',' or ']'")

    def _attribute_value(self) -> tuple[AttributeKind, Any]:
        L = self.L
        tok = L.cur
        K = AttributeKind
        if tok.kind == "string":
            return K.s, self._string(L.next())
        if self._tensor_print_follows():
            return K.t, self._tensor_print()
        if tok.kind == "{":
            # `{0}` is a one-element tensor, `{"a": 1}` and `{}` a dict
            key = L.lookahead()
            if key.kind in ("}", "string") or key.text in ("True", "False", "None"):
                return K.ival, self._ivalue()
            L.next()
            value = self._scalar()
            if L.cur.kind == ":":
                return K.ival, self._dict_rest(value)
            L.expect("}")
            return K.t, make_tensor_literal(value)
        if tok.kind == "<":
            L.error(
                "this attribute value (a tensor, graph or object) was printed without its contents and cannot be read back"
            )
        if tok.kind == "[":
            return self._list_attribute()
        if tok.kind == "(":
            if self._type_follows():
                return K.ty, self.types.parse_type()
            return K.ival, self._ivalue()
        if tok.kind in ("number", "-") or (tok.kind == "ident" and tok.text in ("inf", "nan")):
            value = self._scalar()
            return (
                K.i if isinstance(value, int) else K.f if isinstance(value, float) else K.c
            ), value
        if tok.kind == "ident" and tok.text in ("True", "False", "None"):
            return K.ival, self._ivalue()
        if tok.kind == "ident" and tok.text == "annotate" and L.lookahead().kind == "(":
            return K.ival, self._ivalue()
        if tok.kind == "ident":
            return K.ty, self.types.parse_type()
        L.error(f"expected an attribute value but found {tok.describe()}")
        raise AssertionError

    def _tensor_print_follows(self) -> bool:
        """Whether the attribute value is a tensor as PyTorch prints it (` 1  2 [
        CPUFloatType{2} ]`): numbers, slice headers `(1,.,.) =`, or `[ CPUFloatType{0} ]`."""
        L = self.L
        k = 0
        while True:
            tok = L.lookahead(k) if k else L.cur
            if tok.kind == "[":
                nxt = L.lookahead(k + 1)
                return nxt.kind == "ident" and TYPE_NAME_RE.match(nxt.text) is not None
            if tok.kind in ("number", "-", "(", ",", ".", ")", "=", "*") or (
                tok.kind == "ident" and tok.text in ("inf", "nan", "Columns", "to")
            ):
                if tok.kind in (",", "]") and k == 1:
                    return False
                k += 1
                if k > 4096:
                    return False
                continue
            return False

    def _tensor_print(self) -> TensorLiteral:
        L = self.L
        start = L.prev_end  # the spaces after `value=` are part of the printed form
        pieces: list[tuple[tuple[int, ...] | None, int, list[float]]] = []
        index: tuple[int, ...] | None = None
        first_col, scale = 0, 1.0
        values: list[float] = []

        def flush() -> None:
            if values:
                pieces.append((index, first_col, list(values)))
                values.clear()

        while not (L.cur.kind == "[" and L.lookahead().kind == "ident"):
            if L.cur.kind == "(":  # a slice header: (1,2,.,.) =
                flush()
                L.next()
                idx: list[int] = []
                while L.cur.kind == "number":
                    idx.append(int(L.next().value) - 1)  # type: ignore[arg-type]
                    L.expect(",")
                for expected in (".", ",", ".", ")", "="):
                    L.expect(expected)
                index, first_col, scale = tuple(idx), 0, 1.0
            elif L.cur.kind == "ident" and L.cur.text == "Columns":
                flush()
                L.next()
                first_col = int(L.expect("number").value) - 1  # type: ignore[arg-type]
                if L.expect("ident").text != "to":
                    L.error("expected 'to' in a column header")
                L.expect("number")
            else:
                value = float(self._scalar())  # type: ignore[arg-type]
                if L.next_if("*"):
                    flush()
                    scale = value
                else:
                    values.append(value * scale)
        flush()
        L.expect("[")
        name_tok = L.expect("ident")
        m = TYPE_NAME_RE.match(name_tok.text)
        if m is None or m.group(2) not in ScalarType.__members__:
            L.error(f"expected a tensor type like CPUFloatType but found {name_tok.text}", name_tok)
        L.expect("{")
        shape: list[int] = []
        while L.cur.kind == "number":
            shape.append(int(L.next().value))  # type: ignore[arg-type]
            L.next_if(",")
        L.expect("}")
        L.expect("]")
        numel = 1
        for d in shape:
            numel *= d
        flat = assemble(pieces, tuple(shape))
        if sum(len(p[2]) for p in pieces) != numel:
            L.error(f"a tensor of shape {shape} needs {numel} values", name_tok)
        device = "cuda" if m.group(1) == "CUDA" else "cpu"
        text = self.source.text[start : L.prev_end]
        return TensorLiteral(
            None, values=flat, shape=tuple(shape), scalar_type=m.group(2), device=device, text=text
        )

    def _list_attribute(self) -> tuple[AttributeKind, Any]:
        L = self.L
        K = AttributeKind
        if L.lookahead().kind == "<":
            L.error(
                "this attribute value was printed without its contents and cannot be read back",
                L.lookahead(),
            )
        if self._type_follows():
            L.next()
            types = [self.types.parse_type()]
            while L.next_if(","):
                types.append(self.types.parse_type())
            L.expect("]")
            return K.tys, types
        start = L.cur
        value = self._ivalue()
        assert isinstance(value, list)
        kinds = {_element_kind(x) for x in value}
        if len(kinds) > 1 and not kinds <= {"number"}:
            L.error("the elements of a list attribute must all be of one kind", start)
        if all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            return K.is_, value
        if all(isinstance(x, str) for x in value):
            return K.ss, value
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value) and any(
            isinstance(x, float) for x in value
        ):
            return K.fs, [float(x) for x in value]
        if all(isinstance(x, (int, float, complex)) and not isinstance(x, bool) for x in value):
            return K.cs, [complex(x) for x in value]
        return K.ival, value

    def _type_follows(self) -> bool:
        """Whether the bracketed attribute value at the current token holds types or values.

        Only types show a name that is not a literal (`[int]`, `[(), Tensor]`), a type
        suffix after brackets (`()?`, `[()[]]`), or a one-element tuple without a trailing
        comma (`(())`); values show numbers, strings and literals.
        """
        L = self.L
        groups: list[list[Any]] = []  # per open bracket: its kind, elements, last token
        k, prev = 0, ""
        while True:
            tok = L.lookahead(k) if k else L.cur
            kind = tok.kind
            if kind == "?" or (kind == "[" and prev in (")", "]")):
                return True
            if not groups and k > 0:
                return False
            if kind in ("(", "["):
                if groups and groups[-1][2] in ("(", "[", ","):
                    groups[-1][1] += 1
                groups.append([kind, 0, kind])
            elif kind in (")", "]"):
                opened, elements, last = groups.pop()
                if opened == "(" and elements == 1 and last != ",":
                    return True
                if groups:
                    groups[-1][2] = kind
            elif kind == ",":
                groups[-1][2] = kind
            else:
                return kind == "ident" and tok.text not in _VALUE_NAMES
            prev = kind
            k += 1

    def _ivalue(self) -> Any:
        """A printed IValue: numbers, strings, None/True/False, lists, tuples, dicts."""
        L = self.L
        tok = L.cur
        if tok.kind == "[":
            L.next()
            items = self._ivalue_items("]")
            return items
        if tok.kind == "(":
            L.next()
            items = self._ivalue_items(")")
            return tuple(items)
        if tok.kind == "{":
            L.next()
            if L.next_if("}"):
                return {}
            return self._dict_rest(self._ivalue())
        if tok.kind == "string":
            return self._string(L.next())
        if tok.kind == "ident" and tok.text in ("True", "False", "None"):
            L.next()
            return {"True": True, "False": False, "None": None}[tok.text]
        if tok.kind == "ident" and tok.text == "annotate":
            # `annotate(List[int], [])`: a container printed with its type
            L.next()
            L.expect("(")
            self.types.parse_type()
            L.expect(",")
            value = self._ivalue()
            L.expect(")")
            return value
        return self._scalar()

    def _dict_rest(self, key: Any) -> dict[Any, Any]:
        """The rest of a dict after its `{` and first key."""
        L = self.L
        out: dict[Any, Any] = {}
        while True:
            L.expect(":", "':'")
            out[key] = self._ivalue()
            if L.next_if("}"):
                return out
            L.expect(",", "',' or '}'")
            key = self._ivalue()

    def _ivalue_items(self, close: str) -> list[Any]:
        L = self.L
        items: list[Any] = []
        if L.next_if(close):
            return items
        while True:
            items.append(self._ivalue())
            if L.next_if(close):
                return items
            L.expect(",", f"',' or '{close}'")
            if L.next_if(close):  # a one-element tuple prints as `(x,)`
                return items

    def _scalar(self) -> int | float | complex:
        L = self.L
        negative = L.next_if("-") is not None
        tok = L.cur
        if tok.kind == "ident" and tok.text in ("inf", "nan"):
            L.next()
            value: int | float | complex = float(tok.text)
        elif tok.kind == "number":
            value = L.next().value  # type: ignore[assignment]
        else:
            L.error(f"expected a number but found {tok.describe()}")
            raise AssertionError
        if negative:
            # only a float prints as `-0` (a one-element tensor holding -0.0)
            value = -value if value != 0 or not isinstance(value, int) else -0.0
        # complex numbers print as `1.+2.j`
        if isinstance(value, (int, float)) and L.cur.kind in ("+", "-"):
            nxt = L.lookahead()
            if nxt.kind == "number" and nxt.text[-1] in "jJ":
                sign = -1 if L.next().kind == "-" else 1
                value = complex(value, sign * L.next().value.imag)  # type: ignore[union-attr]
        return value

    def _string(self, tok: Token) -> str:
        try:
            value = tok.value
        except ValueError as exc:  # an escape that names no character
            self.L.error(f"invalid string literal: {exc}", tok)
        if isinstance(value, bytes):
            self.L.error("byte strings are not IR string attributes", tok)
        return value  # type: ignore[return-value]


def _element_kind(x: Any) -> str:
    if isinstance(x, bool) or x is None:
        return type(x).__name__
    if isinstance(x, (int, float, complex)):
        return "number"
    return type(x).__name__


def _value_name(tok: Token) -> str:
    """The name of a `%name` token; numbers are normalized (`%07` is `%7`)."""
    name = tok.text[1:]
    return str(int(name)) if name.isdecimal() else name


def parse_ir(text: str, *, filename: str | None = None) -> Graph:
    """Parse IR text into a new `Graph`; raises `IRParseError` for malformed text.

    Python's cyclic garbage collector is paused while the graph is built (see
    `ts_ir.memory`): parsing creates only objects that live on.
    """
    with cyclic_gc_paused():
        return IRParser(text, filename).parse()


def parse_type_name(name: str) -> Type | None:
    """A singleton type by its printed name (`int`, `Tensor`), or None."""
    return SINGLETON_TYPES.get(name)
