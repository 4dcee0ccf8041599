"""Subscripts: reading, assigning, augmenting and deleting `x[...]`.

Tensors are indexed as TorchScript does: ints `aten::select`, slices
`aten::slice` (missing bounds are None, a missing step 1), `None`
`aten::unsqueeze`, `...` makes the following indices count from the last
dimension, and tensor indices are gathered into one `aten::index` (or
`aten::index_put_` when assigning). Assigning to an int/slice view copies
into it: `y[1] = 5.0` is `aten::copy_(select(y, 0, 1), aten::tensor(5.0,
dtype, device))`. Lists, strings and dicts use `aten::__getitem__`,
`aten::slice`, `aten::_set_item` and `aten::Delete`; tuples are indexed by
constants at compile time.
"""

from __future__ import annotations

from ts_ir import (
    AnyType,
    ClassType,
    DictType,
    IntType,
    ListType,
    NoneType,
    OptionalType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    UnionType,
    Value,
)

from . import tree as t
from .dtype_names import DTYPE_CODES
from .emit_context import Expressions, FunctionState
from .errors import FrontendTypeError, NotSupportedError
from .operators import augmented_op, binary_op
from .sugared_value import (
    NOT_CONSTANT,
    ConstantValue,
    NamedValue,
    SimpleValue,
    SugaredValue,
    constant_of,
)


