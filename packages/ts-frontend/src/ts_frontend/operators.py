"""Python's operators as TorchScript's `aten::` operators.

`a + b` is `aten::add`, `a // b` is `aten::floordiv` of numbers and
`aten::floor_divide` of tensors, and `x += y` updates a tensor in place
(`aten::add_`) and extends a list (`aten::extend`); on other values it is
`x = x + y`. The overloads are matched by `EmitContext.call_builtin`.
"""

from __future__ import annotations

from ts_ir import IntType, ListType, SourceRange, StringType, TensorType, TupleType, Value

from .context import EmitContext

BINARY = {
    "+": "aten::add",
    "-": "aten::sub",
    "*": "aten::mul",
    "/": "aten::div",
    "%": "aten::remainder",
    "**": "aten::pow",
    "@": "aten::matmul",
    "&": "aten::__and__",
    "|": "aten::__or__",
    "^": "aten::__xor__",
    "<<": "aten::__lshift__",
    ">>": "aten::__rshift__",
}
INPLACE = {
    "+": "aten::add_",
    "-": "aten::sub_",
    "*": "aten::mul_",
    "/": "aten::div_",
    "%": "aten::remainder_",
    "//": "aten::floor_divide_",
    "**": "aten::pow_",
    "&": "aten::bitwise_and_",
    "|": "aten::bitwise_or_",
    "^": "aten::bitwise_xor_",
    "<<": "aten::__ilshift__",
    ">>": "aten::__irshift__",
}


def binary_op(ctx: EmitContext, op: str, lhs: Value, rhs: Value, loc: SourceRange) -> Value:
    """`lhs op rhs`."""
    if isinstance(lhs.type, StringType):
        if op == "%":  # `"%d items" % n`, `"%s: %s" % (k, v)`
            return ctx.call_builtin("aten::percentFormat", [lhs, rhs], {}, loc)
        if op == "*" and isinstance(rhs.type, IntType):
            return _repeat_string(ctx, lhs, rhs, loc)
    if op == "*" and isinstance(rhs.type, StringType) and isinstance(lhs.type, IntType):
        return _repeat_string(ctx, rhs, lhs, loc)
    if op == "+" and isinstance(lhs.type, TupleType) and isinstance(rhs.type, TupleType):
        return _concat_tuples(ctx, lhs, rhs, loc)
    if op == "//":
        tensor = isinstance(lhs.type, TensorType) or isinstance(rhs.type, TensorType)
        symbol = "aten::floor_divide" if tensor else "aten::floordiv"
    else:
        symbol = BINARY[op]
    return ctx.call_builtin(symbol, [lhs, rhs], {}, loc)


def augmented_op(ctx: EmitContext, op: str, lhs: Value, rhs: Value, loc: SourceRange) -> Value:
    """`lhs op= rhs`: in place for tensors and lists (`aten::add_`), else `lhs op rhs`."""
    if isinstance(lhs.type, TensorType) and op in INPLACE:
        return ctx.call_builtin(INPLACE[op], [lhs, rhs], {}, loc)
    if isinstance(lhs.type, ListType) and op == "+":
        ctx.call_builtin("aten::extend", [lhs, rhs], {}, loc)
        return lhs
    if isinstance(lhs.type, ListType) and op == "*":
        return ctx.call_builtin("aten::mul_", [lhs, rhs], {}, loc)
    return binary_op(ctx, op, lhs, rhs, loc)


def _concat_tuples(ctx: EmitContext, lhs: Value, rhs: Value, loc: SourceRange) -> Value:
    """`a + b` of tuples: one tuple of the items of both, their types kept."""
    g = ctx.graph
    items = [
        *ctx.insert(g.create_tuple_unpack(lhs), loc).outputs,
        *ctx.insert(g.create_tuple_unpack(rhs), loc).outputs,
    ]
    return ctx.insert(g.create_tuple(items), loc).output()


def _repeat_string(ctx: EmitContext, s: Value, n: Value, loc: SourceRange) -> Value:
    """`s * n` as `"".join([s] * n)`: TorchScript has no operator repeating a string."""
    g = ctx.graph
    one = ctx.insert(g.create_list(StringType.get(), [s]), loc).output()
    repeated = ctx.call_builtin("aten::mul", [one, n], {}, loc)
    return ctx.call_builtin("aten::join", [ctx.constant("", loc), repeated], {}, loc)
