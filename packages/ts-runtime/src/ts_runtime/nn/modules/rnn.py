"""Recurrent layers: `RNN`, `LSTM`, `GRU` and their single-step cells.

The layers have PyTorch's constructor arguments, attributes and parameter
names (`weight_ih_l0`, `weight_hh_l0`, `bias_ih_l0`, `bias_hh_l0`, and
`weight_hr_l0` for an LSTM with `proj_size`; `_reverse` for the backward
direction), listed in the same order in `_flat_weights`. Their forward is a
loop over time in the script language: each layer first projects the whole
sequence with `W_ih` (one matrix product, as ATen does), then steps through
time, in reverse for the backward direction; the layers after the first
read the concatenated outputs of both directions, with dropout between
layers in training.

    lstm = nn.LSTM(10, 20, num_layers=2, batch_first=True)
    out, (h, c) = torch.jit.script(lstm)(x)
"""

from __future__ import annotations

import math
from typing import Any

from ...ops.dispatch import call
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..module import Module
from ..parameter import Parameter

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


# ---------------------------------------------------------------------------
# One layer, one direction, over the whole sequence (compiled with the modules)


def _lstm_layer(
    input: Tensor,
    h: Tensor,
    c: Tensor,
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Tensor | None,
    b_hh: Tensor | None,
    w_hr: Tensor | None,
    reverse: bool,
) -> tuple[Tensor, Tensor, Tensor]:
    """input (T, N, F) -> outputs (T, N, H or proj), last h, last c."""
    projected = F.linear(input, w_ih, b_ih).unbind(0)
    steps = len(projected)
    outputs: list[Tensor] = []
    for i in range(steps):
        t = steps - 1 - i if reverse else i
        gates = F.linear(h, w_hh, b_hh) + projected[t]
        chunks = gates.chunk(4, 1)
        c = call("aten::sigmoid", chunks[1]) * c + call("aten::sigmoid", chunks[0]) * call(
            "aten::tanh", chunks[2]
        )
        h = call("aten::sigmoid", chunks[3]) * call("aten::tanh", c)
        if w_hr is not None:
            h = call("aten::matmul", h, w_hr.t())
        outputs.append(h)
    if reverse:
        outputs.reverse()
    return call("aten::stack", outputs, 0), h, c


def _gru_layer(
    input: Tensor,
    h: Tensor,
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Tensor | None,
    b_hh: Tensor | None,
    reverse: bool,
) -> tuple[Tensor, Tensor]:
    projected = F.linear(input, w_ih, b_ih).unbind(0)
    steps = len(projected)
    outputs: list[Tensor] = []
    for i in range(steps):
        t = steps - 1 - i if reverse else i
        x_gates = projected[t].chunk(3, 1)
        h_gates = F.linear(h, w_hh, b_hh).chunk(3, 1)
        reset = call("aten::sigmoid", h_gates[0] + x_gates[0])
        update = call("aten::sigmoid", h_gates[1] + x_gates[1])
        new = call("aten::tanh", x_gates[2] + h_gates[2] * reset)
        h = (h - new) * update + new
        outputs.append(h)
    if reverse:
        outputs.reverse()
    return call("aten::stack", outputs, 0), h


def _rnn_layer(
    input: Tensor,
    h: Tensor,
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Tensor | None,
    b_hh: Tensor | None,
    reverse: bool,
    relu: bool,
) -> tuple[Tensor, Tensor]:
    projected = F.linear(input, w_ih, b_ih).unbind(0)
    steps = len(projected)
    outputs: list[Tensor] = []
    for i in range(steps):
        t = steps - 1 - i if reverse else i
        pre = F.linear(h, w_hh, b_hh) + projected[t]
        if relu:
            h = call("aten::relu", pre)
        else:
            h = call("aten::tanh", pre)
        outputs.append(h)
    if reverse:
        outputs.reverse()
    return call("aten::stack", outputs, 0), h


def _optional(weights: list[Tensor], index: int, present: bool) -> Tensor | None:
    if present:
        return weights[index]
    return None


# ---------------------------------------------------------------------------
# The layers