class SubscriptEmitter:
    """Subscript emission."""

    def __init__(self, state: FunctionState, exprs: Expressions) -> None:
        self.state = state
        self.exprs = exprs

    def emit_subscript(self, e: t.Subscript) -> SugaredValue:
        state = self.state
        base = self.exprs.emit_sugared(e.value)
        if not isinstance(base, SimpleValue):
            if len(e.indices) != 1:
                raise NotSupportedError(f"{base.describe()} takes one index", e.range)
            index = e.indices[0]
            value = self.exprs.try_constant(index)
            sugared = (
                ConstantValue(value)
                if value is not NOT_CONSTANT
                else self.exprs.emit_sugared(index)
            )
            return base.getitem(state, e.range, NamedValue(index.range, sugared))
        v = base.value
        typ = v.type
        if isinstance(typ, ClassType):  # an object's `__getitem__`
            if len(e.indices) != 1:
                raise NotSupportedError(f"{base.describe()} takes one index", e.range)
            item = NamedValue(e.indices[0].range, self.exprs.emit_sugared(e.indices[0]))
            return state.compiler.object_value(v, e.range).getitem(state, e.range, item)
        if isinstance(typ, TensorType):
            sliced, tensor_indices = self.emit_int_and_slice_indexing(e, v)
            if tensor_indices:
                lst = self._tensor_index_list(tensor_indices, e.range)
                return SimpleValue(state.call_builtin("aten::index", [sliced, lst], {}, e.range))
            return SimpleValue(sliced)
        if len(e.indices) != 1 and not isinstance(typ, (TupleType, DictType)):
            raise NotSupportedError(
                f"a value of type '{typ.annotation_str()}' takes one index", e.range
            )
        if isinstance(typ, TupleType):
            if e.tuple_index and len(e.indices) != 1:
                raise NotSupportedError("a tuple takes one index", e.range)
            return SimpleValue(self.emit_tuple_index(v, e.indices[0], e.range))
        index = e.indices[0]
        if isinstance(typ, (ListType, StringType)):
            if isinstance(index, t.Slice):
                args = self._slice_bounds(index)
                return SimpleValue(state.call_builtin("aten::slice", [v, *args], {}, e.range))
            i = self.exprs.emit_expr(index)
            return SimpleValue(state.call_builtin("aten::__getitem__", [v, i], {}, e.range))
        if isinstance(typ, DictType):
            key = (
                self.exprs.emit_expr(index)
                if len(e.indices) == 1
                else self.exprs.emit_expr(t.TupleLiteral(e.range, e.indices))
            )
            return SimpleValue(state.call_builtin("aten::__getitem__", [v, key], {}, e.range))
        if isinstance(typ, (OptionalType, UnionType)):
            raise FrontendTypeError(
                f"cannot index a value of type '{typ.annotation_str()}'",
                e.range,
                hint="refine it first: `if x is not None:`",
            )
        raise NotSupportedError(
            f"a value of type '{typ.annotation_str()}' cannot be indexed", e.range
        )

    def _slice_bounds(self, s: t.Slice) -> list[Value]:
        loc = s.range
        emit, constant = self.exprs.emit_expr, self.state.constant
        start = emit(s.start) if s.start is not None else constant(None, loc)
        stop = emit(s.stop) if s.stop is not None else constant(None, loc)
        step = emit(s.step) if s.step is not None else constant(1, loc)
        return [start, stop, step]

    def _constant_int(self, e: t.Expr, what: str) -> int:
        value = self.exprs.try_constant(e)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise FrontendTypeError(f"{what} must be an integer constant", e.range)

    def emit_tuple_index(self, v: Value, index: t.Expr, loc: SourceRange) -> Value:
        state = self.state
        typ = v.type
        assert isinstance(typ, TupleType)
        n = len(typ.elements)
        g = state.graph
        if isinstance(index, t.Slice):
            bounds = [
                None if part is None else self._constant_int(part, "a tuple slice bound")
                for part in (index.start, index.stop, index.step)
            ]
            positions = list(range(n))[slice(*bounds)]
            items = [self._tuple_item(v, i, loc) for i in positions]
            return state.insert(g.create_tuple(items), loc).output()
        value = self.exprs.try_constant(index)
        sugared: SugaredValue | None = None
        if value is NOT_CONSTANT:
            sugared = self.exprs.emit_sugared(index)
            value = constant_of(sugared)
        if isinstance(value, int) and not isinstance(value, bool):
            i = value + n if value < 0 else value
            if not 0 <= i < n:
                raise FrontendTypeError(
                    f"tuple index {value} is out of range for a tuple of {n} elements", index.range
                )
            return self._tuple_item(v, i, loc)
        if sugared is None:
            sugared = self.exprs.emit_sugared(index)
        i_value = sugared.as_value(state, index.range)
        if not isinstance(i_value.type, IntType):
            raise FrontendTypeError("tuple indices must be integers", index.range)
        element = UnionType.create(typ.elements) if typ.elements else AnyType.get()
        return state.insert(g.create_tuple_index(v, i_value, element), loc).output()

    def _tuple_item(self, v: Value, i: int, loc: SourceRange) -> Value:
        typ = v.type
        assert isinstance(typ, TupleType)
        state = self.state
        node = state.graph.create_tuple_index(v, state.constant(i, loc), typ.elements[i])
        return state.insert(node, loc).output()

    def emit_int_and_slice_indexing(
        self, e: t.Subscript, v: Value
    ) -> tuple[Value, list[Value | None]]:
        """Apply int, slice, None and `...` indices; the tensor indices left to apply.

        Indices after `...` count from the last dimension, as TorchScript emits them:
        `x[..., 0, None]` is `unsqueeze(select(x, -1, 0), -1)`.
        """
        indices = e.indices
        ellipsis = [i for i, x in enumerate(indices) if isinstance(x, t.Dots)]
        if len(ellipsis) > 1:
            raise NotSupportedError("an index can have only one '...'", e.range)
        split = ellipsis[0] if ellipsis else len(indices)
        tensor_indices: list[Value | None] = []
        sliced = v
        dim = 0
        for x in indices[:split]:
            sliced, dim = self._apply_index(sliced, x, dim, e.range, tensor_indices)
        if ellipsis:
            after = indices[split + 1 :]
            dim = -sum(1 for x in after if not _is_none_literal(x))
            for x in after:
                sliced, dim = self._apply_index(sliced, x, dim, e.range, None)
        while tensor_indices and tensor_indices[-1] is None:
            tensor_indices.pop()
        return sliced, tensor_indices

    def _apply_index(
        self,
        sliced: Value,
        x: t.Expr,
        dim: int,
        loc: SourceRange,
        tensor_indices: list[Value | None] | None,
    ) -> tuple[Value, int]:
        """Apply index `x` at dimension `dim`; the result and the next dimension.

        `tensor_indices` is None after `...`: there `dim` counts from the end, so a new
        axis goes before it (`unsqueeze(dim - 1)`) and tensor indices are refused, as
        TorchScript refuses them.
        """
        state = self.state
        call, constant = state.call_builtin, state.constant
        from_end = tensor_indices is None
        if isinstance(x, t.Slice):
            bounds = self._slice_bounds(x)
            out = call("aten::slice", [sliced, constant(dim, loc), *bounds], {}, loc)
            if tensor_indices is not None:
                tensor_indices.append(None)
            return out, dim + 1
        index = None if _is_none_literal(x) else self.exprs.emit_expr(x)
        if index is None or isinstance(index.type, NoneType):
            if from_end and index is not None:
                raise NotSupportedError("after '...', write a new axis as a literal None", x.range)
            at = dim - 1 if from_end else dim
            out = call("aten::unsqueeze", [sliced, constant(at, loc)], {}, loc)
            if tensor_indices is not None:
                tensor_indices.append(None)
                return out, dim + 1
            return out, dim
        typ = index.type
        if isinstance(typ, IntType):
            out = call("aten::select", [sliced, constant(dim, loc), index], {}, loc)
            return out, dim + 1 if from_end else dim
        if isinstance(typ, (TensorType, ListType, OptionalType)):
            if tensor_indices is None:
                raise NotSupportedError("tensor indices after '...' are not supported", x.range)
            if isinstance(typ, ListType):  # a list indexes as a long tensor, empty or not
                index = call(
                    "aten::tensor", [index], {"dtype": constant(DTYPE_CODES["int64"], loc)}, loc
                )
            tensor_indices.append(index)
            return sliced, dim + 1
        raise FrontendTypeError(
            f"unsupported index of type '{typ.annotation_str()}' for a tensor",
            x.range,
            hint=state.unannotated_hint(index),
        )

    def _tensor_index_list(self, indices: list[Value | None], loc: SourceRange) -> Value:
        state = self.state
        values = [i if i is not None else state.constant(None, loc) for i in indices]
        node = state.graph.create_list(OptionalType(TensorType.get()), values)
        return state.insert(node, loc).output()

    # -- assignment

    def emit_subscript_assign(self, target: t.Subscript, value: Value, loc: SourceRange) -> None:
        state = self.state
        base = self.exprs.emit_expr(target.value)
        typ = base.type
        if isinstance(typ, TensorType):
            sliced, tensor_indices = self.emit_int_and_slice_indexing(target, base)
            if tensor_indices:
                lst = self._tensor_index_list(tensor_indices, target.range)
                value = self._as_tensor_like(value, sliced)
                state.call_builtin("aten::index_put_", [sliced, lst, value], {}, target.range)
                return
            value = self._as_tensor_like(value, sliced)
            state.call_builtin("aten::copy_", [sliced, value], {}, target.range)
            return
        if len(target.indices) != 1:
            raise NotSupportedError("multiple indices are only supported for tensors", target.range)
        index = target.indices[0]
        if isinstance(typ, ListType) and isinstance(index, t.Slice):
            raise NotSupportedError("assigning to a list slice is not supported", target.range)
        if isinstance(typ, (ListType, DictType)):
            key = self.exprs.emit_expr(index)
            state.call_builtin("aten::_set_item", [base, key, value], {}, target.range)
            return
        raise NotSupportedError(
            f"cannot assign to an element of a value of type '{typ.annotation_str()}'", target.range
        )

    def _as_tensor_like(self, value: Value, like: Value) -> Value:
        if isinstance(value.type, TensorType):
            return value
        call = self.state.call_builtin
        dtype = call("prim::dtype", [like], {}, None)
        device = call("prim::device", [like], {}, None)
        false = self.state.constant(False, None)
        kwargs = {"dtype": dtype, "device": device, "requires_grad": false}
        return call("aten::tensor", [value], kwargs, None)

    def emit_augmented_subscript(self, stmt: t.AugAssign) -> None:
        state = self.state
        target = stmt.target
        assert isinstance(target, t.Subscript)
        base = self.exprs.emit_expr(target.value)
        typ = base.type
        if isinstance(typ, TensorType):
            sliced, tensor_indices = self.emit_int_and_slice_indexing(target, base)
            if tensor_indices:
                lst = self._tensor_index_list(tensor_indices, target.range)
                current = state.call_builtin("aten::index", [sliced, lst], {}, target.range)
                rhs = self.exprs.emit_expr(stmt.value)
                updated = binary_op(state, stmt.op, current, rhs, stmt.range)
                state.call_builtin("aten::index_put_", [sliced, lst, updated], {}, target.range)
                return
            rhs = self.exprs.emit_expr(stmt.value)
            augmented_op(state, stmt.op, sliced, rhs, stmt.range)
            return
        if isinstance(typ, (ListType, DictType)) and len(target.indices) == 1:
            key = self.exprs.emit_expr(target.indices[0])
            current = state.call_builtin("aten::__getitem__", [base, key], {}, target.range)
            rhs = self.exprs.emit_expr(stmt.value)
            updated = augmented_op(state, stmt.op, current, rhs, stmt.range)
            state.call_builtin("aten::_set_item", [base, key, updated], {}, stmt.range)
            return
        raise NotSupportedError(
            f"augmented assignment to an element of '{typ.annotation_str()}' is not supported",
            target.range,
        )

    def emit_delete_subscript(self, target: t.Subscript) -> None:
        base = self.exprs.emit_expr(target.value)
        if len(target.indices) != 1 or isinstance(target.indices[0], t.Slice):
            raise NotSupportedError("del takes one index", target.range)
        obj = (
            self.state.compiler.object_value(base, target.range)
            if isinstance(base.type, ClassType)
            else None
        )
        if hasattr(obj, "delitem"):  # an object's `__delitem__`
            index = target.indices[0]
            item = NamedValue(index.range, self.exprs.emit_sugared(index))
            obj.delitem(self.state, target.range, item)
            return
        if not isinstance(base.type, (ListType, DictType)):
            raise NotSupportedError(
                f"cannot delete an element of a value of type '{base.type.annotation_str()}'",
                target.range,
            )
        key = self.exprs.emit_expr(target.indices[0])
        self.state.call_builtin("aten::Delete", [base, key], {}, target.range)


def _is_none_literal(x: t.Expr) -> bool:
    return isinstance(x, t.Const) and x.value is None
