"""`Code`: a graph linearized into register instructions, and compiled to Python.

Every value gets a register; constants are hoisted into a constant table.
The instruction list (what `str(code)` prints, in the style of TorchScript's
interpreter dump) has one instruction per operation, `move(r)` where an
argument's register dies with that use, `DROP`s where a value dies because of
control flow, and `JF`/`JMP`/`LOOP` for `prim::If` and `prim::Loop`:

     0  %8 = t move(%3)
     1  %9 = mm move(%0), move(%8)
     ...
    12  JF 16 move(%11)

The same walk writes a Python function whose statements are those
instructions (registers become local variables, `move` and `DROP` become
`del`), which CPython then runs far faster than an instruction loop could.
Only register names and operation numbers enter the generated source:
operations, constants and attribute names are passed in as closure cells,
never written into the text.

Scalar operations with a registered Python expression (`aten::add.int` is
`{0} + {1}`) are inlined instead of called; see `ops.dispatch.INLINE`.
"""

from __future__ import annotations

import builtins
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ts_ir import (
    Block,
    BoolType,
    DeviceType,
    FloatType,
    Graph,
    IntType,
    IRError,
    Node,
    NoneType,
    OptionalType,
    StringType,
    Value,
    constant_value,
    prim,
)
from ts_schema import Tag, registry

from .. import devices
from ..ops.dispatch import ARRAY_KERNELS, INLINE, ArrayKernel, device_aware
from ..tensor import wrap
from .liveness import Liveness, analyze

_code_ids = itertools.count()
INT64_MAX = 2**63 - 1


@dataclass
class Instruction:
    """One step of a `Code`: `outputs = name inputs`, or a jump."""

    opcode: str  # OP, CONST, JF, JMP, LOOP, MOVE, DROP, RET (aten::wait is an OP)
    name: str = ""
    outputs: tuple[int, ...] = ()
    inputs: tuple[int, ...] = ()
    moves: tuple[bool, ...] = ()
    target: int = -1

    def __str__(self) -> str:
        args = ", ".join(
            f"move(%{r})" if m else f"%{r}"
            for r, m in zip(self.inputs, self.moves or (False,) * len(self.inputs), strict=True)
        )
        outs = ", ".join(f"%{r}" for r in self.outputs)
        if self.opcode == "OP":
            return (
                f"{outs} = {self.name} {args}".rstrip()
                if outs
                else f" = {self.name} {args}".rstrip()
            )
        if self.opcode == "CONST":
            return f"{outs} = Constant {self.name}"
        if self.opcode in ("JF", "LOOP"):
            return f"{self.opcode} {self.target} {args}".rstrip()
        if self.opcode == "JMP":
            return f"JMP {self.target}"
        if self.opcode == "MOVE":
            return f"{outs} = MOVE {args}"
        if self.opcode == "DROP":
            return f"DROP {args}"
        if self.opcode == "RET":
            return f"RET {args}".rstrip()
        return f"{self.opcode} {outs} {args}".rstrip()


class CodeError(IRError):
    """A graph cannot be turned into Code (an operator without an implementation, say)."""


