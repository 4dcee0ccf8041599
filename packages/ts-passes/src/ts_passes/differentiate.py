"""`differentiate(graph) -> Gradient`: a forward graph `f` and its backward `df`, as TorchScript's
`runtime/autodiff.cpp`.

For a graph whose nodes all have symbolic gradients (`gradients.py`), say

    graph(%x, %w):                 # both require grad
      %h = aten::mm(%x, %w)
      %y = aten::tanh(%h)
      return (%y)

`differentiate` returns

    f:  graph(%x, %w):                      df: graph(%dy, %w, %x, %y):
          %h = aten::mm(%x, %w)                   %d1 = aten::mul(%y, %y)
          %y = aten::tanh(%h)                      %d2 = aten::rsub(%d1, 1, 1)
          return (%y)                              %dh = aten::mul(%dy, %d2)
                                                   %dx = aten::mm(%dh, aten::t(%w))
                                                   %dw = aten::mm(aten::t(%x), %dh)
                                                   return (%dx, %dw)

with the bookkeeping of PyTorch's `Gradient`:

- `f_real_outputs`: how many of `f`'s outputs are the original outputs; the
  rest are temporaries `df` needs (appended to `f`'s outputs);
- `df` takes `[vjps][captured inputs of f][captured outputs of f]`:
  `df_input_vjps` lists the `f` outputs (original or temporary) whose
  gradient `df` takes, `df_input_captured_inputs` / `_outputs` the `f` inputs
  and outputs it reads;
- `df_output_vjps`: the `f` inputs `df` returns gradients for, in order.

Temporaries that require grad get a vjp input too: they are outputs of the
autograd node, so in a double backward the gradient flowing into them goes
through `df` (added to what `df` computes for them, `prim::AutogradAdd`, so
that it is optional). The vjps of `f`'s original outputs are always given.

Gradients are accumulated with `aten::add`, sizes for broadcasting sums are
computed in `f` (`aten::_size_if_not_equal`, None when no sum is needed) and
captured, constants are copied rather than captured. Cost: O(nodes) rule
applications; each rule is a few node insertions.

`differentiate_graphs(graph)` is the pass `ts-opt` knows: it differentiates
the subgraph of every `prim::DifferentiableGraph` in place, storing `f` as
`Subgraph`, `df` as `ReverseSubgraph` and the lists as int attributes, as
PyTorch's graph executor does; `gradient_of(node)` reads them back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ts_ir import Graph, Node, TensorType, Value, prim
from ts_schema import RuleTable

from .dead_code_elimination import eliminate_dead_code
from .gradients import (
    GRADIENTS,
    GradientBuilder,
    GradientRule,
    NotDifferentiableError,
    gradient_of_node,
    requires_grad,
)
from .jit_log import PassLogger

log = PassLogger(__name__)


@dataclass
class Gradient:
    """A differentiated graph: `f`, `df` and how their inputs and outputs connect."""

    f: Graph
    df: Graph
    f_real_outputs: int = 0
    df_input_vjps: list[int] = field(default_factory=list)
    df_input_captured_inputs: list[int] = field(default_factory=list)
    df_input_captured_outputs: list[int] = field(default_factory=list)
    df_output_vjps: list[int] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"f_real_outputs: {self.f_real_outputs}\n"
            f"df_input_vjps: {self.df_input_vjps}\n"
            f"df_input_captured_inputs: {self.df_input_captured_inputs}\n"
            f"df_input_captured_outputs: {self.df_input_captured_outputs}\n"
            f"df_output_vjps: {self.df_output_vjps}\n"
            f"f: {self.f}df: {self.df}"
        )


def differentiate(graph: Graph, *, rules: RuleTable[GradientRule] = GRADIENTS) -> Gradient:
    """Split `graph` into `f` and `df` (see the module docstring). `graph` becomes `f`.

    Raises `NotDifferentiableError` when a node that needs a gradient has no rule
    that can write it.
    """
    f = graph
    df = Graph()
    grad = Gradient(f, df, f_real_outputs=len(f.outputs))
    builder = GradientBuilder(f, df)
    grad_map: dict[Value, Value] = {}
    vjp_inputs: list[Value] = []

    def set_grad(x: Value, dx: Value) -> None:
        prev = grad_map.get(x)
        grad_map[x] = dx if prev is None else builder.insert("aten::add", [prev, dx])

    # 1. a vjp input for every output that requires grad
    for i, out in enumerate(f.outputs):
        if not requires_grad(out):
            continue
        vjp = df.add_input(type=_plain_tensor_type(out))
        vjp_inputs.append(vjp)
        grad.df_input_vjps.append(i)
        set_grad(out, vjp)

    # 2. the nodes backwards, each rule reading the gradients of its node's outputs
    for node in list(f.block.nodes_reversed()):
        if node.kind is prim.Constant:
            continue
        if not any(o in grad_map for o in node.outputs):
            continue
        if not any(requires_grad(v) for v in node.inputs):
            continue
        rule = rules.lookup(node)
        if rule is None:
            raise NotDifferentiableError(f"{node.kind} has no symbolic gradient")
        grads: list[Value | None] = []
        for o in node.outputs:
            g = grad_map.get(o)
            if g is None and isinstance(o.type, TensorType):
                builder.node = node
                g = builder.zeros_like(o)
            grads.append(g)
        log.debug("differentiating %s", node.kind)
        for x, dx in zip(node.inputs, gradient_of_node(builder, node, grads, rule), strict=True):
            if dx is not None:
                set_grad(x, dx)

    # 3. the gradients of the inputs that require grad are df's outputs
    for i, x in enumerate(f.inputs):
        if requires_grad(x) and x in grad_map:
            df.register_output(grad_map[x])
            grad.df_output_vjps.append(i)

    _optimize(grad, builder, grad_map)
    _lambda_lift(grad, builder, grad_map, vjp_inputs)
    eliminate_dead_code(f)  # size computations whose readers in df went away
    _forget_requires_grad(f)
    _unknown_requires_grad(df)
    log.dump(lambda: f"differentiated:\n{grad}")
    return grad


def _plain_tensor_type(v: Value) -> TensorType:
    t = v.type
    assert isinstance(t, TensorType)
    return TensorType(t.scalar_type, t.device, None, t.sizes if t.sizes is not None else None)


def _optimize(grad: Gradient, builder: GradientBuilder, grad_map: dict[Value, Value]) -> None:
    """Drop what `df` does not need, and the captures only that read."""
    df = grad.df
    eliminate_dead_code(df)
    for v, c in list(builder.captures.items()):
        if not c.uses:
            del builder.captures[v]
            df.erase_input(df.inputs.index(c))
    live = set(df.all_nodes())
    inputs = set(df.inputs)
    for v, g in list(grad_map.items()):
        if g not in inputs and g.node not in live:
            del grad_map[v]


def _lambda_lift(
    grad: Gradient,
    builder: GradientBuilder,
    grad_map: dict[Value, Value],
    vjp_inputs: list[Value],
) -> None:
    """Make the captures inputs of `df` and, where needed, outputs of `f` (see the module docstring)."""
    f, df = grad.f, grad.df
    # the captures in f's order: inputs, then node outputs
    position: dict[Value, int] = {v: i for i, v in enumerate(f.inputs)}
    n_inputs = len(f.inputs)
    for k, node in enumerate(f.nodes()):
        for o in node.outputs:
            position[o] = n_inputs + k
    captured = sorted(builder.captures, key=lambda v: position.get(v, -1))
    output_index: dict[Value, int] = {}
    for i, o in enumerate(f.outputs):
        output_index.setdefault(o, i)
    input_index = {v: i for i, v in enumerate(f.inputs)}
    captured_inputs: list[Value] = []
    captured_outputs: list[Value] = []
    for v in captured:
        if v in output_index:
            grad.df_input_captured_outputs.append(output_index[v])
            captured_outputs.append(builder.captures[v])
        elif v in input_index:
            grad.df_input_captured_inputs.append(input_index[v])
            captured_inputs.append(builder.captures[v])
        else:
            f.register_output(v)
            output_index[v] = len(f.outputs) - 1
            grad.df_input_captured_outputs.append(len(f.outputs) - 1)
            captured_outputs.append(builder.captures[v])

    # temporaries whose gradient df computes get a vjp of their own (double backward)
    for i in range(grad.f_real_outputs, len(f.outputs)):
        tmp = f.outputs[i]
        prev = grad_map.get(tmp)
        if prev is None:
            continue
        vjp = df.add_input(type=_plain_tensor_type(tmp))
        vjp_inputs.append(vjp)
        add = df.create(prim.AutogradAdd, [vjp, vjp], 1)
        add.output().set_type(prev.type)
        if prev.node.kind is prim.Param:
            add.insert_before(df.block.return_node.next)  # type: ignore[arg-type]
        else:
            add.insert_after(prev.node)
        prev.replace_all_uses_with(add.output())
        add.replace_input(1, prev)
        grad.df_input_vjps.append(i)

    # df's inputs in order: [vjps][captured inputs][captured outputs]
    order = [*vjp_inputs, *captured_inputs, *captured_outputs]
    assert len(order) == len(df.inputs), (len(order), len(df.inputs))
    df.block.permute_inputs([df.inputs.index(v) for v in order])


def _forget_requires_grad(f: Graph) -> None:
    """`f` runs on detached inputs: nothing in it requires grad."""
    for v in f.inputs:
        _no_grad(v)
    for n in f.all_nodes():
        for o in n.outputs:
            _no_grad(o)


def _unknown_requires_grad(df: Graph) -> None:
    """Whether `df`'s values require grad depends on how it is called (not at all, or with
    `create_graph=True`): its executor's shape propagation decides, from the inputs."""
    for v in df.inputs:
        _grad_unknown(v)
    for n in df.all_nodes():
        for o in n.outputs:
            _grad_unknown(o)


