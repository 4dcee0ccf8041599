"""Rewrites that give the fuser the pointwise work hidden inside larger operators.

`fuse_graph` runs them first. Each rule is keyed by schema and rewrites one
node when the backend of its device can fuse what it exposes, so the
pointwise epilogue joins the fusion group of the operations around it:

    %y = aten::linear(%x, %w, %b)            %t = aten::linear(%x, %w, None)
    %z = aten::gelu(%y, "none")       →      %y = aten::add(%t, %b, 1)        # fuses with gelu
                                             %z = aten::gelu(%y, "none")

| operator | rewritten to | when |
|---|---|---|
| `linear` with a bias | `linear` without, then `add` of the bias | a use of the result fuses |
| `conv1d/2d/3d`, `convolution`, `_convolution` with a bias | the same without, then `add` of the bias viewed as `[C, 1, ...]` | a use of the result fuses |
| `batch_norm` in inference (`training` the constant False, running statistics given) | `x * alpha + beta` with `alpha = weight / sqrt(running_var + eps)` and `beta = bias - running_mean * alpha`, per channel (PyTorch's CPU inference kernel) | always |
| `sum`, `mean`, `amax`, `amin` over one dimension with `keepdim=False` | the same with `keepdim=True`, then `squeeze` of that dimension (outside the group) | the keepdim reduction fuses and its input is computed by a fusible node |

A rewrite keeps the result's value and dtype: a bias of another dtype (which
the operator rejects) is left alone. What costs nothing is the bias add
itself: the matrix product or convolution wrote its result already, and the
group reads it once for the bias and the epilogue.
"""

from __future__ import annotations

from collections.abc import Callable

from ts_ir import Graph, Node, TensorType, Value, constant_value, prim
from ts_schema import RuleTable

from .jit_log import PassLogger

log = PassLogger(__name__)

Fusible = Callable[[Node], bool]
Rewrite = Callable[[Node, Fusible], bool]

#: The rewrite of each operator overload; the default (None): leave it.
FUSION_REWRITES: RuleTable[Rewrite] = RuleTable("fusion_rewrite", default=None)


def _is_none(v: Value) -> bool:
    return v.node.kind is prim.Constant and constant_value(v) is None


def _tensor_of_dtype(v: Value, like: Value) -> bool:
    t, u = v.type, like.type
    return (
        isinstance(t, TensorType)
        and isinstance(u, TensorType)
        and t.scalar_type is not None
        and t.scalar_type == u.scalar_type
    )


def _has_fusible_use(v: Value, fusible: Fusible) -> bool:
    return any(fusible(u.user) for u in v.uses)


def _insert(graph: Graph, kind: str, args: list[object], like: Value) -> Value:
    """Insert `kind(*args)` at the insertion point, typed as `like` (same dtype, device, rank)."""
    out = graph.insert(kind, args)
    out.set_type(like.type)
    return out


def _view_type(v: Value, rank: int) -> TensorType:
    t = v.type
    assert isinstance(t, TensorType)
    return TensorType(t.scalar_type, t.device, t.requires_grad, (None,) * rank)


def _channel_view(graph: Graph, v: Value, spatial: int) -> Value:
    """`v` (one value per channel) as `[C, 1, ..., 1]`, broadcasting over `spatial` dimensions."""
    out = graph.insert("aten::reshape", [v, [-1] + [1] * spatial])
    out.set_type(_view_type(v, spatial + 1))
    return out


def _undo(marker: Node, node: Node) -> bool:
    """Remove the nodes inserted between `marker` and `node`, last first; False."""
    while node.prev is not marker:
        node.prev.destroy()
    return False


def _replace(node: Node, new: Value, what: str) -> bool:
    node.output().replace_all_uses_with(new)
    node.destroy()
    log.update(lambda: f"{what}")
    return True


def _split_bias(node: Node, fusible: Fusible, *, bias_index: int, spatial: int | None) -> bool:
    """`op(..., bias, ...)` → `op(..., None, ...) + bias` (viewed per channel for convolutions)."""
    out = node.output()
    bias = node.inputs[bias_index]
    if _is_none(bias) or not _tensor_of_dtype(bias, out):
        return False
    if not _has_fusible_use(out, fusible):
        return False
    if spatial is None:
        rank = out.type.dim() if isinstance(out.type, TensorType) else None
        if rank is None or rank < 2:
            return False
        spatial = rank - 2
    graph = node.graph
    marker = node.prev
    with graph.inserting_before(node):
        none = graph.insert_constant(None)
        inputs = list(node.inputs)
        inputs[bias_index] = none
        bare = graph.create(node.kind, inputs, 1)
        bare.copy_attributes(node)
        bare.source_range = node.source_range
        graph.insert_node(bare)
        bare.output().set_type(out.type)
        term = bias if spatial == 0 else _channel_view(graph, bias, spatial)
        total = _insert(graph, "aten::add", [bare.output(), term], out)
    if not fusible(total.node):
        return _undo(marker, node)  # nothing gained: the operator stays as it was
    return _replace(node, total, f"moved the bias of {node.kind} into an add the fuser can take")