class Code:
    """Executable form of a graph. `fn` is the compiled Python function."""

    def __init__(
        self,
        graph: Graph,
        *,
        grad_enabled: bool = True,
        resolver: Callable[[str], Any] | None = None,
        name: str = "graph",
    ) -> None:
        self.graph = graph
        self.name = name
        self.grad_enabled = grad_enabled
        self.resolver = resolver
        self.instructions: list[Instruction] = []
        self.constants: list[Any] = []
        self.num_registers = 0
        self._regs: dict[Value, int] = {}
        self._cells: dict[str, Any] = {}
        self._cell_names: dict[int, str] = {}
        # scalar expressions written into their one use instead of a register
        self._forwarded: dict[Value, str] = {}
        self._lines: list[str] = []
        self._fresh_constants: list[str] = []
        self._temp = itertools.count()
        self.is_async = any(n.kind == "aten::wait" for n in graph.all_nodes())
        self.liveness: Liveness = analyze(graph.block)
        # With a device in use (or named by the graph: `x.cuda()`), operators dispatch on
        # the device of their arguments (ops.dispatch.device_aware).
        self.device_aware = devices.ACTIVE[0] or (_names_a_device(graph) and _try_devices())
        # Without autograd, nodes whose types allow it run on raw numpy arrays
        # (ops.dispatch.ARRAY_KERNELS); a value stays a raw array when every use is
        # such a node, and is made a Tensor where it is defined otherwise.
        self._array_kernels: dict[int, ArrayKernel] = (
            {} if grad_enabled or self.device_aware else _array_kernels(graph)
        )
        self._raw: set[Value] = _raw_values(graph, self._array_kernels)
        self._build()

    # -- registers and cells

    def _reg(self, v: Value) -> int:
        r = self._regs.get(v)
        if r is None:
            r = self._regs[v] = self.num_registers
            self.num_registers += 1
        return r

    def _name(self, v: Value) -> str:
        """The Python expression for a value: a constant cell or a register variable."""
        if v.node.kind is prim.Constant:
            return self._constant(v)
        forwarded = self._forwarded.get(v)
        if forwarded is not None:
            return forwarded
        return f"r{self._reg(v)}"

    def _constant(self, v: Value) -> str:
        key = f"k{self._reg(v)}"
        if key not in self._cells and key.upper() not in self._cells:
            value = self._constant_value(v)
            if _is_mutable(value):
                # a list or dict constant is copied afresh on each run: it may be returned,
                # and what a caller does to it must not reach the next run
                self._cells[key.upper()] = value
                self._fresh_constants.append(key)
            else:
                self._cells[key] = value
            self.constants.append(value)
            self.instructions.append(Instruction("CONST", _short(value), (self._reg(v),)))
        return key

    def _constant_value(self, v: Value) -> Any:
        n = v.node
        if n.has_attribute("name") and not n.has_attribute("value"):
            return _LazyFunction(n.s("name"), self.resolver)
        value = constant_value(v)
        return _materialize(value)

    def _cell(self, prefix: str, value: Any) -> str:
        """A closure cell holding `value` (one per distinct object) and its name."""
        key = self._cell_names.get(id(value))
        if key is None:
            key = f"{prefix}{len(self._cells)}"
            self._cells[key] = value
            self._cell_names[id(value)] = key
        return key

    def _emit(self, indent: int, line: str) -> None:
        self._lines.append("    " * indent + line)

    # -- the walk

    def _build(self) -> None:
        g = self.graph
        params = [f"r{self._reg(v)}" for v in g.inputs]
        body_start = len(self._lines)
        self._block_body(g.block, 2)
        outs = [self._name(v) for v in g.outputs]
        self.instructions.append(Instruction("RET", inputs=tuple(self._reg(v) for v in g.outputs)))
        self._emit(2, f"return {_tuple(outs) if len(outs) != 1 else outs[0]}")
        header = [
            f"def _make({', '.join(self._cells)}):" if self._cells else "def _make():",
            f"    def run({', '.join(params)}):",
        ]
        for key in self._fresh_constants:
            self._lines.insert(body_start, f"        {key} = _fresh({key.upper()})")
        if len(self._lines) == body_start:
            self._lines.insert(body_start, "        pass")
        self.python_source = "\n".join(header + self._lines + ["    return run", ""])
        # a module name inside ts_runtime: warnings numpy raises from generated code are
        # filtered like those from the kernels (PyTorch computes silently)
        namespace: dict[str, Any] = {
            "__builtins__": builtins,
            "__name__": "ts_runtime.interpreter.generated",
            "_fresh": _fresh,
        }
        exec(
            compile(self.python_source, f"<tsjit code {next(_code_ids)}: {self.name}>", "exec"),
            namespace,
        )
        self.fn = namespace["_make"](*self._cells.values())

    def _block_body(self, block: Block, indent: int) -> None:
        # values dying on entry: the block's unused inputs, and values whose last use
        # is in the other branch of an If
        entry = self.liveness.drops_after.get(
            id(block.param_node), []
        ) + self.liveness.drops_on_entry.get(id(block), [])
        if entry:
            self._drop(entry, indent)
        for node in block.nodes():
            self._node(node, indent)
            after = self.liveness.drops_after.get(id(node))
            if after:
                self._drop(after, indent)

    def _drop(self, values: list[Value], indent: int) -> None:
        regs = [v for v in values if v.node.kind is not prim.Constant]
        if not regs:
            return
        self.instructions.append(
            Instruction("DROP", inputs=tuple(self._reg(v) for v in regs), moves=(True,) * len(regs))
        )
        self._del([f"r{self._reg(v)}" for v in regs if _holds_memory(v)], indent)

    def _del(self, names: list[str], indent: int) -> None:
        """`del` the registers named (which free what they hold, tensors above all)."""
        if names:
            self._emit(indent, "del " + ", ".join(dict.fromkeys(names)))

    def _moved(self, node: Node) -> list[str]:
        """Registers that die with this node and hold memory worth freeing (`del` after it).

        Scalars (ints, floats, bools, strings, None) are not deleted: freeing
        them frees nothing, and in scalar loops the `del`s would cost as much
        as the arithmetic.
        """
        return [
            f"r{self._reg(v)}"
            for v, moved in zip(node.inputs, self._move_flags(node), strict=True)
            if moved and _holds_memory(v)
        ]

    def _move_flags(self, node: Node) -> tuple[bool, ...]:
        """Per input of `node`: whether its register dies with this use."""
        return tuple(
            self.liveness.is_move(node, i) and v.node.kind is not prim.Constant
            for i, v in enumerate(node.inputs)
        )

    def _instr(self, node: Node, name: str) -> None:
        self.instructions.append(
            Instruction(
                "OP",
                name,
                tuple(self._reg(v) for v in node.outputs),
                tuple(self._reg(v) for v in node.inputs),
                self._move_flags(node),
            )
        )

    def _node(self, node: Node, indent: int) -> None:
        kind = node.kind
        if kind is prim.Constant:
            self._constant(node.output())
            return
        if kind is prim.If:
            self._if(node, indent)
            return
        if kind is prim.Loop:
            self._loop(node, indent)
            return
        kernel = self._array_kernels.get(id(node))
        if kernel is not None:
            self._array_node(node, kernel, indent)
            return
        args = [self._name(v) for v in node.inputs]
        outs = [f"r{self._reg(v)}" for v in node.outputs]
        expr = self._expression(node, args)
        self._instr(node, kind.name if kind.ns in ("aten", "prim") else str(kind))
        if self._forwardable(node):
            self._forwarded[node.output()] = expr
            return
        if not outs:
            self._emit(indent, expr)
        elif len(outs) == 1 and kind not in _UNPACKING:
            self._emit(indent, f"{outs[0]} = {expr}")
        else:
            self._emit(indent, f"{', '.join(outs)}, = {expr}")
        self._del(self._moved(node), indent)

    def _forwardable(self, node: Node) -> bool:
        """Whether a node's expression can be written into its one use, the next node.

        Only inlined scalar expressions (pure, cheap, raising nothing a
        reordering could change) qualify: `r16 = r15 == 0; if r16:` becomes
        `if (r15 == 0):`, which CPython runs without the store and the load.
        """
        if len(node.outputs) != 1 or node.kind in _UNPACKING:
            return False
        out = node.output()
        if _holds_memory(out) or len(out.uses) != 1 or self._moved(node):
            return False
        op = registry.operator_for(node)
        if op is None or INLINE.lookup_operator(op) is None:
            return False
        user = out.uses[0].user
        nxt = node.next
        while nxt is not None and nxt.kind is prim.Constant:
            nxt = nxt.next
        return nxt is user and user.kind is not prim.Loop

    def _array_node(self, node: Node, kernel: ArrayKernel, indent: int) -> None:
        """`r = kernel(arrays...)`, boxing the result unless every use takes a raw array."""
        args = []
        for i in kernel.args:
            v = node.inputs[i]
            name = self._name(v)
            if i in kernel.tensors and v not in self._raw:
                name += "._data"
            args.append(name)
        out = node.output()
        call = f"{self._cell('ak', kernel.fn)}({', '.join(args)})"
        target = f"r{self._reg(out)}"
        value = call if out in self._raw else f"{self._cell('wrap', wrap)}({call})"
        self._instr(node, node.kind.name)
        if kernel.broadcasts:
            self._emit(indent, "try:")
            self._emit(indent + 1, f"{target} = {value}")
            self._emit(indent, "except ValueError:")
            arrays = ", ".join(
                a for i, a in zip(kernel.args, args, strict=True) if i in kernel.tensors
            )
            self._emit(
                indent + 1, f"raise {self._cell('bcast', _broadcast_error)}({arrays}) from None"
            )
        else:
            self._emit(indent, f"{target} = {value}")
        self._del(self._moved(node), indent)

    def _expression(self, node: Node, args: list[str]) -> str:
        kind = node.kind
        special = _SPECIAL.get(kind)
        if special is not None:
            return special(self, node, args)
        op = registry.operator_for(node)
        if op is None:
            raise CodeError(
                f"no operator schema matches node {kind} with inputs ({', '.join(str(v.type) for v in node.inputs)})"
            )
        template = INLINE.lookup_operator(op)  # e.g. "{0} + {1}" for aten::add.int
        if template is not None:
            return "(" + template.format(*args) + ")"
        try:
            impl = op.implementation_for(node)
        except Exception as exc:
            raise CodeError(f"{op.key} cannot run: {exc}") from exc
        if not self.grad_enabled:
            impl = getattr(impl, "__wrapped__", impl)
        if self.device_aware and op.factory is None:
            impl = device_aware(op, impl)
        return f"{self._cell('op', impl)}({', '.join(args)})"

    def _if(self, node: Node, indent: int) -> None:
        cond = self._name(node.input())
        jf = Instruction("JF", inputs=(self._reg(node.input()),), moves=self._move_flags(node))
        self.instructions.append(jf)
        self._emit(indent, f"if {cond}:")
        for v in node.outputs:  # the outputs' registers are numbered before the branches'
            self._reg(v)
        for block in node.blocks:
            self._coalesce(block, node.outputs)
        jmp = None
        for i, block in enumerate(node.blocks):
            if i == 1:
                jmp = Instruction("JMP")
                self.instructions.append(jmp)
                jf.target = len(self.instructions)
                self._emit(indent, "else:")
            start = len(self._lines)
            self._block_body(block, indent + 1)
            self._block_outputs(node.outputs, block, indent + 1)
            if len(self._lines) == start:
                self._emit(indent + 1, "pass")
        assert jmp is not None
        jmp.target = len(self.instructions)
        self._del(self._moved(node), indent)

    def _coalesce(self, block: Block, outputs: list[Value]) -> None:
        """Give a branch's result the register of the `prim::If` output it becomes.

        A value computed in the branch and used only as its result can be
        written straight into the output register (which nothing in either
        branch reads), saving the copy at the end of the branch.
        """
        for result, out in zip(block.outputs, outputs, strict=True):
            if (
                result.node.owning_block is block
                and result.node.kind is not prim.Constant
                and len(result.uses) == 1
                and result not in self._regs
            ):
                self._regs[result] = self._reg(out)

    def _block_outputs(self, outputs: list[Value], block: Block, indent: int) -> None:
        """Copy a branch's results into the If's output registers, where they are not there yet."""
        moved = [
            (out, v)
            for out, v in zip(outputs, block.outputs, strict=True)
            if v.node.kind is prim.Constant or self._reg(v) != self._reg(out)
        ]
        if moved:
            self.instructions.append(
                Instruction(
                    "MOVE",
                    outputs=tuple(self._reg(out) for out, _ in moved),
                    inputs=tuple(self._reg(v) for _, v in moved),
                )
            )
        # a coalesced result that was forwarded is computed here, in its register
        pairs = (
            (f"r{self._reg(out)}", self._name(v))
            for out, v in zip(outputs, block.outputs, strict=True)
        )
        assigned = [(target, source) for target, source in pairs if target != source]
        if assigned:
            targets, sources = zip(*assigned, strict=True)
            self._emit(indent, f"{', '.join(targets)} = {', '.join(sources)}")

    def _loop(self, node: Node, indent: int) -> None:
        trip, cond, *init = node.inputs
        body = node.blocks[0]
        iter_var, *carried = body.inputs
        carried_regs = [f"r{self._reg(v)}" for v in carried]
        k = next(self._temp)
        if carried_regs:
            self._emit(
                indent, f"{', '.join(carried_regs)} = {', '.join(self._name(v) for v in init)}"
            )
            self.instructions.append(
                Instruction(
                    "MOVE",
                    outputs=tuple(self._reg(v) for v in carried),
                    inputs=tuple(self._reg(v) for v in init),
                    moves=self._move_flags(node)[2:],
                )
            )
        loop = Instruction(
            "LOOP", inputs=(self._reg(trip), self._reg(cond)), moves=self._move_flags(node)[:2]
        )
        self.instructions.append(loop)
        body_cond = body.outputs[0]
        always_true = _is_true(cond) and _is_true(body_cond)
        endless = trip.node.kind is prim.Constant and constant_value(trip) == INT64_MAX
        iter_name = f"r{self._reg(iter_var)}"
        if always_true and not endless:
            self._emit(indent, f"for {iter_name} in range({self._name(trip)}):")
            counter = None
        else:
            flag = f"_c{k}"
            # an endless loop whose body ignores the iteration number needs no counter
            counter = None if endless and not iter_var.uses else f"_i{k}"
            if counter is not None:
                self._emit(indent, f"{counter} = 0")
            self._emit(indent, f"{flag} = {self._name(cond)}")
            test = flag if endless else f"{flag} and {counter} < {self._name(trip)}"
            self._emit(indent, f"while {test}:")
            if counter is not None:
                self._emit(indent + 1, f"{iter_name} = {counter}")
        self._block_body(body, indent + 1)
        # the condition first: a forwarded expression may read the carried registers,
        # which the next statement overwrites (its own right side is evaluated whole first)
        if not (always_true and not endless):
            self._emit(indent + 1, f"_c{k} = {self._name(body_cond)}")
            if counter is not None:
                self._emit(indent + 1, f"{counter} += 1")
        new_values = [self._name(v) for v in body.outputs[1:]]
        if carried_regs:
            self._emit(indent + 1, f"{', '.join(carried_regs)} = {', '.join(new_values)}")
            self.instructions.append(
                Instruction(
                    "MOVE",
                    outputs=tuple(self._reg(v) for v in carried),
                    inputs=tuple(self._reg(v) for v in body.outputs[1:]),
                )
            )
        self.instructions.append(Instruction("JMP", target=self.instructions.index(loop)))
        loop.target = len(self.instructions)
        outs = [f"r{self._reg(v)}" for v in node.outputs]
        if outs:
            self._emit(indent, f"{', '.join(outs)} = {', '.join(carried_regs)}")
            self.instructions.append(
                Instruction(
                    "MOVE",
                    outputs=tuple(self._reg(v) for v in node.outputs),
                    inputs=tuple(self._reg(v) for v in carried),
                )
            )
        self._del(self._moved(node), indent)

    # -- running and printing

    def __call__(self, *inputs: Any) -> Any:
        return self.fn(*inputs)

    def __str__(self) -> str:
        width = len(str(len(self.instructions)))
        return "\n".join(f"{i:>{width}}  {ins}" for i, ins in enumerate(self.instructions)) + "\n"

    def dump(self) -> str:
        """The instruction listing followed by the generated Python source."""
        return str(self) + "\n" + self.python_source


