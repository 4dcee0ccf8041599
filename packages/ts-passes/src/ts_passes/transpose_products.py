"""TransposeProducts: make matrix products in the orientation their result is wanted in.

    %p = aten::mm(%a, %b)                     %bt = aten::t(%b)
    %r = aten::t(%p)                  →       %at = aten::t(%a)
                                              %r = aten::mm(%bt, %at)

also through sums (`t(x + y)` → `t(x) + t(y)`, alpha 1, matrices), and
`t(t(x))` → `x`. The gradient of a weight used as `x.mm(w.t())` comes out
of differentiation as `t(mm(t(x), g))`, summed over the uses of `w.t()`;
rewritten, it is `mm(t(g), x)` (and a sum of those, which `batch_mm` makes
one product), computed directly in the layout of `w`, with no transposed copy
of a product.

The result is the same values with other strides: a contiguous tensor where
`t` gave a transposed view. That is unobservable for gradients, so the
backward executor runs this pass (`BACKWARD_PASSES`); programs whose
results' strides are visible do not. O(nodes).
"""

from __future__ import annotations

from ts_ir import Graph, Node, TensorType, Value, constant_value, prim

from .dead_code_elimination import eliminate_dead_code
from .jit_log import PassLogger

log = PassLogger(__name__)


def transpose_products(graph: Graph) -> bool:
    """Rewrite transposed products and sums of them (see the module docstring)."""
    changed = False
    again = True
    while again:
        again = False
        for node in list(graph.all_nodes()):
            if node.kind != "aten::t" or node.owning_block is None or not log.allowed():
                continue
            if _push_transpose(node):
                again = changed = True
    if changed:
        eliminate_dead_code(graph)
    return changed


def _push_transpose(node: Node) -> bool:
    graph = node.owning_graph
    src = node.input()
    inner = src.node
    if inner.kind == "aten::t":
        node.output().replace_all_uses_with(inner.input())
        node.destroy()
        log.update("t(t(x)) → x")
        return True
    if len(src.uses) != 1 or inner.owning_block is not node.owning_block:
        return False
    if inner.kind == "aten::mm":
        a, b = inner.inputs
        with graph.inserting_before(node):
            result = graph.insert("aten::mm", [_transposed(graph, b), _transposed(graph, a)])
        log.update("t(mm(a, b)) → mm(t(b), t(a))")
    elif (
        inner.kind == "aten::add"
        and _is_one(inner.inputs[2])
        and all(isinstance(v.type, TensorType) and v.type.dim() == 2 for v in inner.inputs[:2])
    ):
        a, b = inner.inputs[:2]
        with graph.inserting_before(node):
            result = graph.insert("aten::add", [_transposed(graph, a), _transposed(graph, b)])
        log.update("t(a + b) → t(a) + t(b)")
    else:
        return False
    result.set_type(node.output().type)
    node.output().replace_all_uses_with(result)
    node.destroy()
    inner.destroy()
    return True


def _transposed(graph: Graph, v: Value) -> Value:
    if v.node.kind == "aten::t":
        return v.node.input()
    out = graph.insert("aten::t", [v])
    if isinstance(v.type, TensorType):
        out.set_type(v.type.dimensioned_only())
    return out


def _is_one(v: Value) -> bool:
    if v.node.kind is not prim.Constant:
        return False
    try:
        return constant_value(v) == 1
    except Exception:
        return False
