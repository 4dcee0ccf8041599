"""Does a node fit a schema? The check behind `registry.operator_for` and `node.matches`.

As TorchScript's `Node::matches`: every node input is positional (keyword-only
arguments included), the count must equal the schema's unless it has
varargs, and each input's type must be a subtype of the formal type once the
schema's type variables are bound. A little more lenient than TorchScript
where IR written by hand or by passes carries plainer types: `Scalar`
accepts bools too, and `Optional[T]` accepts whatever `T` accepts.
"""

from __future__ import annotations

from collections.abc import Sequence

from ts_ir import BoolType, NumberType, OptionalType, Type, Value

from .function_schema import FunctionSchema
from .type_variables import evaluate_type_variables, has_free_variables, match_type_variables


class SchemaSignature:
    """The formal types of a schema, prepared once for fast repeated checks."""

    __slots__ = ("formals", "has_free", "is_vararg", "n")

    def __init__(self, schema: FunctionSchema) -> None:
        self.formals: tuple[Type, ...] = tuple(a.type for a in schema.arguments)
        self.has_free = any(has_free_variables(t) for t in self.formals)
        self.is_vararg = schema.is_vararg
        self.n = len(self.formals)

    def accepts(self, inputs: Sequence[Value]) -> bool:
        """Whether values of these types can be this schema's inputs. O(inputs)."""
        n = self.n
        count = len(inputs)
        if count != n and (count < n or not self.is_vararg):
            return False
        if not self.has_free:
            for formal, value in zip(self.formals, inputs, strict=False):
                actual = value.type
                if actual is not formal and not accepts_type(actual, formal):
                    return False
            return True
        bindings: dict[str, Type] = {}
        for formal, value in zip(self.formals, inputs, strict=False):
            actual = value.type
            if has_free_variables(formal):
                if not match_type_variables(formal, actual, bindings):
                    return False
                # None against Optional[T] may leave T unbound; None still fits
                formal = evaluate_type_variables(formal, bindings) or formal
            if actual is not formal and not accepts_type(actual, formal):
                return False
        return True


def accepts_type(actual: Type, formal: Type) -> bool:
    """`actual <: formal`, with bools accepted as `Scalar`s."""
    if actual.is_subtype_of(formal):
        return True
    if isinstance(formal, NumberType):
        return isinstance(actual, BoolType)
    if isinstance(formal, OptionalType):
        inner = actual.element if isinstance(actual, OptionalType) else actual
        return accepts_type(inner, formal.element)
    return False


def schema_accepts(schema: FunctionSchema, inputs: Sequence[Value]) -> bool:
    """Whether `inputs` fit `schema` (without caching; see `SchemaSignature`)."""
    return SchemaSignature(schema).accepts(inputs)