def _tuple(items: list[str]) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


_SCALAR_TYPES = (IntType, FloatType, BoolType, StringType, NoneType, DeviceType)


def _holds_memory(v: Value) -> bool:
    """Whether a value may hold something worth freeing early (not a plain scalar)."""
    return not isinstance(v.type, _SCALAR_TYPES)


def _array_kernels(graph: Graph) -> dict[int, ArrayKernel]:
    chosen: dict[int, ArrayKernel] = {}
    for node in graph.all_nodes():
        if node.kind.ns != "aten" or len(node.outputs) != 1:
            continue
        op = registry.operator_for(node)
        select = None if op is None else ARRAY_KERNELS.lookup_operator(op)
        if select is not None:
            kernel = select(node)
            if kernel is not None:
                chosen[id(node)] = kernel
    return chosen


def _names_a_device(graph: Graph) -> bool:
    """Whether some node takes a device other than the CPU (`zeros(..., device=d)`, or `x.cuda()`
    and other operators tagged `Tag.to_cuda`)."""
    for node in graph.all_nodes():
        if Tag.to_cuda in registry.tags_of(node):
            return True
        for v in node.inputs:
            if isinstance(v.type, DeviceType) or (
                isinstance(v.type, OptionalType) and isinstance(v.type.element, DeviceType)
            ):
                if v.node.kind is not prim.Constant:
                    return True
                value = constant_value(v)
                if value is not None and devices.as_device(value).type != "cpu":
                    return True
    return False


