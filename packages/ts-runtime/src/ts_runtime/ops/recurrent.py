"""The fused recurrent layers `aten::lstm` and `aten::gru`, as scripted `nn.LSTM`/`nn.GRU` call them.

Both overloads are served: `.input` takes a padded sequence (T, N, F), or
(N, T, F) with `batch_first`; `.data` takes a packed sequence, the rows of
every time step one after the other, with `batch_sizes[t]` rows at step t
(non-increasing, as `pack_padded_sequence` makes them).

`params` is PyTorch's flat list, layer by layer and in each layer the
forward then the reverse direction: `w_ih, w_hh`, then `b_ih, b_hh` when
`has_biases`, then `w_hr` for an LSTM whose hidden state is projected (its
`hx[0]` is narrower than `hx[1]`). Each layer projects its whole input with
`w_ih` in one product, then steps through time (backwards for the reverse
direction) with the cell ATen uses:

    lstm:  i, f, g, o = chunks(x_t W_ih^T + b_ih + h W_hh^T + b_hh)
           c' = sigmoid(f) c + sigmoid(i) tanh(g);  h' = sigmoid(o) tanh(c')  [h' W_hr^T]
    gru:   r = sigmoid(x_r + h_r);  z = sigmoid(x_z + h_z);  n = tanh(x_n + r h_n)
           h' = (h - n) z + n

Layers after the first read the concatenated outputs of both directions,
with dropout between layers when `train`. For a packed sequence the state
keeps every sequence's row: a step updates the first `batch_sizes[t]` rows
and leaves the others, so a finished sequence keeps its last state (forward)
and one not yet started keeps its initial state (reverse).

The kernels are composites (`autograd=False`): every step is an operator
call that records its own history, so gradients reach the input, the
initial states and every parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import NamedTuple

from ..tensor import Tensor, TensorError
from .dispatch import call, implements


class Weights(NamedTuple):
    """One layer's parameters in one direction."""

    w_ih: Tensor
    w_hh: Tensor
    b_ih: Tensor | None
    b_hh: Tensor | None
    w_hr: Tensor | None


class Layers(NamedTuple):
    """The arguments after `params`, common to every overload."""

    has_biases: bool
    num_layers: int
    dropout: float
    train: bool
    bidirectional: bool


State = tuple[Tensor, ...]
Cell = Callable[[Tensor, State, Weights], State]


def _lstm_step(projected: Tensor, state: State, weights: Weights) -> State:
    h, c = state
    gates = call("aten::add", call("aten::linear", h, weights.w_hh, weights.b_hh), projected)
    i, f, g, o = call("aten::chunk", gates, 4, 1)
    c = call("aten::add", call("aten::mul", call("aten::sigmoid", f), c), _mul_sig(i, g))
    h = call("aten::mul", call("aten::sigmoid", o), call("aten::tanh", c))
    if weights.w_hr is not None:
        h = call("aten::matmul", h, call("aten::t", weights.w_hr))
    return h, c


def _mul_sig(i: Tensor, g: Tensor) -> Tensor:
    return call("aten::mul", call("aten::sigmoid", i), call("aten::tanh", g))


def _gru_step(projected: Tensor, state: State, weights: Weights) -> State:
    (h,) = state
    x_r, x_z, x_n = call("aten::chunk", projected, 3, 1)
    hidden = call("aten::linear", h, weights.w_hh, weights.b_hh)
    h_r, h_z, h_n = call("aten::chunk", hidden, 3, 1)
    r = call("aten::sigmoid", call("aten::add", x_r, h_r))
    z = call("aten::sigmoid", call("aten::add", x_z, h_z))
    n = call("aten::tanh", call("aten::add", x_n, call("aten::mul", r, h_n)))
    return (call("aten::add", call("aten::mul", call("aten::sub", h, n), z), n),)


