"""CUDA C for one specialization of a fusion group.

    kernel = generate(spec, "tsjit_cuda_3f2a...", index_bits=32)
    kernel.source        # the kernel's CUDA C (compile it after `PRELUDE`)
    kernel.params        # what each parameter is, for the launcher

The analysis is the CPU fuser's (`ts_fuser_cpu.specialize`, with this
package's lowering table): dtypes, broadcasting, the iteration space in the
inputs' memory order with dimensions coalesced, and a *flat* path (every
operand contiguous or a single element) or a *strided* one. Sizes and strides
are kernel parameters, so one compiled kernel serves every shape of the same
structure.

One kernel computes the whole group. Its element function
(`NAME_element`, inlined) takes one element of each loaded operand and the
number inputs and returns the outputs; the kernel around it is a grid-stride
loop (any grid covers any size):

- flat path: `i` runs over the elements; operands are read at `p[i]`. A
  second entry, `NAME_v4`, loads and stores four elements at a time
  (`ts_vec<T, 4>`: one 16-byte load for float32) and finishes the last
  `n % 4` elements one by one; the launcher takes it when every pointer is
  aligned for it.
- strided path: `i` is split into an index per coalesced dimension
  (innermost first), which each operand turns into its own offset with its
  own strides; a chunk (`prim::ConstantChunk`) is its input's pointer moved by
  a byte offset.

Indices are `int` when every offset of the launch fits (`index_bits=32`, the
launcher decides per shape), else 64-bit: 32-bit division and
multiplication cost a fraction of 64-bit ones on a GPU.

An element an integer kernel cannot compute (division by zero, a negative
integer power) sets a flag; the kernel then writes 1 to `*status` and the
launcher runs the group in the interpreter, which raises the error.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from pathlib import Path

from ts_fuser_cpu import Access, Leaf, Operand, Specialization
from ts_fuser_cpu import Path as LoopPath
from ts_ir import Category, ScalarType, TensorType, Value

from .c_types import is_float, literal, memory_type, register_type
from .lowerings import CudaLowering

S = ScalarType

#: Helpers every kernel may call; compiled once in front of the kernels of a module.
PRELUDE = (Path(__file__).parent / "prelude.cuh").read_text()
#: Threads per block, and what `__launch_bounds__` promises the compiler.
THREADS = 256
#: Elements per load and store on the vectorized flat path.
VECTOR = 4


@dataclass(frozen=True, slots=True)
class Param:
    """One kernel parameter: its C declaration and what the launcher passes.

    `role` is one of "input" (the data pointer of tensor input `index`),
    "scalar" (number input `index`), "output" (output `index`), "offset" (the
    byte offset of chunk leaf `index`), "numel", "size" (of coalesced
    dimension `dim`), "stride" (of leaf `index` along `dim`, in elements),
    "status". `format` is the `struct` code the argument is packed with.
    """

    name: str
    ctype: str
    role: str
    index: int = -1
    dim: int = -1
    format: str = "P"


@dataclass(frozen=True, slots=True)
class Entry:
    """A `__global__` function of a module: its name, parameters, and whether it synchronizes
    its block (`__syncthreads`; the host emulation runs such blocks as fibers)."""

    name: str
    params: tuple[Param, ...]
    barriers: bool = False


@dataclass(slots=True)
class GeneratedKernel:
    """The CUDA C of one specialization and how to launch it."""

    name: str
    source: str
    params: list[Param]
    index_bits: int
    vector_name: str | None = None
    uses_status: bool = False

    @property
    def entries(self) -> list[Entry]:
        names = [self.name] + ([self.vector_name] if self.vector_name else [])
        return [Entry(name, tuple(self.params)) for name in names]


def _scalar_param_type(dtype: ScalarType) -> tuple[str, str]:
    if dtype is S.Bool:
        return "int", "i"
    if dtype is S.Double:
        return "double", "d"
    return "ts_i64", "q"


def cast(value: str, src: ScalarType, dst: ScalarType) -> str:
    """A C expression converting `value` from `src` to `dst` as numpy's `astype` does
    (parenthesized unless it is a plain name)."""
    if src is dst:
        return value
    if dst is S.Bool:
        return f"({value} != {literal(0, src)})"
    if src is S.Bool or is_float(dst) or not is_float(src):
        return f"(({register_type(dst)}){value})"
    return f"ts_to_i32({value})" if dst is S.Int else f"ts_to_i64({value})"


class _Context:
    """The `EmitContext` lowerings see: locals of the element function, and failure flags."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.fail_conditions: list[str] = []
        self._count = 0

    def fresh(self) -> str:
        self._count += 1
        return f"v{self._count}"

    def cast(self, operand: Operand, dtype: ScalarType) -> str:
        if operand.is_const:
            if operand.dtype is None:
                raise AssertionError(f"{operand.const!r} is not a number")
            return literal(operand.const, dtype)
        assert operand.value is not None and operand.dtype is not None
        return cast(operand.value, operand.dtype, dtype)

    def let(self, dtype: ScalarType, expr: str) -> str:
        if expr.isidentifier():
            return expr
        name = self.fresh()
        self.lines.append(f"    const {register_type(dtype)} {name} = {expr};")
        return name

    def fail_if(self, condition: str) -> None:
        self.fail_conditions.append(condition)