def _try_devices() -> bool:
    """Initialize the cuda device if one is available (a plan that names a device needs it)."""
    return devices.is_available("cuda")


def _raw_values(graph: Graph, kernels: dict[int, ArrayKernel]) -> set[Value]:
    """Outputs of array kernels whose every use passes them to an array kernel as an array."""
    raw: set[Value] = set()
    for node in graph.all_nodes():
        if id(node) not in kernels:
            continue
        v = node.output()
        if v.uses and all(
            (k := kernels.get(id(u.user))) is not None and u.offset in k.tensors for u in v.uses
        ):
            raw.add(v)
    return raw


def _broadcast_error(*arrays: Any) -> Exception:
    from ..ops.pointwise import broadcast_error

    return broadcast_error(*arrays[:2])


class _LazyFunction:
    """A function constant, resolved by name on its first call (an unused one never is)."""

    __slots__ = ("_fn", "name", "resolver")

    def __init__(self, name: str, resolver: Callable[[str], Any] | None) -> None:
        self.name = name
        self.resolver = resolver
        self._fn: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        fn = self._fn
        if fn is None:
            if self.resolver is None:
                raise CodeError(
                    f"the function {self.name!r} cannot be called: no compilation unit defines it"
                )
            fn = self._fn = self.resolver(self.name)
        return fn(*args)

    def __repr__(self) -> str:
        return f"<function {self.name}>"


