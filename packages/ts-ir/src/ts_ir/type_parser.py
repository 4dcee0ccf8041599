"""Parsing types from tokens: the IR printer's forms and Python annotation forms.

Reads everything `str(type)` prints (`int[]`, `Tensor?`, `(Tensor, int)`,
`Dict(str, Tensor)`, `Future[Tensor]`, `Float(*, *, requires_grad=0,
device=cpu)`, `__torch__.M`) and the annotation forms (`List[int]`,
`Optional[Tensor]`, `Tuple[int, str]`, `Dict[str, int]`, `Union[int, str]`).
The schema parser subclasses `TypeParser` to read alias annotations where IR
text has tensor refinements.
"""

from __future__ import annotations

from collections.abc import Callable

from .dtypes import ScalarType
from .lexer import Lexer, Token
from .types import (
    SINGLETON_TYPES,
    AwaitType,
    ClassType,
    Device,
    DictType,
    FunctionType,
    FutureType,
    ListType,
    OptionalType,
    RRefType,
    TensorType,
    TupleType,
    Type,
    UnionType,
)

_SCALAR_TYPE_NAMES = {t.name: t for t in ScalarType}


class TypeParser:
    """Recursive-descent type parser over a shared `Lexer`.

    `class_resolver(qualified_name)` supplies class types by name; the default
    makes (and remembers) an empty `ClassType`.
    """

    def __init__(self, lexer: Lexer, class_resolver: Callable[[str], Type] | None = None) -> None:
        self.L = lexer
        self._classes: dict[str, Type] = {}
        self.class_resolver = class_resolver or self._default_class

    def _default_class(self, name: str) -> Type:
        cls = self._classes.get(name)
        if cls is None:
            cls = self._classes[name] = ClassType(name, is_module=name.startswith("__torch__."))
        return cls

    def parse_type(self) -> Type:
        t = self.parse_base()
        return self.parse_suffixes(t)

    def parse_suffixes(self, t: Type) -> Type:
        L = self.L
        while True:
            if L.cur.kind == "[" and L.lookahead().kind == "]":
                L.next()
                L.next()
                t = ListType(t)
            elif L.cur.kind == "?":
                L.next()
                t = OptionalType.create(t)
            else:
                return t

    def parse_base(self) -> Type:
        L = self.L
        tok = L.cur
        if tok.kind == "(":
            L.next()
            elems = self._comma_list(")", self.parse_type)
            return TupleType(elems)
        if tok.kind != "ident":
            L.error(f"expected a type but found {tok.describe()}")
        name = L.next().text
        if name in (
            "Dict",
            "List",
            "Optional",
            "Tuple",
            "Future",
            "Await",
            "RRef",
            "Union",
            "NamedTuple",
        ) and L.cur.kind in (
            "(",
            "[",
        ):
            return self._parse_generic(name, tok)
        if (
            name in _SCALAR_TYPE_NAMES
            or name == "Tensor"
            or (name.endswith("Tensor") and name[:-6] in _SCALAR_TYPE_NAMES)
        ):
            return self.parse_tensor(name)
        if name == "Function":
            return FunctionType()
        single = SINGLETON_TYPES.get(name)
        if single is not None and L.cur.kind != ".":
            return single
        # a qualified class name: ident(.ident)*
        parts = [name]
        while L.cur.kind == "." and L.lookahead().kind == "ident":
            L.next()
            parts.append(L.next().text)
        if len(parts) == 1 and not name.startswith("__torch__"):
            return self.unknown_name(name, tok)
        return self.class_resolver(".".join(parts))

    def unknown_name(self, name: str, tok) -> Type:  # type: ignore[no-untyped-def]
        self.L.error(f"unknown type {name!r}", tok)
        raise AssertionError  # unreachable

    def _parse_generic(self, name: str, name_tok: Token) -> Type:
        L = self.L
        close = "]" if L.cur.kind == "[" else ")"
        L.next()
        if name == "NamedTuple":
            names: list[str] = []
            types: list[Type] = []

            def field() -> None:
                names.append(L.expect("ident", "a field name").text)
                L.expect(":")
                types.append(self.parse_type())

            self._comma_list(close, field)
            return TupleType(types, names)
        if name == "Tuple" and close == "]" and L.cur.kind == "(" and L.lookahead().kind == ")":
            L.next()
            L.next()
            L.expect("]")
            return TupleType([])
        args = self._comma_list(close, self.parse_type)
        arity = {"Dict": 2, "List": 1, "Optional": 1, "Future": 1, "Await": 1, "RRef": 1}.get(name)
        if arity is not None and len(args) != arity:
            L.error(
                f"{name} takes {arity} type argument{'s' if arity > 1 else ''}, got {len(args)}",
                name_tok,
            )
        if name == "Dict":
            return DictType(args[0], args[1])
        if name == "List":
            return ListType(args[0])
        if name == "Optional":
            return OptionalType.create(args[0])
        if name == "Future":
            return FutureType(args[0])
        if name == "Await":
            return AwaitType(args[0])
        if name == "RRef":
            return RRefType(args[0])
        if name == "Union":
            return UnionType.create(args)
        return TupleType(args)

    def _comma_list(self, close: str, item: Callable[[], object]) -> list:
        L = self.L
        out = []
        if L.next_if(close):
            return out
        while True:
            out.append(item())
            if L.next_if(close):
                return out
            L.expect(",", f"',' or '{close}'")

    # -- tensors

    def parse_tensor(self, head: str) -> Type:
        """`Tensor`, `Float`, `FloatTensor`, optionally refined: `Float(*, 3, strides=[3, 1], requires_grad=0, device=cpu)`."""
        L = self.L
        tensor_suffix = head.endswith("Tensor")
        scalar = _SCALAR_TYPE_NAMES.get(head[:-6] if tensor_suffix else head)
        if L.cur.kind != "(":
            if scalar is None:
                return self._undefined_suffix(TensorType.get())
            # `Float` alone would be a dtype, not a type; `FloatTensor` is unranked
            return self._undefined_suffix(TensorType(scalar))
        return self._undefined_suffix(
            self.parse_tensor_refinement(scalar, tensor_suffix=tensor_suffix)
        )

    def parse_tensor_refinement(
        self, scalar: ScalarType | None, *, tensor_suffix: bool
    ) -> TensorType:
        """The parenthesized part. The printer writes no sizes for an unknown rank, and a
        `Tensor`/`FloatTensor` head then; `Float(...)` without sizes means rank 0."""
        L = self.L
        L.expect("(")
        sizes: list[int | None] = []
        strides: list[int | None] | None = None
        requires_grad: bool | None = None
        device: Device | None = None
        saw_size_field = False
        strides_tok = None
        if not L.next_if(")"):
            while True:
                tok = L.cur
                if tok.kind == "*":
                    L.next()
                    sizes.append(None)
                    saw_size_field = True
                elif tok.kind == "number":
                    sizes.append(self._int(L.next()))
                    saw_size_field = True
                elif tok.kind == "ident" and tok.text == "strides":
                    strides_tok = L.next()
                    L.expect("=")
                    L.expect("[")
                    strides = []
                    if not L.next_if("]"):
                        while True:
                            strides.append(self._int(L.expect("number", "a stride")))
                            if L.next_if("]"):
                                break
                            L.expect(",")
                elif tok.kind == "ident" and tok.text == "requires_grad":
                    L.next()
                    L.expect("=")
                    flag = L.expect("number", "0 or 1")
                    if flag.text not in ("0", "1"):
                        L.error("requires_grad must be 0 or 1", flag)
                    requires_grad = flag.text == "1"
                elif tok.kind == "ident" and tok.text == "device":
                    L.next()
                    L.expect("=")
                    device = self.parse_device()
                else:
                    L.error(
                        f"expected a size, 'strides', 'requires_grad' or 'device' but found {tok.describe()}"
                    )
                if L.next_if(")"):
                    break
                L.expect(",", "',' or ')'")
        unranked = (
            not saw_size_field
            and tensor_suffix
            and (requires_grad is not None or device is not None)
        )
        if strides is not None and len(strides) != len(sizes):
            L.error(f"{len(strides)} strides given for {len(sizes)} sizes", strides_tok)
        return TensorType(
            scalar,
            device,
            requires_grad,
            None if unranked else sizes,
            None if unranked else strides,
        )

    def _undefined_suffix(self, t: TensorType) -> TensorType:
        L = self.L
        if (
            L.cur.kind == "["
            and L.lookahead().kind == "ident"
            and L.lookahead().text == "Undefined"
        ):
            L.next()
            L.next()
            L.expect("]")
            return t._replace(undefined=True)
        return t

    def parse_device(self) -> Device:
        L = self.L
        tok = L.expect("ident", "a device")
        if tok.text not in ("cpu", "cuda", "meta"):
            L.error(f"unknown device type {tok.text!r}", tok)
        index = None
        if L.cur.kind == ":":
            L.next()
            index = self._int(L.expect("number", "a device index"))
        return Device(tok.text, index)

    def _int(self, tok) -> int:  # type: ignore[no-untyped-def]
        if not tok.text.isdigit():
            self.L.error(f"expected a non-negative integer but found {tok.describe()}", tok)
        return int(tok.text)


def parse_type(text: str) -> Type:
    """Parse a type from its printed or annotation form: `parse_type("Dict(str, int[])")`."""
    from .errors import IRParseError

    lexer = Lexer(text, error_class=IRParseError)
    t = TypeParser(lexer).parse_type()
    lexer.expect("eof", "end of the type")
    return t