def _linear(node: Node, fusible: Fusible) -> bool:
    return _split_bias(node, fusible, bias_index=2, spatial=0)


def _conv(spatial: int | None) -> Rewrite:
    def rewrite(node: Node, fusible: Fusible) -> bool:
        return _split_bias(node, fusible, bias_index=2, spatial=spatial)

    return rewrite


def _batch_norm(node: Node, fusible: Fusible) -> bool:
    """Inference batch norm: `x * alpha + beta`, per channel, as PyTorch's CPU kernel computes it."""
    x, weight, bias, mean, var, training, _momentum, eps = node.inputs[:8]
    out = node.output()
    if training.node.kind is not prim.Constant or constant_value(training) is not False:
        return False
    if not (_tensor_of_dtype(mean, x) and _tensor_of_dtype(var, x)):
        return False
    for p in (weight, bias):
        if not _is_none(p) and not _tensor_of_dtype(p, x):
            return False
    rank = x.type.dim() if isinstance(x.type, TensorType) else None
    if rank is None or rank < 2 or not isinstance(out.type, TensorType):
        return False
    graph = node.graph
    marker = node.prev
    with graph.inserting_before(node):
        std = _insert(graph, "aten::sqrt", [_insert(graph, "aten::add", [var, eps], var)], var)
        if _is_none(weight):
            alpha = _insert(graph, "aten::reciprocal", [std], var)
        else:
            alpha = _insert(graph, "aten::div", [weight, std], var)
        shifted = _insert(graph, "aten::mul", [mean, alpha], var)
        if _is_none(bias):
            beta = _insert(graph, "aten::neg", [shifted], var)
        else:
            beta = _insert(graph, "aten::sub", [bias, shifted], var)
        scaled = _insert(graph, "aten::mul", [x, _channel_view(graph, alpha, rank - 2)], out)
        total = _insert(graph, "aten::add", [scaled, _channel_view(graph, beta, rank - 2)], out)
    if not fusible(total.node):
        return _undo(marker, node)
    return _replace(node, total, "batch_norm in inference as a per-channel x * alpha + beta")


def _keepdim_reduction(node: Node, fusible: Fusible) -> bool:
    """`r = sum(x, [d], False)` → `squeeze(sum(x, [d], True), d)`, when that reduction fuses with
    the producer of `x`."""
    x, dims, keepdim = node.inputs[:3]
    out = node.output()
    if keepdim.node.kind is not prim.Constant or constant_value(keepdim) is not False:
        return False
    if dims.node.kind is not prim.Constant:
        return False
    d = constant_value(dims)
    if not isinstance(d, list) or len(d) != 1 or not isinstance(out.type, TensorType):
        return False
    rank = out.type.dim()
    if not fusible(x.node):
        return False
    graph = node.graph
    marker = node.prev
    with graph.inserting_before(node):
        inputs = list(node.inputs)
        inputs[2] = graph.insert_constant(True)
        kept = graph.create(node.kind, inputs, 1)
        kept.copy_attributes(node)
        kept.source_range = node.source_range
        graph.insert_node(kept)
        t = out.type
        kept.output().set_type(t if rank is None else t.with_rank(rank + 1))
        if not fusible(kept):
            return _undo(marker, node)
        squeezed = _insert(graph, "aten::squeeze", [kept.output(), d[0]], out)
    return _replace(node, squeezed, f"{node.kind} with keepdim, then squeeze, for the fuser")


_REWRITTEN: list[str] = []


def _register(key: str, rule: Rewrite) -> None:
    FUSION_REWRITES.register(key, rule)
    _REWRITTEN.append(key)


_register("aten::linear", _linear)
for _key, _spatial in (
    ("aten::conv1d", 1),
    ("aten::conv1d.padding", 1),
    ("aten::conv2d", 2),
    ("aten::conv2d.padding", 2),
    ("aten::conv3d", 3),
    ("aten::conv3d.padding", 3),
    ("aten::convolution", None),
    ("aten::_convolution", None),
    ("aten::_convolution.deprecated", None),
):
    _register(_key, _conv(_spatial))
_register("aten::batch_norm", _batch_norm)
for _key in ("aten::sum.dim_IntList", "aten::mean.dim", "aten::amax", "aten::amin"):
    _register(_key, _keepdim_reduction)


#: The operator names with a rewrite: other nodes are passed over without a table lookup.
_NAMES = frozenset(key.partition(".")[0] for key in _REWRITTEN)


def rewrite_for_fusion(graph: Graph, fusible: Fusible) -> bool:
    """Apply `FUSION_REWRITES` to every node (nested blocks included); True if any applied."""
    changed = False
    for node in list(graph.all_nodes()):
        if node.kind not in _NAMES:
            continue
        rule = FUSION_REWRITES.lookup(node)
        if rule is None or not log.allowed():
            continue
        changed |= rule(node, fusible)
    return changed