def _is_true(v: Value) -> bool:
    return v.node.kind is prim.Constant and constant_value(v) is True


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_mutable(value: Any) -> bool:
    """Whether a constant holds a list or a dict (its own, or in a tuple)."""
    if isinstance(value, (list, dict)):
        return True
    return isinstance(value, tuple) and any(_is_mutable(x) for x in value)


def _fresh(value: Any) -> Any:
    """A copy of a constant's lists and dicts (their elements shared, as immutable or
    tensors)."""
    if isinstance(value, list):
        return [_fresh(x) for x in value]
    if isinstance(value, dict):
        return {k: _fresh(x) for k, x in value.items()}
    if isinstance(value, tuple) and _is_mutable(value):
        return tuple(_fresh(x) for x in value)
    return value


def _materialize(value: Any) -> Any:
    """IR constant values as runtime values (parsed tensor literals become tensors)."""
    from ts_ir import TensorLiteral

    if isinstance(value, TensorLiteral):
        from ..tensor import tensor

        if value.values is None:
            return tensor(value.literal)
        return _tensor_of_literal(value)
    return value


def _tensor_of_literal(value: Any) -> Any:
    """A tensor printed as PyTorch prints it (` 1  2 [ CPULongType{2} ]`), read back."""
    import numpy as np
    from ts_ir import ScalarType

    from ..dtypes import numpy_dtype
    from ..tensor import wrap

    scalar_type = ScalarType[value.scalar_type]
    data = np.array(value.values, dtype=np.float64).reshape(value.shape)
    return wrap(data.astype(numpy_dtype(scalar_type)))


