"""LLVM IR for one specialization of a fusion group.

Every kernel has the same shape of signature:

    i32 @name(ptr in0, ..., <number inputs>, ptr out0, ..., ptr info, i64 start, i64 end)

One `ptr` per tensor input and per output: the numpy array object itself
(its data pointer is read from the array struct at `data_offset`, which
saves the caller a slow attribute lookup per array per call), or the data
pointer (`pass_objects=False`). Number inputs arrive as `i64`, `double` or
`i8` (bool). `info` holds what varies between launches of the same code: the
byte offset of each loaded operand (chunks start inside their array), and on
the strided path the coalesced sizes and each operand's strides. `[start,
end)` is the share of the work of one call: elements on the flat path, rows
on the strided path; threads run disjoint shares. The result is 0, or 1 when
some element cannot be computed here (an integer division by zero): the
caller then runs the group in the interpreter, which raises the error.

The entry function reads the data pointers and calls `@name.body`, whose
output pointers are `noalias` (outputs are fresh arrays), so the loops
vectorize without run-time overlap checks.

With `Abi.python_entry`, `@name.py` takes the same arguments as CPython
objects (a `METH_FASTCALL` function), which costs far less to call than
ctypes for the small launches that run on the calling thread.

Elements the fast math cannot handle (float32 trigonometry beyond 10^6) set
a flag; a loop (or a row) that saw one runs again with libm's functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from llvmlite import ir
from ts_ir import Category, ScalarType, TensorType, Value

from .llvm_types import F64, I1, I8, I32, I64, PTR, memory_type, numpy_dtype, register_type
from .mathlib import declare, intrinsic
from .operands import Operand, cast_value, constant_value_of
from .specialization import Access, Leaf, Path, Specialization, Step

S = ScalarType

#: Where numpy's array struct (`PyArrayObject_fields`) keeps the data pointer on 64-bit CPython:
#: right after the object header (reference count and type).
NUMPY_DATA_OFFSET = 16
#: The flat path computes whole blocks of this many elements; the last partial block goes
#: through scratch buffers (a multiple of every vector width the loops use).
TAIL_BLOCK = 16


@dataclass(frozen=True, slots=True)
class Abi:
    """How a kernel is called.

    `pass_objects`: arrays are passed as objects (the data pointer read at
    `data_offset`) or as pointers. `python_entry`: also emit `@name.py`, a
    CPython `METH_FASTCALL` function taking the same arguments as Python
    objects, so small launches skip ctypes' argument conversion (it keeps the
    GIL; large launches go through ctypes, which releases it).
    """

    pass_objects: bool = True
    data_offset: int = NUMPY_DATA_OFFSET
    python_entry: bool = False

    @property
    def key(self) -> tuple:
        return (
            self.pass_objects,
            self.data_offset if self.pass_objects else None,
            self.python_entry and self.pass_objects,
        )


def _scalar_param_type(dtype: ScalarType) -> ir.Type:
    if dtype is S.Bool:
        return I8
    if dtype is S.Double:
        return F64
    return I64


class _Loop:
    """A counted loop `for i in [start, end)` with values carried from one iteration to the next."""

    def __init__(
        self, b: ir.IRBuilder, start: ir.Value, end: ir.Value, name: str, carried: list[ir.Value]
    ) -> None:
        self.b = b
        self.end = end
        self.entry = b.block
        fn = b.block.parent
        self.body = fn.append_basic_block(f"{name}.body")
        self.exit = fn.append_basic_block(f"{name}.exit")
        self.initial = carried
        b.cbranch(b.icmp_signed("<", start, end), self.body, self.exit)
        b.position_at_end(self.body)
        self.index = b.phi(I64, name=f"{name}.i")
        self.index.add_incoming(start, self.entry)
        self.phis = []
        for k, init in enumerate(carried):
            phi = b.phi(init.type, name=f"{name}.c{k}")
            phi.add_incoming(init, self.entry)
            self.phis.append(phi)

    def close(self, carried: list[ir.Value]) -> list[ir.Value]:
        """End the body; the carried values after the loop (their initial values if it never ran)."""
        b = self.b
        nxt = b.add(self.index, I64(1))
        latch = b.block
        self.index.add_incoming(nxt, latch)
        for phi, value in zip(self.phis, carried, strict=True):
            phi.add_incoming(value, latch)
        b.cbranch(b.icmp_signed("<", nxt, self.end), self.body, self.exit)
        b.position_at_end(self.exit)
        results = []
        for init, value in zip(self.initial, carried, strict=True):
            phi = b.phi(init.type)
            phi.add_incoming(init, self.entry)
            phi.add_incoming(value, latch)
            results.append(phi)
        return results


class _ElementContext:
    """The `LoweringContext` lowerings see while one element is emitted."""

    def __init__(self, b: ir.IRBuilder, exact: bool) -> None:
        self.b = b
        self.exact = exact
        self.exact_flags: list[ir.Value] = []
        self.fail_flags: list[ir.Value] = []

    def cast(self, operand: Operand, dtype: ScalarType) -> ir.Value:
        if operand.is_const:
            if operand.dtype is None:
                raise AssertionError(f"{operand.const!r} is not a number")
            return constant_value_of(operand.const, dtype)
        assert operand.value is not None and operand.dtype is not None
        return cast_value(self.b, operand.value, operand.dtype, dtype)

    def needs_exact(self, flag: ir.Value) -> None:
        if not self.exact:
            self.exact_flags.append(flag)

    def fail_if(self, flag: ir.Value) -> None:
        self.fail_flags.append(flag)


def _any(b: ir.IRBuilder, flags: list[ir.Value]) -> ir.Value:
    acc: ir.Value = I1(0)
    for f in flags:
        acc = b.or_(acc, f)
    return acc


class KernelEmitter:
    """Builds the LLVM module of one specialization."""

    def __init__(self, spec: Specialization, name: str, abi: Abi = Abi()) -> None:
        self.spec = spec
        self.name = name
        self.abi = abi
        self.module = ir.Module(name=name)
        # kernel parameters, in order
        self.tensor_inputs = [i for i, t in enumerate(spec.inputs) if isinstance(t, TensorType)]
        self.scalar_inputs = spec.scalar_args

    def emit(self) -> ir.Module:
        self._body()
        self._entry()
        if self.abi.python_entry and self.abi.pass_objects:
            self._python_entry()
        return self.module

    # -- signatures

    def _param_types(self) -> list[ir.Type]:
        types: list[ir.Type] = [PTR] * len(self.tensor_inputs)
        types += [_scalar_param_type(d) for _, d in self.scalar_inputs]
        types += [PTR] * len(self.spec.outputs)
        return [*types, PTR, I64, I64]

    def _entry(self) -> None:
        fn = ir.Function(self.module, ir.FunctionType(I32, self._param_types()), name=self.name)
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        params = list(fn.args)
        n_t, n_s, n_o = len(self.tensor_inputs), len(self.scalar_inputs), len(self.spec.outputs)
        arrays = params[:n_t] + params[n_t + n_s : n_t + n_s + n_o]
        data = [self._data_pointer(b, p) for p in arrays]
        rest = params[n_t : n_t + n_s] + params[n_t + n_s + n_o :]
        status = b.call(self.body, data[n_t:] + data[:n_t] + rest)
        b.ret(status)

    def _python_entry(self) -> None:
        """`PyObject *name.py(PyObject *self, PyObject *const *args, Py_ssize_t nargs)`: the arrays,
        numbers, info address, start and end as Python objects; returns the status as an int."""
        fn = ir.Function(self.module, ir.FunctionType(PTR, [PTR, PTR, I64]), name=f"{self.name}.py")
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        _, args, _ = fn.args
        position = iter(range(1 << 16))

        def arg() -> ir.Value:
            slot = b.gep(args, [I64(next(position))], source_etype=PTR)
            return b.load(slot, typ=PTR, align=8)

        def api(name: str, ret: ir.Type, value: ir.Value) -> ir.Value:
            return b.call(declare(b, name, ret, [PTR]), [value])

        inputs = [self._data_pointer(b, arg()) for _ in self.tensor_inputs]
        scalars = []
        for _, dtype in self.scalar_inputs:
            obj = arg()
            if dtype is S.Double:
                scalars.append(api("PyFloat_AsDouble", F64, obj))
            elif dtype is S.Bool:
                scalars.append(b.trunc(api("PyObject_IsTrue", I32, obj), I8))
            else:
                scalars.append(api("PyLong_AsLongLong", I64, obj))
        outputs = [self._data_pointer(b, arg()) for _ in self.spec.outputs]
        info = api("PyLong_AsVoidPtr", PTR, arg())
        start = api("PyLong_AsLongLong", I64, arg())
        end = api("PyLong_AsLongLong", I64, arg())
        status = b.call(self.body, [*outputs, *inputs, *scalars, info, start, end])
        result = b.call(declare(b, "PyLong_FromLong", PTR, [I64]), [b.sext(status, I64)])
        b.ret(result)

    def _data_pointer(self, b: ir.IRBuilder, param: ir.Argument) -> ir.Value:
        if not self.abi.pass_objects:
            return param
        slot = b.gep(param, [I64(self.abi.data_offset)], source_etype=I8)
        return b.load(slot, typ=PTR, align=8)

    # -- the body

    def _body(self) -> None:
        spec = self.spec
        n_o = len(spec.outputs)
        types = [PTR] * n_o + [PTR] * len(self.tensor_inputs)
        types += [_scalar_param_type(d) for _, d in self.scalar_inputs] + [PTR, I64, I64]
        fn = ir.Function(self.module, ir.FunctionType(I32, types), name=f"{self.name}.body")
        fn.linkage = "internal"
        args = list(fn.args)
        for i, a in enumerate(args[: n_o + len(self.tensor_inputs)]):
            if i < n_o:
                a.attributes.add("noalias")
            a.attributes.add("captures(none)")
        self.body = fn
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        self.b = b
        self.outs = args[:n_o]
        inputs = args[n_o : n_o + len(self.tensor_inputs)]
        scalars = args[n_o + len(self.tensor_inputs) : -3]
        self.info, start, end = args[-3:]
        self.input_data = dict(zip(self.tensor_inputs, inputs, strict=True))

        # values every element shares: constants, numbers passed in, operands loaded once
        self.shared: dict[Value, Operand] = {}
        for v, operand in spec.operands.items():
            if operand.is_const:
                self.shared[v] = operand
        for (i, dtype), param in zip(self.scalar_inputs, scalars, strict=True):
            value = b.icmp_unsigned("!=", param, I8(0)) if dtype is S.Bool else param
            self.shared[spec.subgraph.inputs[i]] = Operand(dtype, Category.SCALAR, value)
        self.leaf_base: dict[Value, ir.Value] = {}
        for k, leaf in enumerate(spec.leaves):
            if not leaf.loaded:
                continue
            base = self.input_data[leaf.arg]
            if leaf.chunk is not None:
                offset = self._info(k)
                base = b.gep(base, [offset], source_etype=I8)
            self.leaf_base[leaf.value] = base
            if leaf.access is Access.SCALAR:
                self.shared[leaf.value] = self._load(leaf, base)

        if spec.path is Path.FLAT:
            status = self._flat(start, end)
        elif spec.path is Path.STRIDED:
            status = self._strided(start, end)
        else:
            status = self._rows(start, end)
        b.ret(status)

    def _info(self, index: int) -> ir.Value:
        b = self.b
        return b.load(b.gep(self.info, [I64(index)], source_etype=I64), typ=I64, align=8)

    def _load(self, leaf: Leaf, pointer: ir.Value) -> Operand:
        b = self.b
        ty = memory_type(leaf.dtype)
        value = b.load(pointer, typ=ty, align=numpy_dtype(leaf.dtype).itemsize)
        if leaf.dtype is S.Bool:
            value = b.icmp_unsigned("!=", value, I8(0))
        category = Category.DIM if leaf.sizes else Category.ZERO_DIM
        return Operand(leaf.dtype, category, value)

    def _element(
        self, exact: bool, load: Callable[[Leaf], Operand], store: Callable[[int, ir.Value], None]
    ) -> _ElementContext:
        """Emit one element's computation and its stores; returns the flags it raised."""
        spec = self.spec
        b = self.b
        ctx = _ElementContext(b, exact)
        env = dict(self.shared)
        leaves = {leaf.value: leaf for leaf in spec.leaves if leaf.loaded}

        def get(v: Value) -> Operand:
            operand = env.get(v)
            if operand is None:
                leaf = leaves.get(v)
                # an operand that is never read (the `other` of `type_as`) has only a dtype
                operand = env[v] = load(leaf) if leaf is not None else spec.operands[v]
            return operand

        for step in spec.steps:
            node = step.node
            args = [get(v) for v in node.inputs]
            value = step.lowering.emit(ctx, node, args, step.dtype)
            category = spec.operands[node.output()].category
            env[node.output()] = Operand(step.dtype, category, value)
        for k, (v, dtype) in enumerate(spec.outputs):
            operand = get(v)
            value = ctx.cast(operand, dtype)
            if dtype is S.Bool:
                value = b.zext(value, I8)
            store(k, value)
        return ctx

    def _store_at(self, index: ir.Value) -> Callable[[int, ir.Value], None]:
        def store(k: int, value: ir.Value) -> None:
            dtype = self.spec.outputs[k][1]
            pointer = self.b.gep(self.outs[k], [index], source_etype=memory_type(dtype))
            self.b.store(value, pointer, align=numpy_dtype(dtype).itemsize)

        return store

    def _run(
        self,
        start: ir.Value,
        end: ir.Value,
        name: str,
        element: Callable[[ir.Value, bool], _ElementContext],
    ) -> ir.Value:
        """A loop over [start, end) computing `element`, rerun exactly if an element asks; the
        failure flag of the whole range."""
        b = self.b
        loop = _Loop(b, start, end, name, [I1(0), I1(0)])
        ctx = element(loop.index, False)
        exact_flag = b.or_(loop.phis[0], _any(b, ctx.exact_flags))
        fail_flag = b.or_(loop.phis[1], _any(b, ctx.fail_flags))
        needs_exact, failed = loop.close([exact_flag, fail_flag])
        if not ctx.exact_flags:
            return failed
        fn = b.block.parent
        redo = fn.append_basic_block(f"{name}.exact")
        done = fn.append_basic_block(f"{name}.done")
        b.cbranch(needs_exact, redo, done)
        b.position_at_end(redo)
        exact_loop = _Loop(b, start, end, f"{name}.exact", [])
        element(exact_loop.index, True)
        exact_loop.close([])
        b.branch(done)
        b.position_at_end(done)
        return failed

    # -- the flat path: one loop over elements

    def _flat(self, start: ir.Value, end: ir.Value) -> ir.Value:
        """Whole blocks of `TAIL_BLOCK` elements in place; the rest through scratch blocks, so it
        is computed by the vector loop too (a scalar remainder loop over a long fused
        expression costs its full latency per element)."""
        b = self.b
        count = b.sub(end, start)
        block_end = b.add(start, b.mul(b.udiv(count, I64(TAIL_BLOCK)), I64(TAIL_BLOCK)))

        def element(i: ir.Value, exact: bool) -> _ElementContext:
            def load(leaf: Leaf) -> Operand:
                base = self.leaf_base[leaf.value]
                return self._load(leaf, b.gep(base, [i], source_etype=memory_type(leaf.dtype)))

            return self._element(exact, load, self._store_at(i))

        failed_blocks = self._run(start, block_end, "flat", element)
        fn = b.block.parent
        tail = fn.append_basic_block("tail")
        done = fn.append_basic_block("tail.done")
        before = b.block
        b.cbranch(b.icmp_signed("<", block_end, end), tail, done)
        b.position_at_end(tail)
        failed_tail = self._flat_tail(block_end, end)
        tail_end = b.block
        b.branch(done)
        b.position_at_end(done)
        failed = b.phi(I1)
        failed.add_incoming(I1(0), before)
        failed.add_incoming(failed_tail, tail_end)
        return b.zext(b.or_(failed_blocks, failed), I32)

    def _scratch(self, ty: ir.Type) -> ir.Value:
        """A block of `TAIL_BLOCK` elements on the stack (allocated in the entry block)."""
        entry = self.body.entry_basic_block
        builder = ir.IRBuilder(entry)
        builder.position_at_start(entry)
        return builder.alloca(ty, size=TAIL_BLOCK)

    def _flat_tail(self, start: ir.Value, end: ir.Value) -> ir.Value:
        """Elements [start, end), fewer than a block: copied into scratch blocks (padded with the
        last element, so padding lanes compute something real), computed, copied out."""
        b = self.b
        last = b.sub(end, I64(1))
        buffers: dict[Value, ir.Value] = {}
        for leaf in self.spec.leaves:
            if not leaf.loaded or leaf.access is not Access.CONTIGUOUS:
                continue
            ty = memory_type(leaf.dtype)
            buffer = self._scratch(ty)
            buffers[leaf.value] = buffer
            base = self.leaf_base[leaf.value]
            fill = _Loop(b, I64(0), I64(TAIL_BLOCK), "fill", [])
            source = b.add(start, fill.index)
            source = b.select(b.icmp_signed("<", source, end), source, last)
            value = b.load(b.gep(base, [source], source_etype=ty), typ=ty)
            b.store(value, b.gep(buffer, [fill.index], source_etype=ty))
            fill.close([])
        results = [self._scratch(memory_type(d)) for _, d in self.spec.outputs]

        def store(j: ir.Value) -> Callable[[int, ir.Value], None]:
            def put(k: int, value: ir.Value) -> None:
                b.store(value, b.gep(results[k], [j], source_etype=value.type))

            return put

        def element(j: ir.Value, exact: bool) -> _ElementContext:
            def load(leaf: Leaf) -> Operand:
                pointer = b.gep(buffers[leaf.value], [j], source_etype=memory_type(leaf.dtype))
                return self._load(leaf, pointer)

            return self._element(exact, load, store(j))

        failed = self._run(I64(0), I64(TAIL_BLOCK), "tail", element)
        copy = _Loop(b, start, end, "copy", [])
        j = b.sub(copy.index, start)
        for k, (_, dtype) in enumerate(self.spec.outputs):
            ty = memory_type(dtype)
            value = b.load(b.gep(results[k], [j], source_etype=ty), typ=ty)
            b.store(value, b.gep(self.outs[k], [copy.index], source_etype=ty))
        copy.close([])
        return failed

    # -- the strided path: rows of the innermost dimension

    def _row_layout(
        self,
    ) -> tuple[list[ir.Value], list[tuple[int, Leaf]], dict[Value, list[ir.Value]]]:
        """(the iteration sizes, the leaves that move, each one's strides), read from `info`."""
        spec = self.spec
        rank = spec.rank
        _offsets_at, sizes_at, strides_at = spec.info_layout()
        sizes = [self._info(sizes_at + d) for d in range(rank)]
        moving = [
            (k, leaf)
            for k, leaf in enumerate(spec.leaves)
            if leaf.loaded and leaf.access is not Access.SCALAR
        ]
        strides = {
            leaf.value: [self._info(strides_at + k * rank + d) for d in range(rank)]
            for k, leaf in moving
        }
        return sizes, moving, strides

    def _row_bases(
        self,
        row: ir.Value,
        sizes: list[ir.Value],
        moving: list[tuple[int, Leaf]],
        strides: dict[Value, list[ir.Value]],
    ) -> tuple[dict[Value, ir.Value], dict[Value, Operand]]:
        """Each moving leaf's pointer to the start of row `row`, and the values of the leaves that
        are the same along the row."""
        b = self.b
        rank = self.spec.rank
        # the row's position in the outer dimensions, innermost first
        row_offset: dict[Value, ir.Value] = {leaf.value: I64(0) for _, leaf in moving}
        rest: ir.Value = row
        for d in range(rank - 2, -1, -1):
            if d == 0:
                index = rest
            else:
                index = b.urem(rest, sizes[d])
                rest = b.udiv(rest, sizes[d])
            for _, leaf in moving:
                row_offset[leaf.value] = b.add(
                    row_offset[leaf.value], b.mul(index, strides[leaf.value][d])
                )
        row_base: dict[Value, ir.Value] = {}
        row_values: dict[Value, Operand] = {}
        for _, leaf in moving:
            base = b.gep(
                self.leaf_base[leaf.value],
                [row_offset[leaf.value]],
                source_etype=memory_type(leaf.dtype),
            )
            row_base[leaf.value] = base
            if leaf.access is Access.ROW_BROADCAST:
                row_values[leaf.value] = self._load(leaf, base)
        return row_base, row_values

    def _row_loader(
        self,
        j: ir.Value,
        row_base: dict[Value, ir.Value],
        row_values: dict[Value, Operand],
        strides: dict[Value, list[ir.Value]],
    ) -> Callable[[Leaf], Operand]:
        """Loads element `j` of the current row."""
        b = self.b
        rank = self.spec.rank

        def load(leaf: Leaf) -> Operand:
            if leaf.access is Access.ROW_BROADCAST:
                return row_values[leaf.value]
            index = (
                j if leaf.access is Access.CONTIGUOUS else b.mul(j, strides[leaf.value][rank - 1])
            )
            return self._load(
                leaf, b.gep(row_base[leaf.value], [index], source_etype=memory_type(leaf.dtype))
            )

        return load

    def _strided(self, start: ir.Value, end: ir.Value) -> ir.Value:
        b = self.b
        sizes, moving, strides = self._row_layout()
        inner = sizes[-1]
        rows = _Loop(b, start, end, "row", [I1(0)])
        row = rows.index
        row_base, row_values = self._row_bases(row, sizes, moving, strides)
        out_row = b.mul(row, inner)

        def element(j: ir.Value, exact: bool) -> _ElementContext:
            load = self._row_loader(j, row_base, row_values, strides)
            return self._element(exact, load, self._store_at(b.add(out_row, j)))

        failed_row = self._run(I64(0), inner, "col", element)
        (failed,) = rows.close([b.or_(rows.phis[0], failed_row)])
        return b.zext(failed, I32)

    # -- the rows path: reductions along the innermost dimension (`reductions`)

    def _rows(self, start: ir.Value, end: ir.Value) -> ir.Value:
        """Per row: one loop per round of reductions, accumulating along the row; then one loop
        computing and storing the outputs that vary along the row; outputs with one element
        per row are stored once. Values the same along the row are computed once, before the
        loop that needs them. Functions that would ask for an exact rerun (float32
        trigonometry) take their exact path directly here."""
        spec = self.spec
        b = self.b
        sizes, moving, strides = self._row_layout()
        inner = sizes[-1]
        rows = _Loop(b, start, end, "row", [I1(0)])
        row = rows.index
        row_base, row_values = self._row_bases(row, sizes, moving, strides)
        env: dict[Value, Operand] = {**self.shared, **row_values}
        row_ctx = _ElementContext(b, exact=True)
        failed: ir.Value = rows.phis[0]

        def loop(
            name: str, targets: list[Value], carried: list[ir.Value]
        ) -> tuple[_Loop, dict[Value, Operand], _ElementContext]:
            self._evaluate(targets, env, None, row_ctx, row_only=True)
            lp = _Loop(b, I64(0), inner, name, [*carried, I1(0)])
            local = dict(env)
            ctx = _ElementContext(b, exact=True)
            load = self._row_loader(lp.index, row_base, row_values, strides)
            self._evaluate(targets, local, load, ctx, row_only=False)
            return lp, local, ctx

        for phase in range(1, spec.phases + 1):
            reductions = [step for step in spec.steps if step.phase == phase]
            targets = [step.node.inputs[0] for step in reductions]
            lp, local, ctx = loop(f"reduce{phase}", targets, [_identity(s) for s in reductions])
            updated = [
                _combine(b, s, acc, ctx.cast(local[x], s.dtype))
                for s, acc, x in zip(reductions, lp.phis, targets, strict=False)
            ]
            updated.append(b.or_(lp.phis[-1], _any(b, ctx.fail_flags)))
            results = lp.close(updated)
            failed = b.or_(failed, results[-1])
            for s, acc in zip(reductions, results, strict=False):
                out = s.node.output()
                env[out] = Operand(s.dtype, spec.operands[out].category, _finish(b, s, acc, inner))

        rank = len(spec.shape)
        row_shape = (*spec.shape[:-1], 1)
        varying = [
            k
            for k, shape in enumerate(spec.output_shapes)
            if (1,) * (rank - len(shape)) + shape == spec.shape and spec.shape != row_shape
        ]
        if varying:
            targets = [spec.outputs[k][0] for k in varying]
            lp, local, ctx = loop("store", targets, [])
            store = self._store_at(b.add(b.mul(row, inner), lp.index))
            for k, v in zip(varying, targets, strict=True):
                self._store_output(k, local[v], store)
            (fail,) = lp.close([b.or_(lp.phis[-1], _any(b, ctx.fail_flags))])
            failed = b.or_(failed, fail)
        once = [k for k in range(len(spec.outputs)) if k not in varying]
        if once:
            targets = [spec.outputs[k][0] for k in once]
            self._evaluate(targets, env, None, row_ctx, row_only=True)
            store = self._store_at(row)
            for k, v in zip(once, targets, strict=True):
                self._store_output(k, env[v], store)
        failed = b.or_(failed, _any(b, row_ctx.fail_flags))
        (failed,) = rows.close([failed])
        return b.zext(failed, I32)

    def _store_output(
        self, k: int, operand: Operand, store: Callable[[int, ir.Value], None]
    ) -> None:
        dtype = self.spec.outputs[k][1]
        value = _ElementContext(self.b, exact=True).cast(operand, dtype)
        if dtype is S.Bool:
            value = self.b.zext(value, I8)
        store(k, value)

    def _evaluate(
        self,
        targets: list[Value],
        env: dict[Value, Operand],
        load: Callable[[Leaf], Operand] | None,
        ctx: _ElementContext,
        *,
        row_only: bool,
    ) -> None:
        """Compute `targets` (and what they need) into `env`, in the group's order. With
        `row_only`, only the values that are the same along the row (the rest need `load`)."""
        spec = self.spec
        step_of = {step.node.output(): step for step in spec.steps}
        leaves = {leaf.value: leaf for leaf in spec.leaves if leaf.loaded}
        needed: set[Value] = set()
        seen: set[Value] = set()
        stack = list(targets)
        while stack:
            v = stack.pop()
            if v in env or v in seen:
                continue
            seen.add(v)
            step = step_of.get(v)
            if step is None:
                leaf = leaves.get(v)
                if leaf is None:
                    env[v] = spec.operands[v]  # never read: only its dtype matters
                elif not row_only:
                    assert load is not None
                    env[v] = load(leaf)
                continue
            if step.lowering.reduction is not None:
                raise AssertionError("a reduction is read before its round ran")
            stack.extend(step.node.inputs)
            if step.row or not row_only:
                needed.add(v)
        for step in spec.steps:
            out = step.node.output()
            if out in needed:
                args = [env[v] for v in step.node.inputs]
                value = step.lowering.emit(ctx, step.node, args, step.dtype)
                env[out] = Operand(step.dtype, spec.operands[out].category, value)