class KernelGenerator:
    """Writes the CUDA C of one specialization (see the module docstring)."""

    def __init__(self, spec: Specialization, name: str, *, index_bits: int = 64) -> None:
        if index_bits not in (32, 64):
            raise ValueError(f"index_bits must be 32 or 64, not {index_bits}")
        self.spec = spec
        self.name = name
        self.index_bits = index_bits
        self.index = "int" if index_bits == 32 else "ts_i64"
        self.loaded = [(k, leaf) for k, leaf in enumerate(spec.leaves) if leaf.loaded]
        self.tensor_inputs = [i for i, t in enumerate(spec.inputs) if isinstance(t, TensorType)]

    # -- parameters

    def _params(self, uses_status: bool) -> list[Param]:
        spec = self.spec
        params: list[Param] = []
        leaf_types = {leaf.arg: leaf.dtype for leaf in spec.leaves}
        for i in self.tensor_inputs:
            declared = spec.inputs[i]
            assert isinstance(declared, TensorType) and declared.scalar_type is not None
            dtype = leaf_types.get(i, declared.scalar_type)
            params.append(Param(f"in{i}", f"const {memory_type(dtype)}* __restrict__", "input", i))
        for i, dtype in spec.scalar_args:
            ctype, fmt = _scalar_param_type(dtype)
            params.append(Param(f"s{i}", ctype, "scalar", i, format=fmt))
        for k, (_, dtype) in enumerate(spec.outputs):
            params.append(Param(f"out{k}", f"{memory_type(dtype)}* __restrict__", "output", k))
        index_format = "i" if self.index_bits == 32 else "q"
        params.append(Param("n", self.index, "numel", format=index_format))
        for k, leaf in self.loaded:
            if leaf.chunk is not None:
                params.append(Param(f"off{k}", "ts_i64", "offset", k, format="q"))
        if spec.path is LoopPath.STRIDED:
            for d in range(spec.rank):
                params.append(Param(f"size{d}", self.index, "size", dim=d, format=index_format))
            for k, leaf in self.loaded:
                for d in self._stride_dims(leaf):
                    params.append(
                        Param(f"st{k}_{d}", self.index, "stride", k, d, format=index_format)
                    )
        if uses_status:
            params.append(Param("status", "int* __restrict__", "status"))
        return params

    def _stride_dims(self, leaf: Leaf) -> list[int]:
        """The dimensions along which a leaf's stride is a parameter (the innermost stride of a
        contiguous or row-broadcast operand is known: 1 or 0)."""
        if leaf.access is Access.SCALAR:
            return []
        rank = self.spec.rank
        if leaf.access in (Access.CONTIGUOUS, Access.ROW_BROADCAST):
            return list(range(rank - 1))
        return list(range(rank))

    # -- the element function

    def _element_function(self) -> tuple[list[str], bool]:
        spec = self.spec
        lines: list[str] = []
        ctx = _Context(lines)
        env: dict[Value, Operand] = {}
        args: list[str] = []
        for v, operand in spec.operands.items():
            if operand.is_const:
                env[v] = operand
        for k, leaf in self.loaded:
            args.append(f"const {register_type(leaf.dtype)} x{k}")
            category = Category.DIM if leaf.sizes else Category.ZERO_DIM
            env[leaf.value] = Operand(leaf.dtype, category, f"x{k}")
        for i, dtype in spec.scalar_args:
            ctype, _ = _scalar_param_type(dtype)
            args.append(f"const {ctype} s{i}")
            value = f"(s{i} != 0)" if dtype is S.Bool else f"s{i}"
            env[spec.subgraph.inputs[i]] = Operand(dtype, Category.SCALAR, value)

        def get(v: Value) -> Operand:
            operand = env.get(v)
            # an operand that is never read (the `other` of `type_as`) has only a dtype
            return operand if operand is not None else spec.operands[v]

        for step in spec.steps:
            node = step.node
            lowering = typing.cast(CudaLowering, step.lowering)
            expr = lowering.emit(ctx, node, [get(v) for v in node.inputs], step.dtype)
            name = ctx.fresh()
            lines.append(f"    const {register_type(step.dtype)} {name} = {expr};")
            out_category = spec.operands[node.output()].category
            env[node.output()] = Operand(step.dtype, out_category, name)
        for k, (v, dtype) in enumerate(spec.outputs):
            args.append(f"{register_type(dtype)}& r{k}")
            lines.append(f"    r{k} = {ctx.cast(get(v), dtype)};")
        failing = bool(ctx.fail_conditions)
        if failing:
            args.append("bool& fail")
            lines.append(
                f"    fail = fail || {' || '.join(f'({c})' for c in ctx.fail_conditions)};"
            )
        header = f"TS_DEVICE void {self.name}_element({', '.join(args)}) {{"
        return [header, *lines, "}"], failing

    # -- kernels

    def _signature(self, name: str, params: list[Param]) -> str:
        decl = ",\n    ".join(f"{p.ctype} {p.name}" for p in params)
        return f'extern "C" __global__ void __launch_bounds__({THREADS}) {name}(\n    {decl})'

    def _leaf_pointers(self) -> list[str]:
        """Each loaded leaf's base pointer, and the single element of a scalar-access leaf."""
        lines = []
        for k, leaf in self.loaded:
            mem = memory_type(leaf.dtype)
            base = f"in{leaf.arg}"
            if leaf.chunk is not None:
                base = f"(const {mem}*)((const char*){base} + off{k})"
            lines.append(f"    const {mem}* __restrict__ p{k} = {base};")
            if leaf.access is Access.SCALAR:
                lines.append(f"    const {register_type(leaf.dtype)} e{k} = {self._load(k, '0')};")
        return lines

    def _load(self, k: int, index: str) -> str:
        leaf = self.spec.leaves[k]
        value = f"p{k}[{index}]"
        return f"({value} != 0)" if leaf.dtype is S.Bool else value

    def _call(self, values: list[str], outputs: list[str], failing: bool) -> str:
        scalars = [f"s{i}" for i, _ in self.spec.scalar_args]
        args = values + scalars + outputs + (["fail"] if failing else [])
        return f"{self.name}_element({', '.join(args)});"

    def _result_decls(self) -> list[str]:
        return [f"{register_type(d)} r{k};" for k, (_, d) in enumerate(self.spec.outputs)]

    def _stores(self, index: str) -> list[str]:
        return [
            f"out{k}[{index}] = ({memory_type(d)})r{k};"
            for k, (_, d) in enumerate(self.spec.outputs)
        ]

    def _loop(self, var: str, start: str, end: str, body: list[str], indent: str) -> list[str]:
        idx = self.index
        lines = [
            f"{indent}for ({idx} {var} = {start}; {var} < {end}; {var} += ({idx})blockDim.x * ({idx})gridDim.x) {{"
        ]
        lines += [f"{indent}    {line}" for line in body]
        lines.append(f"{indent}}}")
        return lines

    def _thread(self) -> str:
        return f"({self.index})blockIdx.x * ({self.index})blockDim.x + ({self.index})threadIdx.x"

    def _flat_element(self, index: str, failing: bool) -> list[str]:
        values = []
        for k, leaf in self.loaded:
            values.append(f"e{k}" if leaf.access is Access.SCALAR else self._load(k, index))
        outs = [f"r{k}" for k in range(len(self.spec.outputs))]
        return [*self._result_decls(), self._call(values, outs, failing), *self._stores(index)]

    def _flat_kernel(self, params: list[Param], failing: bool) -> list[str]:
        lines = [self._signature(self.name, params) + " {", *self._leaf_pointers()]
        if failing:
            lines.append("    bool fail = false;")
        lines += self._loop("i", self._thread(), "n", self._flat_element("i", failing), "    ")
        if failing:
            lines.append("    if (fail) *status = 1;")
        lines.append("}")
        return lines

    def _vector_kernel(self, params: list[Param], failing: bool) -> list[str]:
        spec = self.spec
        name = f"{self.name}_v{VECTOR}"
        lines = [self._signature(name, params) + " {", *self._leaf_pointers()]
        if failing:
            lines.append("    bool fail = false;")
        body = []
        for k, leaf in self.loaded:
            if leaf.access is Access.CONTIGUOUS:
                vec = f"ts_vec<{memory_type(leaf.dtype)}, {VECTOR}>"
                body.append(f"const {vec} l{k} = *(const {vec}*)(p{k} + j * {VECTOR});")
        for k, (_, d) in enumerate(spec.outputs):
            body.append(f"ts_vec<{memory_type(d)}, {VECTOR}> o{k};")
        lane = []
        values = []
        for k, leaf in self.loaded:
            if leaf.access is Access.SCALAR:
                values.append(f"e{k}")
            else:
                values.append(f"(l{k}.v[u] != 0)" if leaf.dtype is S.Bool else f"l{k}.v[u]")
        outs = [f"r{k}" for k in range(len(spec.outputs))]
        lane += self._result_decls()
        lane.append(self._call(values, outs, failing))
        lane += [f"o{k}.v[u] = ({memory_type(d)})r{k};" for k, (_, d) in enumerate(spec.outputs)]
        body.append("#pragma unroll")
        body.append(f"for (int u = 0; u < {VECTOR}; ++u) {{")
        body += [f"    {line}" for line in lane]
        body.append("}")
        for k, (_, d) in enumerate(spec.outputs):
            body.append(f"*(ts_vec<{memory_type(d)}, {VECTOR}>*)(out{k} + j * {VECTOR}) = o{k};")
        lines.append(f"    const {self.index} vectors = n / {VECTOR};")
        lines += self._loop("j", self._thread(), "vectors", body, "    ")
        tail = self._flat_element("i", failing)
        lines += self._loop("i", f"vectors * {VECTOR} + {self._thread()}", "n", tail, "    ")
        if failing:
            lines.append("    if (fail) *status = 1;")
        lines.append("}")
        return lines

    def _strided_kernel(self, params: list[Param], failing: bool) -> list[str]:
        spec = self.spec
        rank = spec.rank
        idx = self.index
        lines = [self._signature(self.name, params) + " {", *self._leaf_pointers()]
        if failing:
            lines.append("    bool fail = false;")
        moving = [(k, leaf) for k, leaf in self.loaded if leaf.access is not Access.SCALAR]
        body = [f"{idx} rest = i;"]
        body += [f"{idx} o{k} = 0;" for k, _ in moving]
        for d in range(rank - 1, -1, -1):
            index_var = f"d{d}"
            if d == 0:
                body.append(f"const {idx} {index_var} = rest;")
            else:
                body.append(f"const {idx} {index_var} = rest % size{d};")
                body.append(f"rest = rest / size{d};")
            for k, leaf in moving:
                if d == rank - 1 and leaf.access is Access.CONTIGUOUS:
                    body.append(f"o{k} += {index_var};")
                elif d == rank - 1 and leaf.access is Access.ROW_BROADCAST:
                    continue
                else:
                    body.append(f"o{k} += {index_var} * st{k}_{d};")
        values = []
        for k, leaf in self.loaded:
            values.append(f"e{k}" if leaf.access is Access.SCALAR else self._load(k, f"o{k}"))
        outs = [f"r{k}" for k in range(len(spec.outputs))]
        body += [*self._result_decls(), self._call(values, outs, failing), *self._stores("i")]
        lines += self._loop("i", self._thread(), "n", body, "    ")
        if failing:
            lines.append("    if (fail) *status = 1;")
        lines.append("}")
        return lines

    def generate(self) -> GeneratedKernel:
        spec = self.spec
        element, failing = self._element_function()
        params = self._params(failing)
        comment = [
            f"// {self.name}: fusion group, {spec.path.value} path, {self.index_bits}-bit indices"
        ]
        comment += [f"//   {line}" for line in spec.canonical.splitlines()]
        lines = [*comment, *element, ""]
        vector_name = None
        if spec.path is LoopPath.FLAT:
            lines += self._flat_kernel(params, failing)
            lines.append("")
            lines += self._vector_kernel(params, failing)
            vector_name = f"{self.name}_v{VECTOR}"
        else:
            lines += self._strided_kernel(params, failing)
        return GeneratedKernel(
            name=self.name,
            source="\n".join(lines) + "\n",
            params=params,
            index_bits=self.index_bits,
            vector_name=vector_name,
            uses_status=failing,
        )


def generate(spec: Specialization, name: str, *, index_bits: int = 64) -> GeneratedKernel:
    """The CUDA C of a specialization, its kernels named `name` (and `name_v4`)."""
    return KernelGenerator(spec, name, index_bits=index_bits).generate()


def module_source(sources: list[str]) -> str:
    """A whole compilation unit: the prelude, then the kernels' sources."""
    return PRELUDE + "\n" + "\n".join(sources)