# ---------------------------------------------------------------------------
# Nodes the emitter writes itself


def _tuple_construct(code: Code, node: Node, args: list[str]) -> str:
    return _tuple(args)


def _tuple_unpack(code: Code, node: Node, args: list[str]) -> str:
    return args[0]


def _list_construct(code: Code, node: Node, args: list[str]) -> str:
    return "[" + ", ".join(args) + "]"


def _list_unpack(code: Code, node: Node, args: list[str]) -> str:
    return f"{code._cell('unpack', _unpacker(len(node.outputs)))}({args[0]})"


def _unpacker(n: int) -> Callable[[Any], Any]:
    def unpack(xs: Any) -> Any:
        if len(xs) != n:
            from ..tensor import TensorError

            raise TensorError(f"Expected {n} elements in a list but found {len(xs)}")
        return xs

    return unpack


def _dict_construct(code: Code, node: Node, args: list[str]) -> str:
    return "{" + ", ".join(f"{args[i]}: {args[i + 1]}" for i in range(0, len(args), 2)) + "}"


def _tuple_index(code: Code, node: Node, args: list[str]) -> str:
    return f"{args[0]}[{args[1]}]"


def _get_attr(code: Code, node: Node, args: list[str]) -> str:
    return f"getattr({args[0]}, {code._cell('s', node.s('name'))})"