def _group(
    name: str,
    params: Sequence[Tensor],
    has_biases: bool,
    projected: bool,
    layers: int,
    directions: int,
    gates: int,
) -> list[Weights]:
    """`params` cut into (w_ih, w_hh, b_ih, b_hh, w_hr) for each layer and direction."""
    stride = 2 + 2 * has_biases + projected
    if len(params) % stride:
        raise TensorError(
            f"{name}: {len(params)} parameters cannot be grouped by {stride} (has_biases="
            f"{has_biases}, projections={projected}): got an incorrect number of RNN parameters"
        )
    if len(params) // stride != layers * directions:
        raise TensorError(
            f"{name}: got an incorrect number of RNN parameters: {len(params)} for "
            f"{layers} layer(s) and {directions} direction(s)"
        )
    groups = []
    for first in range(0, len(params), stride):
        w_ih, w_hh = params[first], params[first + 1]
        b_ih, b_hh = (params[first + 2], params[first + 3]) if has_biases else (None, None)
        w_hr = params[first + stride - 1] if projected else None
        for what, w in (("w_ih", w_ih), ("w_hh", w_hh)):
            if w.dim() != 2 or w.shape[0] % gates:
                raise TensorError(
                    f"{name}: parameter {what} of group {first // stride} has shape "
                    f"{list(w.shape)}, expected a matrix of {gates} stacked gates"
                )
        groups.append(Weights(w_ih, w_hh, b_ih, b_hh, w_hr))
    return groups


def _run_direction(
    step: Cell,
    inputs: Tensor,
    sizes: list[int],
    state: State,
    weights: Weights,
    reverse: bool,
) -> tuple[list[Tensor], State]:
    """One layer, one direction. `inputs` holds the steps' rows one after the other
    (`sizes[t]` rows at step t); returns each step's output, in time order, and the state."""
    projected = call("aten::linear", inputs, weights.w_ih, weights.b_ih)
    starts = [0]
    for s in sizes:
        starts.append(starts[-1] + s)
    full = state[0].shape[0]
    outputs: list[Tensor | None] = [None] * len(sizes)
    order = range(len(sizes) - 1, -1, -1) if reverse else range(len(sizes))
    for t in order:
        rows = sizes[t]
        x_t = call("aten::slice", projected, 0, starts[t], starts[t + 1], 1)
        if rows == full:
            state = step(x_t, state, weights)
        else:
            active = tuple(call("aten::slice", s, 0, 0, rows, 1) for s in state)
            updated = step(x_t, active, weights)
            state = tuple(
                call("aten::cat", [new, call("aten::slice", old, 0, rows, full, 1)], 0)
                for new, old in zip(updated, state, strict=True)
            )
            outputs[t] = updated[0]
            continue
        outputs[t] = state[0]
    return [o for o in outputs if o is not None], state