def _identity(step: Step) -> ir.Value:
    """The starting value of a reduction's accumulator (-0.0 for sums: -0.0 + x is x)."""
    ty = register_type(step.dtype)
    kind = step.lowering.reduction
    if kind in ("sum", "mean"):
        return ty(-0.0)
    return ty(float("-inf") if kind == "amax" else float("inf"))


def _combine(b: ir.IRBuilder, step: Step, acc: ir.Value, x: ir.Value) -> ir.Value:
    kind = step.lowering.reduction
    if kind in ("sum", "mean"):
        # reassociation lets the loop keep one partial sum per vector lane
        return b.fadd(acc, x, flags=("reassoc",))
    name = "maximum" if kind == "amax" else "minimum"
    return b.call(intrinsic(b, name, acc.type, 2), [acc, x])


def _finish(b: ir.IRBuilder, step: Step, acc: ir.Value, inner: ir.Value) -> ir.Value:
    if step.lowering.reduction == "mean":
        return b.fdiv(acc, b.sitofp(inner, acc.type))
    return acc


def generate_ir(spec: Specialization, name: str, abi: Abi = Abi()) -> str:
    """The kernel's LLVM IR text, before optimization (what golden snapshots record)."""
    return str(KernelEmitter(spec, name, abi).emit())