def _set_attr(code: Code, node: Node, args: list[str]) -> str:
    return f"setattr({args[0]}, {code._cell('s', node.s('name'))}, {args[1]})"


def _identity(code: Code, node: Node, args: list[str]) -> str:
    return args[0]


def _uninitialized(code: Code, node: Node, args: list[str]) -> str:
    return "None"


def _raise(code: Code, node: Node, args: list[str]) -> str:
    from .exceptions import make_exception

    return f"{code._cell('raise', _raiser(make_exception))}({', '.join(args)})"


def _raiser(make: Callable[..., BaseException]) -> Callable[..., Any]:
    def raise_(msg: str, cls: str | None = None) -> None:
        raise make(msg, cls)

    return raise_


def _call_function(code: Code, node: Node, args: list[str]) -> str:
    return f"{args[0]}({', '.join(args[1:])})"


def _call_method(code: Code, node: Node, args: list[str]) -> str:
    method = code._cell("s", node.s("name"))
    return f"getattr({args[0]}, {method})({', '.join(args[1:])})"


def _isinstance(code: Code, node: Node, args: list[str]) -> str:
    from .typecheck import instance_checker

    return f"{code._cell('isa', instance_checker(node.tys('types')))}({args[0]})"


def _wait(code: Code, node: Node, args: list[str]) -> str:
    return f"(yield {args[0]})"


def _fork(code: Code, node: Node, args: list[str]) -> str:
    from .fork import forker

    return f"{code._cell('fork', forker(node, code))}({', '.join(args)})"


_UNPACKING = frozenset({prim.TupleUnpack, prim.ListUnpack})

_SPECIAL: dict[str, Callable[[Code, Node, list[str]], str]] = {
    prim.TupleConstruct: _tuple_construct,
    prim.TupleUnpack: _tuple_unpack,
    prim.ListConstruct: _list_construct,
    prim.ListUnpack: _list_unpack,
    prim.DictConstruct: _dict_construct,
    prim.TupleIndex: _tuple_index,
    prim.GetAttr: _get_attr,
    prim.SetAttr: _set_attr,
    prim.unchecked_cast: _identity,
    prim.Uninitialized: _uninitialized,
    prim.RaiseException: _raise,
    prim.CallFunction: _call_function,
    prim.CallMethod: _call_method,
    prim.isinstance: _isinstance,
    prim.fork: _fork,
    "aten::wait": _wait,
}


def register_expression(kind: str, build: Callable[[Code, Node, list[str]], str]) -> None:
    """Let the runtime write the Python expression of nodes of `kind` itself, as the nodes above
    are written (`build(code, node, argument_expressions)`), instead of calling an operation."""
    _SPECIAL[kind] = build