def _grad_unknown(v: Value) -> None:
    t = v.type
    if isinstance(t, TensorType) and t.requires_grad is not None:
        v.set_type(t.with_requires_grad(None))


def _no_grad(v: Value) -> None:
    t = v.type
    if isinstance(t, TensorType) and t.requires_grad is not False:
        v.set_type(t.with_requires_grad(False))


# ---------------------------------------------------------------------------
# Differentiable graphs in place: the pass, and reading a Gradient back


_LIST_ATTRIBUTES = (
    "df_input_vjps",
    "df_input_captured_inputs",
    "df_input_captured_outputs",
    "df_output_vjps",
)


def pack_gradient(node: Node, grad: Gradient) -> None:
    """Store `grad` on a `prim::DifferentiableGraph` node, as PyTorch's `packGradient`."""
    node.g_("Subgraph", grad.f)
    node.g_("ReverseSubgraph", grad.df)
    node.i_("f_real_outputs", grad.f_real_outputs)
    for name in _LIST_ATTRIBUTES:
        node.is_(name, getattr(grad, name))


def gradient_of(node: Node) -> Gradient:
    """The `Gradient` stored on a differentiated `prim::DifferentiableGraph` node."""
    if not node.has_attribute("ReverseSubgraph"):
        raise NotDifferentiableError(f"{node.kind} has not been differentiated")
    grad = Gradient(node.g("Subgraph"), node.g("ReverseSubgraph"), node.i("f_real_outputs"))
    for name in _LIST_ATTRIBUTES:
        setattr(grad, name, list(node.ints(name)))
    return grad


def differentiate_graphs(graph: Graph, *, rules: RuleTable[GradientRule] = GRADIENTS) -> bool:
    """Differentiate every `prim::DifferentiableGraph`'s subgraph in place (`pack_gradient`).

    A group with a node whose gradient cannot be written is put back into the
    graph, for eager autograd to run.
    """
    from .subgraph_utils import unmerge_subgraph

    changed = False
    for node in [n for n in graph.all_nodes() if n.kind is prim.DifferentiableGraph]:
        if node.has_attribute("ReverseSubgraph"):
            continue
        if not log.allowed():
            continue
        sub = node.g("Subgraph").copy()
        try:
            grad = differentiate(sub, rules=rules)
        except NotDifferentiableError as exc:
            log.update(lambda exc=exc: f"cannot differentiate a group ({exc}); inlining it")
            unmerge_subgraph(node)
            changed = True
            continue
        pack_gradient(node, grad)
        log.update("differentiated a prim::DifferentiableGraph")
        changed = True
    return changed
