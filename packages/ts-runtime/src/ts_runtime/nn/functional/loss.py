"""Loss functions, with PyTorch's signatures (the deprecated `size_average` and `reduce`
flags included); `reduction` is "none", "mean" or "sum"."""

from __future__ import annotations

from ...ops.dispatch import call
from ...tensor import Tensor
from . import _reduction


def _enum(reduction: str, size_average: bool | None, reduce: bool | None) -> int:
    return _reduction.get_enum(_reduction.resolve(reduction, size_average, reduce))


def _apply(loss: Tensor, reduction: str) -> Tensor:
    """Reduce an elementwise loss computed here (for losses without an operator)."""
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not a valid value for reduction")


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    return call("aten::mse_loss", input, target, _enum(reduction, size_average, reduce))


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    return call("aten::l1_loss", input, target, _enum(reduction, size_average, reduce))


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    enum = _enum(reduction, size_average, reduce)
    return call("aten::smooth_l1_loss", input, target, enum, beta)


def huber_loss(
    input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0
) -> Tensor:
    return call("aten::huber_loss", input, target, _reduction.get_enum(reduction), delta)


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    enum = _enum(reduction, size_average, reduce)
    return call("aten::nll_loss_nd", input, target, weight, enum, ignore_index)


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    enum = _enum(reduction, size_average, reduce)
    return call(
        "aten::cross_entropy_loss", input, target, weight, enum, ignore_index, label_smoothing
    )


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    enum = _enum(reduction, size_average, reduce)
    if target.size() != input.size():
        raise ValueError(
            "Using a target size ("
            + str(target.size())
            + ") that is different to the input size ("
            + str(input.size())
            + ") is deprecated. Please ensure they have the same size."
        )
    if weight is not None:
        weight = weight.expand(input.size())
    return call("aten::binary_cross_entropy", input, target, weight, enum)


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    enum = _enum(reduction, size_average, reduce)
    if target.size() != input.size():
        raise ValueError(
            "Target size ("
            + str(target.size())
            + ") must be the same as input size ("
            + str(input.size())
            + ")"
        )
    return call("aten::binary_cross_entropy_with_logits", input, target, weight, pos_weight, enum)


