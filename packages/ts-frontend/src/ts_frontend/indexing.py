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
from .errors import FrontendTypeError, NotSupportedError
from .expr_emitter import ExprEmitter
from .sugared_value import SimpleValue, SugaredValue


class IndexingMixin(ExprEmitter):
    """Subscript emission, mixed into `FunctionEmitter`."""

    def sugared_Subscript(self, e: t.Subscript, hint: object) -> SugaredValue:
        base = self.emit_sugared(e.value)
        if not isinstance(base, SimpleValue):
            if len(e.indices) != 1:
                raise NotSupportedError(f"{base.describe()} takes one index", e.range)
            return base.getitem(self, e.range, e.indices[0])
        v = base.value
        typ = v.type
        if isinstance(typ, TensorType):
            sliced, tensor_indices = self.emit_int_and_slice_indexing(e, v)
            if tensor_indices:
                lst = self._tensor_index_list(tensor_indices, e.range)
                return SimpleValue(self.call_builtin("aten::index", [sliced, lst], {}, e.range))
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
                args = self._slice_bounds(index, with_dim=False)
                return SimpleValue(self.call_builtin("aten::slice", [v, *args], {}, e.range))
            i = self.emit_expr(index)
            return SimpleValue(self.call_builtin("aten::__getitem__", [v, i], {}, e.range))
        if isinstance(typ, DictType):
            key = (
                self.emit_expr(index)
                if len(e.indices) == 1
                else self.emit_expr(t.TupleLiteral(e.range, e.indices))
            )
            return SimpleValue(self.call_builtin("aten::__getitem__", [v, key], {}, e.range))
        if isinstance(typ, (OptionalType, UnionType)):
            raise FrontendTypeError(
                f"cannot index a value of type '{typ.annotation_str()}'",
                e.range,
                hint="refine it first: `if x is not None:`",
            )
        raise NotSupportedError(
            f"a value of type '{typ.annotation_str()}' cannot be indexed", e.range
        )

    def _slice_bounds(self, s: t.Slice, *, with_dim: bool) -> list[Value]:
        loc = s.range
        start = self.emit_expr(s.start) if s.start is not None else self.constant(None, loc)
        stop = self.emit_expr(s.stop) if s.stop is not None else self.constant(None, loc)
        step = self.emit_expr(s.step) if s.step is not None else self.constant(1, loc)
        return [start, stop, step]

    def emit_tuple_index(self, v: Value, index: t.Expr, loc: SourceRange) -> Value:
        typ = v.type
        assert isinstance(typ, TupleType)
        n = len(typ.elements)
        g = self.graph
        if isinstance(index, t.Slice):
            bounds = []
            for part in (index.start, index.stop, index.step):
                bounds.append(
                    None if part is None else self.constant_int(part, "a tuple slice bound")
                )
            positions = list(range(n))[slice(*bounds)]
            items = [self._tuple_item(v, i, loc) for i in positions]
            return self.insert(g.create_tuple(items), loc).output()
        value = self.try_constant(index)
        if isinstance(value, int) and not isinstance(value, bool):
            i = value + n if value < 0 else value
            if not 0 <= i < n:
                raise FrontendTypeError(
                    f"tuple index {value} is out of range for a tuple of {n} elements", index.range
                )
            return self._tuple_item(v, i, loc)
        i_value = self.emit_expr(index)
        if not isinstance(i_value.type, IntType):
            raise FrontendTypeError("tuple indices must be integers", index.range)
        element = UnionType.create(typ.elements) if typ.elements else AnyType.get()
        node = self.insert(g.create_tuple_index(v, i_value, element), loc)
        return node.output()

    def _tuple_item(self, v: Value, i: int, loc: SourceRange) -> Value:
        typ = v.type
        assert isinstance(typ, TupleType)
        g = self.graph
        return self.insert(
            g.create_tuple_index(v, self.constant(i, loc), typ.elements[i]), loc
        ).output()

    def emit_int_and_slice_indexing(
        self, e: t.Subscript, v: Value
    ) -> tuple[Value, list[Value | None]]:
        """Apply int, slice, None and `...` indices; the tensor indices left to apply."""
        indices = e.indices
        ellipsis = [i for i, x in enumerate(indices) if isinstance(x, t.Dots)]
        if len(ellipsis) > 1:
            raise NotSupportedError("an index can have only one '...'", e.range)
        split = ellipsis[0] if ellipsis else len(indices)
        tensor_indices: list[Value | None] = []
        sliced = v
        dim = 0
        for x in indices[:split]:
            sliced, dim = self._apply_index(sliced, x, dim, e.range, tensor_indices, forward=True)
        if ellipsis:
            dim = -1
            after: list[Value | None] = []
            for x in reversed(indices[split + 1 :]):
                sliced, dim = self._apply_index(sliced, x, dim, e.range, after, forward=False)
            if after:
                raise NotSupportedError("tensor indices after '...' are not supported", e.range)
        while tensor_indices and tensor_indices[-1] is None:
            tensor_indices.pop()
        return sliced, tensor_indices

    def _apply_index(
        self,
        sliced: Value,
        x: t.Expr,
        dim: int,
        loc: SourceRange,
        tensor_indices: list[Value | None],
        *,
        forward: bool,
    ) -> tuple[Value, int]:
        step = 1 if forward else -1
        if isinstance(x, t.Slice):
            bounds = self._slice_bounds(x, with_dim=True)
            out = self.call_builtin(
                "aten::slice", [sliced, self.constant(dim, loc), *bounds], {}, loc
            )
            tensor_indices.append(None)
            return out, dim + step
        if isinstance(x, t.Const) and x.value is None:
            out = self.call_builtin(
                "aten::unsqueeze",
                [sliced, self.constant(dim if forward else dim + 1 if dim != -1 else -1, loc)],
                {},
                loc,
            )
            tensor_indices.append(None)
            return out, dim + step
        index = self.emit_expr(x)
        typ = index.type
        if isinstance(typ, IntType):
            return self.call_builtin(
                "aten::select", [sliced, self.constant(dim, loc), index], {}, loc
            ), dim
        if isinstance(typ, (TensorType, ListType)) or isinstance(typ, OptionalType):
            if isinstance(typ, ListType):
                index = self.call_builtin("aten::tensor", [index], {}, loc)
            tensor_indices.append(index)
            return sliced, dim + step
        if isinstance(typ, NoneType):
            out = self.call_builtin("aten::unsqueeze", [sliced, self.constant(dim, loc)], {}, loc)
            tensor_indices.append(None)
            return out, dim + step
        raise FrontendTypeError(
            f"unsupported index of type '{typ.annotation_str()}' for a tensor",
            x.range,
            hint=self.unannotated_hint(x),
        )

    def _tensor_index_list(self, indices: list[Value | None], loc: SourceRange) -> Value:
        values = [i if i is not None else self.constant(None, loc) for i in indices]
        g = self.graph
        return self.insert(g.create_list(OptionalType(TensorType.get()), values), loc).output()

    # -- assignment

    def emit_subscript_assign(self, target: t.Subscript, value: Value, loc: SourceRange) -> None:
        base = self.emit_expr(target.value)
        typ = base.type
        if isinstance(typ, TensorType):
            sliced, tensor_indices = self.emit_int_and_slice_indexing(target, base)
            if tensor_indices:
                lst = self._tensor_index_list(tensor_indices, target.range)
                value = self._as_tensor_like(value, sliced, target.range)
                self.call_builtin("aten::index_put_", [sliced, lst, value], {}, target.range)
                return
            value = self._as_tensor_like(value, sliced, target.range)
            self.call_builtin("aten::copy_", [sliced, value], {}, target.range)
            return
        if len(target.indices) != 1:
            raise NotSupportedError("multiple indices are only supported for tensors", target.range)
        index = target.indices[0]
        if isinstance(typ, ListType) and isinstance(index, t.Slice):
            raise NotSupportedError("assigning to a list slice is not supported", target.range)
        if isinstance(typ, (ListType, DictType)):
            key = self.emit_expr(index)
            self.call_builtin("aten::_set_item", [base, key, value], {}, target.range)
            return
        raise NotSupportedError(
            f"cannot assign to an element of a value of type '{typ.annotation_str()}'", target.range
        )

    def _as_tensor_like(self, value: Value, like: Value, loc: SourceRange) -> Value:
        if isinstance(value.type, TensorType):
            return value
        dtype = self.call_builtin("prim::dtype", [like], {}, None)
        device = self.call_builtin("prim::device", [like], {}, None)
        false = self.constant(False, None)
        kwargs = {"dtype": dtype, "device": device, "requires_grad": false}
        return self.call_builtin("aten::tensor", [value], kwargs, None)

    def emit_augmented_subscript(self, stmt: t.AugAssign) -> None:
        target = stmt.target
        assert isinstance(target, t.Subscript)
        base = self.emit_expr(target.value)
        typ = base.type
        if isinstance(typ, TensorType):
            sliced, tensor_indices = self.emit_int_and_slice_indexing(target, base)
            if tensor_indices:
                lst = self._tensor_index_list(tensor_indices, target.range)
                current = self.call_builtin("aten::index", [sliced, lst], {}, target.range)
                rhs = self.emit_expr(stmt.value)
                updated = self.binary_op(stmt.op, current, rhs, stmt.range)
                self.call_builtin("aten::index_put_", [sliced, lst, updated], {}, target.range)
                return
            self.emit_augmented(stmt, sliced)
            return
        if isinstance(typ, (ListType, DictType)) and len(target.indices) == 1:
            key = self.emit_expr(target.indices[0])
            current = self.call_builtin("aten::__getitem__", [base, key], {}, target.range)
            updated = self.emit_augmented(stmt, current)
            self.call_builtin("aten::_set_item", [base, key, updated], {}, stmt.range)
            return
        raise NotSupportedError(
            f"augmented assignment to an element of '{typ.annotation_str()}' is not supported",
            target.range,
        )

    def emit_delete_subscript(self, target: t.Subscript) -> None:
        base = self.emit_expr(target.value)
        if len(target.indices) != 1 or isinstance(target.indices[0], t.Slice):
            raise NotSupportedError("del takes one index", target.range)
        if not isinstance(base.type, (ListType, DictType)):
            raise NotSupportedError(
                f"cannot delete an element of a value of type '{base.type.annotation_str()}'",
                target.range,
            )
        key = self.emit_expr(target.indices[0])
        self.call_builtin("aten::Delete", [base, key], {}, target.range)