class RNNBase(Module):
    """Parameters and bookkeeping shared by `RNN`, `LSTM` and `GRU`."""

    __constants__ = (
        "mode",
        "input_size",
        "hidden_size",
        "num_layers",
        "bias",
        "batch_first",
        "dropout",
        "bidirectional",
        "proj_size",
    )

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if mode not in _GATES:
            raise ValueError(f"Unrecognized RNN mode: {mode}")
        if not isinstance(dropout, (int, float)) or isinstance(dropout, bool):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an "
                "element being zeroed"
            )
        if not 0 <= dropout <= 1:
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an "
                "element being zeroed"
            )
        if not isinstance(hidden_size, int) or hidden_size <= 0:
            raise ValueError("hidden_size must be an integer greater than zero")
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError("num_layers must be an integer greater than zero")
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size and mode != "LSTM":
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input = input_size if layer == 0 else real_hidden * num_directions
                shapes = [[gate_size, layer_input], [gate_size, real_hidden]]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    shapes += [[gate_size], [gate_size]]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    shapes.append([proj_size, hidden_size])
                    names.append("weight_hr_l{}{}")
                suffix = "_reverse" if direction == 1 else ""
                names = [n.format(layer, suffix) for n in names]
                for name, shape in zip(names, shapes, strict=True):
                    setattr(self, name, Parameter(call("aten::empty", shape, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self) -> None:
        self._flat_weights = [getattr(self, name) for name in self._flat_weights_names]

    def __setattr__(self, name: str, value: Any) -> None:
        names = self.__dict__.get("_flat_weights_names")
        if names is not None and name in names and "_flat_weights" in self.__dict__:
            self._flat_weights[names.index(name)] = value
        super().__setattr__(name, value)

    def _apply(self, fn: Any) -> Module:
        out = super()._apply(fn)
        self._init_flat_weights()
        return out

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self) -> list[list[Parameter]]:
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _weights_per_layer(self) -> int:
        count = 4 if self.bias else 2
        if self.proj_size > 0:
            count += 1
        return count

    def _check_hidden(self, hx: Tensor, expected: list[int], what: str) -> None:
        if list(hx.size()) != expected:
            raise RuntimeError(
                "Expected " + what + " size " + str(expected) + ", got " + str(hx.size())
            )

    def _batched(self, input: Tensor, name: str) -> bool:
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(
                name + ": Expected input to be 2D or 3D, got " + str(input.dim()) + "D instead"
            )
        if input.size(-1) != self.input_size:
            raise RuntimeError(
                "input.size(-1) must be equal to input_size. Expected "
                + str(self.input_size)
                + ", got "
                + str(input.size(-1))
            )
        return input.dim() == 3

    def _time_major(self, input: Tensor, batched: bool) -> Tensor:
        """(T, N, F) from the batch-first, time-major or unbatched input."""
        if not batched:
            return input.unsqueeze(1)
        if self.batch_first:
            return input.transpose(0, 1)
        return input

    def _output(self, output: Tensor, batched: bool) -> Tensor:
        if not batched:
            return output.squeeze(1)
        if self.batch_first:
            return output.transpose(0, 1)
        return output

    def _between_layers(self, output: Tensor, layer: int) -> Tensor:
        if self.dropout > 0.0 and self.training and layer < self.num_layers - 1:
            return F.dropout(output, self.dropout, True)
        return output


class RNN(RNNBase):
    """An Elman RNN: h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self_nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self_nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self_nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self_nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{self_nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(mode, *args, **kwargs)
        self.nonlinearity = self_nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        batched = self._batched(input, "RNN")
        x = self._time_major(input, batched)
        directions = 2 if self.bidirectional else 1
        expected = [self.num_layers * directions, x.size(1), self.hidden_size]
        if hx is None:
            h0 = call("aten::zeros", expected, dtype=x.dtype)
        else:
            h0 = hx if batched else hx.unsqueeze(1)
            self._check_hidden(h0, expected, "hidden")
        per = self._weights_per_layer()
        weights = self._flat_weights
        finals: list[Tensor] = []
        for layer in range(self.num_layers):
            outputs: list[Tensor] = []
            for direction in range(directions):
                index = layer * directions + direction
                first = index * per
                out, h = _rnn_layer(
                    x,
                    h0[index],
                    weights[first],
                    weights[first + 1],
                    _optional(weights, first + 2, self.bias),
                    _optional(weights, first + 3, self.bias),
                    direction == 1,
                    self.mode == "RNN_RELU",
                )
                outputs.append(out)
                finals.append(h)
            x = outputs[0] if directions == 1 else call("aten::cat", outputs, 2)
            x = self._between_layers(x, layer)
        h_n = call("aten::stack", finals, 0)
        if not batched:
            h_n = h_n.squeeze(1)
        return self._output(x, batched), h_n


class LSTM(RNNBase):
    """Long short-term memory, with an optional projection of the hidden state (`proj_size`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def forward(
        self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        batched = self._batched(input, "LSTM")
        x = self._time_major(input, batched)
        directions = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        h_shape = [self.num_layers * directions, x.size(1), real_hidden]
        c_shape = [self.num_layers * directions, x.size(1), self.hidden_size]
        if hx is None:
            h0 = call("aten::zeros", h_shape, dtype=x.dtype)
            c0 = call("aten::zeros", c_shape, dtype=x.dtype)
        else:
            if batched:
                h0, c0 = hx[0], hx[1]
            else:
                h0, c0 = hx[0].unsqueeze(1), hx[1].unsqueeze(1)
            self._check_hidden(h0, h_shape, "hidden")
            self._check_hidden(c0, c_shape, "cell")
        per = self._weights_per_layer()
        weights = self._flat_weights
        h_finals: list[Tensor] = []
        c_finals: list[Tensor] = []
        for layer in range(self.num_layers):
            outputs: list[Tensor] = []
            for direction in range(directions):
                index = layer * directions + direction
                first = index * per
                out, h, c = _lstm_layer(
                    x,
                    h0[index],
                    c0[index],
                    weights[first],
                    weights[first + 1],
                    _optional(weights, first + 2, self.bias),
                    _optional(weights, first + 3, self.bias),
                    _optional(weights, first + per - 1, self.proj_size > 0),
                    direction == 1,
                )
                outputs.append(out)
                h_finals.append(h)
                c_finals.append(c)
            x = outputs[0] if directions == 1 else call("aten::cat", outputs, 2)
            x = self._between_layers(x, layer)
        h_n = call("aten::stack", h_finals, 0)
        c_n = call("aten::stack", c_finals, 0)
        if not batched:
            h_n = h_n.squeeze(1)
            c_n = c_n.squeeze(1)
        return self._output(x, batched), (h_n, c_n)


class GRU(RNNBase):
    """Gated recurrent unit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        batched = self._batched(input, "GRU")
        x = self._time_major(input, batched)
        directions = 2 if self.bidirectional else 1
        expected = [self.num_layers * directions, x.size(1), self.hidden_size]
        if hx is None:
            h0 = call("aten::zeros", expected, dtype=x.dtype)
        else:
            h0 = hx if batched else hx.unsqueeze(1)
            self._check_hidden(h0, expected, "hidden")
        per = self._weights_per_layer()
        weights = self._flat_weights
        finals: list[Tensor] = []
        for layer in range(self.num_layers):
            outputs: list[Tensor] = []
            for direction in range(directions):
                index = layer * directions + direction
                first = index * per
                out, h = _gru_layer(
                    x,
                    h0[index],
                    weights[first],
                    weights[first + 1],
                    _optional(weights, first + 2, self.bias),
                    _optional(weights, first + 3, self.bias),
                    direction == 1,
                )
                outputs.append(out)
                finals.append(h)
            x = outputs[0] if directions == 1 else call("aten::cat", outputs, 2)
            x = self._between_layers(x, layer)
        h_n = call("aten::stack", finals, 0)
        if not batched:
            h_n = h_n.squeeze(1)
        return self._output(x, batched), h_n


# ---------------------------------------------------------------------------
# Cells


class RNNCellBase(Module):
    __constants__ = ("input_size", "hidden_size", "bias")

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool,
        num_chunks: int,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        gates = num_chunks * hidden_size
        self.weight_ih = Parameter(call("aten::empty", [gates, input_size], dtype=dtype))
        self.weight_hh = Parameter(call("aten::empty", [gates, hidden_size], dtype=dtype))
        if bias:
            self.bias_ih = Parameter(call("aten::empty", [gates], dtype=dtype))
            self.bias_hh = Parameter(call("aten::empty", [gates], dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = self.__dict__.get("nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s

    def _check_dims(self, input: Tensor, name: str) -> bool:
        if input.dim() != 1 and input.dim() != 2:
            raise ValueError(
                name + ": Expected input to be 1D or 2D, got " + str(input.dim()) + "D instead"
            )
        return input.dim() == 2


class RNNCell(RNNCellBase):
    __constants__ = ("input_size", "hidden_size", "bias", "nonlinearity")

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        batched = self._check_dims(input, "RNNCell")
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = call("aten::zeros", [input.size(0), self.hidden_size], dtype=input.dtype)
        elif not batched:
            hx = hx.unsqueeze(0)
        if self.nonlinearity == "tanh":
            ret = call(
                "aten::rnn_tanh_cell",
                input,
                hx,
                self.weight_ih,
                self.weight_hh,
                self.bias_ih,
                self.bias_hh,
            )
        elif self.nonlinearity == "relu":
            ret = call(
                "aten::rnn_relu_cell",
                input,
                hx,
                self.weight_ih,
                self.weight_hh,
                self.bias_ih,
                self.bias_hh,
            )
        else:
            raise RuntimeError("Unknown nonlinearity: " + self.nonlinearity)
        if not batched:
            ret = ret.squeeze(0)
        return ret


class LSTMCell(RNNCellBase):
    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(
        self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Tensor, Tensor]:
        batched = self._check_dims(input, "LSTMCell")
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = call("aten::zeros", [input.size(0), self.hidden_size], dtype=input.dtype)
            h, c = zeros, zeros
        elif batched:
            h, c = hx[0], hx[1]
        else:
            h, c = hx[0].unsqueeze(0), hx[1].unsqueeze(0)
        ret = call(
            "aten::lstm_cell",
            input,
            [h, c],
            self.weight_ih,
            self.weight_hh,
            self.bias_ih,
            self.bias_hh,
        )
        if not batched:
            return ret[0].squeeze(0), ret[1].squeeze(0)
        return ret[0], ret[1]


class GRUCell(RNNCellBase):
    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        batched = self._check_dims(input, "GRUCell")
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = call("aten::zeros", [input.size(0), self.hidden_size], dtype=input.dtype)
        elif not batched:
            hx = hx.unsqueeze(0)
        ret = call(
            "aten::gru_cell", input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh
        )
        if not batched:
            ret = ret.squeeze(0)
        return ret


__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"]
