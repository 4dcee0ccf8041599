"""SpecializeAutogradZero: resolve optional gradients once it is known which are None,
as TorchScript's `passes/specialize_autogradzero.cpp`.

A backward graph takes gradients that may be undefined (None: nothing flowed
into that output) and sizes that are None when no broadcasting sum is
needed. The executor specializes a graph to its inputs, typing an input that
was None as `NoneType`; this pass then removes what None makes trivial:

    %g = prim::AutogradAdd(%none, %d)            →   (uses of %g read %d)
    %g = prim::AutogradAdd(%a, %b)  (tensors)     →   %g = aten::add(%a, %b, 1)
    %s = aten::_grad_sum_to_size(%x, %none)       →   (uses of %s read %x)

so that the pointwise work of the backward fuses. O(nodes).
"""

from __future__ import annotations

from ts_ir import Graph, NoneType, TensorType, Value, prim

from .jit_log import PassLogger

log = PassLogger(__name__)


def _is_none(v: Value) -> bool:
    return isinstance(v.type, NoneType)


def specialize_autograd_zero(graph: Graph) -> bool:
    """Fold `prim::AutogradAdd` and `aten::_grad_sum_to_size` over None (see the module docstring)."""
    changed = False
    for node in list(graph.all_nodes()):
        kind = node.kind
        if kind is prim.AutogradAdd:
            a, b = node.inputs
            if _is_none(a) or _is_none(b):
                if not log.allowed():
                    continue
                node.output().replace_all_uses_with(b if _is_none(a) else a)
                node.destroy()
                log.update("prim::AutogradAdd with an undefined gradient removed")
                changed = True
            elif isinstance(a.type, TensorType) and isinstance(b.type, TensorType):
                if not log.allowed():
                    continue
                with graph.inserting_before(node):
                    add = graph.insert("aten::add", [a, b])
                add.set_type(node.output().type)
                node.output().replace_all_uses_with(add)
                node.destroy()
                log.update("prim::AutogradAdd of two gradients → aten::add")
                changed = True
        elif kind == "aten::_grad_sum_to_size" and _is_none(node.inputs[1]):
            if not log.allowed():
                continue
            node.output().replace_all_uses_with(node.inputs[0])
            node.destroy()
            log.update("aten::_grad_sum_to_size(x, None) → x")
            changed = True
    return changed