def _run(
    name: str,
    step: Cell,
    gates: int,
    data: Tensor,
    sizes: list[int],
    hx: Sequence[Tensor],
    params: Sequence[Tensor],
    how: Layers,
) -> tuple[Tensor, list[Tensor]]:
    """Every layer over rows `data` (steps one after the other, `sizes[t]` rows at step t).

    Returns the last layer's output rows and the final states stacked over
    layers and directions (h_n, and c_n for the LSTM)."""
    directions = 2 if how.bidirectional else 1
    layers = how.num_layers
    if layers < 1:
        raise TensorError(f"{name}: num_layers must be at least 1, got {layers}")
    for i, h in enumerate(hx):
        if h.dim() != 3 or h.shape[0] != layers * directions or h.shape[1] != sizes[0]:
            raise TensorError(
                f"{name}: hidden state {i} has shape {list(h.shape)}, expected "
                f"({layers * directions}, {sizes[0]}, hidden_size)"
            )
    projected = len(hx) == 2 and hx[0].shape[2] != hx[1].shape[2]
    groups = _group(name, params, how.has_biases, projected, layers, directions, gates)
    finals: list[list[Tensor]] = [[] for _ in hx]
    layer_input = data
    for layer in range(layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            weights = groups[index]
            if layer_input.shape[-1] != weights.w_ih.shape[1]:
                raise TensorError(
                    f"{name}: layer {layer} expects inputs of size {weights.w_ih.shape[1]}, "
                    f"got {layer_input.shape[-1]}"
                )
            state = tuple(call("aten::select", h, 0, index) for h in hx)
            steps, state = _run_direction(
                step, layer_input, sizes, state, weights, reverse=direction == 1
            )
            outputs.append(call("aten::cat", steps, 0))
            for kept, s in zip(finals, state, strict=True):
                kept.append(s)
        layer_input = outputs[0] if directions == 1 else call("aten::cat", outputs, 1)
        if how.dropout != 0.0 and how.train and layer < layers - 1:
            layer_input = call("aten::dropout", layer_input, how.dropout, True)
    return layer_input, [call("aten::stack", kept, 0) for kept in finals]


def _padded(
    name: str,
    step: Cell,
    gates: int,
    input: Tensor,
    hx: Sequence[Tensor],
    params: Sequence[Tensor],
    how: Layers,
    batch_first: bool,
) -> list[Tensor]:
    if input.dim() != 3:
        raise TensorError(f"{name}: input must have 3 dimensions, got {input.dim()}")
    x = call("aten::transpose", input, 0, 1) if batch_first else input
    steps, batch = x.shape[0], x.shape[1]
    if steps == 0 or batch == 0:
        raise TensorError(f"{name}: the input holds no time steps or no sequences")
    rows = call("aten::reshape", x, [steps * batch, x.shape[2]])
    out, finals = _run(name, step, gates, rows, [batch] * steps, hx, params, how)
    output = call("aten::reshape", out, [steps, batch, out.shape[-1]])
    if batch_first:
        output = call("aten::transpose", output, 0, 1)
    return [output, *finals]


def _packed(
    name: str,
    step: Cell,
    gates: int,
    data: Tensor,
    batch_sizes: Tensor,
    hx: Sequence[Tensor],
    params: Sequence[Tensor],
    how: Layers,
) -> list[Tensor]:
    if data.dim() != 2:
        raise TensorError(f"{name}: packed data must have 2 dimensions, got {data.dim()}")
    if batch_sizes.dim() != 1 or batch_sizes._data.dtype.kind not in "iu":
        raise TensorError(f"{name}: batch_sizes must be a 1-D integer tensor")
    sizes = [int(s) for s in batch_sizes._data.tolist()]
    if not sizes or sizes[-1] < 1 or any(a < b for a, b in pairwise(sizes)):
        raise TensorError(f"{name}: batch_sizes must be positive and non-increasing, got {sizes}")
    if sum(sizes) != data.shape[0]:
        raise TensorError(
            f"{name}: batch_sizes sum to {sum(sizes)}, but the packed data has {data.shape[0]} rows"
        )
    out, finals = _run(name, step, gates, data, sizes, hx, params, how)
    return [out, *finals]


def _lstm_hx(hx: Sequence[Tensor]) -> Sequence[Tensor]:
    if len(hx) != 2:
        raise TensorError("lstm expects two hidden states")
    return hx


@implements("aten::lstm.input", autograd=False)
def lstm(
    input: Tensor,
    hx: list[Tensor],
    params: list[Tensor],
    has_biases: bool,
    num_layers: int,
    dropout: float,
    train: bool,
    bidirectional: bool,
    batch_first: bool,
) -> tuple[Tensor, Tensor, Tensor]:
    how = Layers(has_biases, num_layers, dropout, train, bidirectional)
    out = _padded("lstm", _lstm_step, 4, input, _lstm_hx(hx), params, how, batch_first)
    return out[0], out[1], out[2]


@implements("aten::lstm.data", autograd=False)
def lstm_packed(
    data: Tensor,
    batch_sizes: Tensor,
    hx: list[Tensor],
    params: list[Tensor],
    has_biases: bool,
    num_layers: int,
    dropout: float,
    train: bool,
    bidirectional: bool,
) -> tuple[Tensor, Tensor, Tensor]:
    how = Layers(has_biases, num_layers, dropout, train, bidirectional)
    out = _packed("lstm", _lstm_step, 4, data, batch_sizes, _lstm_hx(hx), params, how)
    return out[0], out[1], out[2]


@implements("aten::gru.input", autograd=False)
def gru(
    input: Tensor,
    hx: Tensor,
    params: list[Tensor],
    has_biases: bool,
    num_layers: int,
    dropout: float,
    train: bool,
    bidirectional: bool,
    batch_first: bool,
) -> tuple[Tensor, Tensor]:
    how = Layers(has_biases, num_layers, dropout, train, bidirectional)
    out = _padded("gru", _gru_step, 3, input, [hx], params, how, batch_first)
    return out[0], out[1]


@implements("aten::gru.data", autograd=False)
def gru_packed(
    data: Tensor,
    batch_sizes: Tensor,
    hx: Tensor,
    params: list[Tensor],
    has_biases: bool,
    num_layers: int,
    dropout: float,
    train: bool,
    bidirectional: bool,
) -> tuple[Tensor, Tensor]:
    how = Layers(has_biases, num_layers, dropout, train, bidirectional)
    out = _packed("gru", _gru_step, 3, data, batch_sizes, [hx], params, how)
    return out[0], out[1]