def kl_div(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    if size_average is not None or reduce is not None:
        enum = _reduction.get_enum(_reduction.legacy_get_string(size_average, reduce))
    elif reduction == "batchmean":
        enum = 2
    else:
        enum = _reduction.get_enum(reduction)
    reduced = call("aten::kl_div", input, target, enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size(0)
    return reduced


def poisson_nll_loss(
    input: Tensor,
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average: bool | None = None,
    eps: float = 1e-8,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    reduction = _reduction.resolve(reduction, size_average, reduce)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        # Stirling's term, for targets above 1
        stirling = target * target.log() - target + (target * 6.283185307179586).log() * 0.5
        loss = loss + stirling.masked_fill(target <= 1, 0.0)
    return _apply(loss, reduction)


def gaussian_nll_loss(
    input: Tensor,
    target: Tensor,
    var: Tensor,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif not (input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1):
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not a valid value for reduction")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    # clamped for stability, but the gradient flows to var as if unclamped (as PyTorch's
    # clamp under no_grad)
    var = var + (var.clamp_min(eps) - var).detach()
    diff = input - target
    loss = (var.log() + diff * diff / var) * 0.5
    if full:
        loss = loss + 0.9189385332046727  # log(2 pi) / 2
    return _apply(loss, reduction)


def soft_margin_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    reduction = _reduction.resolve(reduction, size_average, reduce)
    return _apply((-input * target).exp().log1p(), reduction)


def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0.0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    reduction = _reduction.resolve(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            + "input1: "
            + str(input1.size())
            + ", input2: "
            + str(input2.size())
            + ", target: "
            + str(target.size())
            + " "
        )
    return _apply((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def hinge_embedding_loss(
    input: Tensor,
    target: Tensor,
    margin: float = 1.0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    reduction = _reduction.resolve(reduction, size_average, reduce)
    zeros = call("aten::zeros_like", input)
    margin_part = call("aten::where", target != 1, (margin - input).clamp_min(0), zeros)
    self_part = call("aten::where", target != -1, input, zeros)
    return _apply(margin_part + self_part, reduction)


def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0.0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    reduction = _reduction.resolve(reduction, size_average, reduce)
    dim = input1.dim() - 1
    prod = (input1 * input2).sum(dim)
    mag1 = (input1 * input1).sum(dim) + 1e-12
    mag2 = (input2 * input2).sum(dim) + 1e-12
    cos = prod / (mag1 * mag2).sqrt()
    zeros = call("aten::zeros_like", cos)
    pos = call("aten::where", target == 1, 1 - cos, zeros)
    neg = call("aten::where", target == -1, (cos - margin).clamp_min(0), zeros)
    return _apply(pos + neg, reduction)


def multilabel_soft_margin_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    reduction = _reduction.resolve(reduction, size_average, reduce)
    loss = -(
        target * call("aten::log_sigmoid", input) + (1 - target) * call("aten::log_sigmoid", -input)
    )
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(class_dim) / input.size(class_dim)
    return _apply(loss, reduction)


def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    reduction = _reduction.resolve(reduction, size_average, reduce)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = call("aten::minimum", dist_neg, pairwise_distance(positive, negative, p, eps))
    return _apply((dist_pos - dist_neg + margin).clamp_min(0), reduction)


def multi_margin_loss(
    input: Tensor,
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """sum over j != y of max(0, margin - x[y] + x[j])^p (times weight[y]), over the classes."""
    reduction = _reduction.resolve(reduction, size_average, reduce)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    unbatched = input.dim() <= 1
    if unbatched:
        input = input.reshape([1, -1])
        target = target.reshape([1])
    index = target.unsqueeze(1)
    terms = (input - input.gather(1, index) + margin).clamp_min(0)
    if p == 2:
        terms = terms * terms
    if weight is not None:
        terms = terms * weight.index_select(0, target).unsqueeze(1)
    terms = terms.scatter(1, index, 0.0)
    loss = terms.sum(1) / input.size(1)
    if unbatched:
        loss = loss.squeeze(0)
    return _apply(loss, reduction)


def multilabel_margin_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """`target` lists each sample's classes, ended by the first -1; the loss sums
    max(0, 1 - (x[j] - x[i])) over its classes j and the other classes i."""
    reduction = _reduction.resolve(reduction, size_average, reduce)
    unbatched = input.dim() <= 1
    if unbatched:
        input = input.reshape([1, -1])
        target = target.reshape([1, -1])
    classes = input.size(1)
    ended = (target < 0).long().cumsum(1) > 0
    valid = (~ended).to(dtype=input.dtype)
    safe = target.clamp_min(0)
    is_target = call("aten::one_hot", safe, classes).to(dtype=input.dtype) * valid.unsqueeze(2)
    is_target = is_target.sum(1).clamp_max(1.0)
    picked = input.gather(1, safe)
    hinge = (1 - picked.unsqueeze(2) + input.unsqueeze(1)).clamp_min(0)
    hinge = hinge * (1 - is_target).unsqueeze(1) * valid.unsqueeze(2)
    loss = hinge.sum([1, 2]) / classes
    if unbatched:
        loss = loss.squeeze(0)
    return _apply(loss, reduction)


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """The p-norm of x1 - x2 + eps over the last dim."""
    dim = max(x1.dim(), x2.dim()) - 1
    return call("aten::norm", x1 - x2 + eps, p, [dim], keepdim)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between x1 and x2 along `dim`, each norm at least `eps`."""
    n1 = call("aten::linalg_vector_norm", x1, 2, [dim], True)
    n2 = call("aten::linalg_vector_norm", x2, 2, [dim], True)
    # clamped in value only: the gradient is the unclamped norm's, as in PyTorch
    n1 = n1 + (n1.clamp_min(eps) - n1).detach()
    n2 = n2 + (n2.clamp_min(eps) - n2).detach()
    return ((x1 / n1) * (x2 / n2)).sum(dim)


__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cosine_embedding_loss",
    "cosine_similarity",
    "cross_entropy",
    "gaussian_nll_loss",
    "hinge_embedding_loss",
    "huber_loss",
    "kl_div",
    "l1_loss",
    "margin_ranking_loss",
    "mse_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "nll_loss",
    "pairwise_distance",
    "poisson_nll_loss",
    "smooth_l1_loss",
    "soft_margin_loss",
    "triplet_margin_loss",
]
