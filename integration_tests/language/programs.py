"""Language constructs that published TorchScript code uses, one program each.

Written against the name `torch`: `tools/record_language.py` runs them with
PyTorch 2.13 (recording `recorded.jsonl`), `test_language_programs.py` with
`torch` bound to tsjit. `CASES` gives each function's inputs (numpy arrays
become tensors); `MODULES` gives each module's constructor arguments and
inputs. Where PyTorch refuses a program (`s * n` on a string), the recording
holds eager Python's results. See README.md for where the constructs come
from.
"""

import enum
import math
import warnings
from typing import Dict, List, NamedTuple, Optional, Tuple, Union

import numpy as np
import torch
from torch import Tensor

F = torch.nn.functional  # `import torch.nn.functional as F` in the sources

# module-level aliases of torch callables, as torchvision and kornia write them
conv2d = F.conv2d
torch_pad = F.pad
tensor = torch.tensor


def _randn(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


class DType(str):
    """An input that is a dtype, by name (`DType("float64")`)."""


class Device(str):
    """An input that is a device (`Device("cpu")`)."""


# -- named results of builtins


def named_results(x):
    m = torch.max(x, 1)
    s = torch.sort(x, 1, descending=True)
    k = x.topk(2, dim=1)
    md = x.median(1)
    mn = x.min(dim=0)
    v, i = torch.max(x, dim=0, keepdim=True)
    return (
        m.values,
        m.indices,
        s.values,
        s.indices,
        k.values,
        k.indices,
        md.values,
        md.indices,
        mn.values,
        mn.indices,
        v + i,
    )


def named_results_kthvalue_mode(x):
    kv = torch.kthvalue(x, 2, 1)
    mo = torch.mode(x, 1)
    return kv.values, kv.indices, mo.values, mo.indices


# -- dtypes, devices and constants


def dtype_names(x):
    return (
        torch.uint16,
        torch.uint32,
        torch.uint64,
        torch.float8_e4m3fn,
        torch.bfloat16,
        torch.cfloat,
        torch.long,
        x.to(torch.float64).dtype == torch.float64,
    )


def torch_constants(x):
    return x * torch.pi + torch.e, torch.inf, -torch.inf


def device_and_dtype_properties(x):
    y = x.to(torch.int32)
    return x.device.type, x.is_floating_point(), y.is_floating_point(), x.device.index


def annotated_types(
    x, d: torch.dtype, dev: torch.device, size: List[int], g: Optional[torch.Generator] = None
):
    return x.to(d).new_zeros(size).to(dev), g is None


def constant_expression_defaults(
    x,
    beta: float = 1.0 / 9,
    clip: float = math.log(1000.0 / 16),
    dtype: torch.dtype = torch.float64,
    device: torch.device = torch.device("cpu"),
    dims: Tuple[int, int] = (0, 1),
):
    return (x * beta).clamp(max=clip).to(dtype=dtype, device=device).sum(dims)


def torch_callable_aliases(x, w):
    y = conv2d(x, w, padding=1)
    z = torch_pad(y, [1, 1])
    return z + tensor([1.0])


# -- indexing and refinement


def ellipsis_then_index(x):
    return x[..., 0::2], x[..., 1], x[..., None, 0], x[None, ..., 1:], x[1, ..., 0, None]


def isinstance_of_union(p: Union[int, List[int]], q: Union[float, Tuple[float, float]]) -> int:
    if isinstance(p, list):
        a = p[0] + len(p)
    else:
        a = p
    if isinstance(q, tuple):
        b = q[0] + q[1]
    else:
        b = q
    return a + int(b)


# -- builtin forms


def dict_from_keywords(n: int) -> Dict[str, int]:
    d = dict(a=1, b=n)
    e = dict(d, c=3, a=n * 2)
    return e


def warns_and_continues(x):
    if bool(x.sum() > 0):
        warnings.warn("the input sums to more than zero")
    return x * 2


def percent_formatting(n: int, ratio: float, name: str) -> str:
    return "%d items (%s), ratio %f" % (n, name, ratio) + " [%s]" % name


def string_repetition(s: str, n: int) -> str:
    return s * n + "-" * 3 + 2 * s


def implicit_string_concatenation(x: int) -> str:
    # fmt: off
    return (
        "a"
        + str(x)
        + "b "
        "c"
    )
    # fmt: on


# -- control flow


def if_elif_else_raise(x, mode: str):
    if mode == "add":
        return x + 1
    elif mode == "mul":
        y = x * 2
        return y
    else:
        raise ValueError("unknown mode " + mode)


def loop_with_raising_branch(xs: List[int]) -> int:
    total = 0
    for x in xs:
        if x > 10:
            total += x
            continue
        elif x >= 0:
            total -= 1
        else:
            raise ValueError("negative")
    return total


# -- NamedTuple


class Detection(NamedTuple):
    boxes: Tensor
    scores: Tensor
    label: int = 0


def named_tuple_fields(boxes, scores) -> Detection:
    keep = scores > 0.5
    d = Detection(boxes[keep], scores[keep])
    return Detection(d.boxes * 2, scores=d.scores, label=d.label + len(d))


# -- TorchScript classes


@torch.jit.script
class Boxes:
    def __init__(self, tensor: Tensor):
        self.tensor = tensor
        self.count = tensor.size(0)

    def area(self) -> Tensor:
        b = self.tensor
        return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> Tensor:
        return self.tensor[i]

    @property
    def device(self) -> torch.device:
        return self.tensor.device

    def scale(self, s: float) -> "Boxes":
        return Boxes(self.tensor * s)


def pairwise_areas(b1: Boxes, b2: Boxes) -> Tensor:
    return b1.area()[:, None] + b2.area()[None, :]


def boxes_in_compiled_code(t):
    b = Boxes(t)
    c = b.scale(2.0)
    return len(c), c[0], c.area(), c.device.type, pairwise_areas(b, c)


class Accumulator:
    def __init__(self, start: int):
        self.total = start
        self.seen: List[int] = []

    def add(self, v: int) -> int:
        self.total += v
        self.seen.append(v)
        return self.total


def class_compiled_when_used(xs: List[int]) -> Tuple[int, List[int]]:
    acc = Accumulator(100)
    for x in xs:
        acc.add(x)
    return acc.total, acc.seen


class BoxDecoder:
    """Decodes box deltas against reference boxes (as detection heads' box coders do)."""

    def __init__(self, weights: Tuple[float, float, float, float], clip: float = math.log(1000.0 / 16)):
        self.weights = weights
        self.clip = clip

    def decode(self, deltas: Tensor, boxes: Tensor) -> Tensor:
        widths = boxes[:, 2] - boxes[:, 0]
        heights = boxes[:, 3] - boxes[:, 1]
        cx = boxes[:, 0] + 0.5 * widths
        cy = boxes[:, 1] + 0.5 * heights
        wx, wy, ww, wh = self.weights
        dx = deltas[:, 0::4] / wx
        dy = deltas[:, 1::4] / wy
        dw = torch.clamp(deltas[:, 2::4] / ww, max=self.clip)
        dh = torch.clamp(deltas[:, 3::4] / wh, max=self.clip)
        pcx = dx * widths[:, None] + cx[:, None]
        pcy = dy * heights[:, None] + cy[:, None]
        pw = torch.exp(dw) * widths[:, None]
        ph = torch.exp(dh) * heights[:, None]
        return torch.stack((pcx - 0.5 * pw, pcy - 0.5 * ph, pcx + 0.5 * pw, pcy + 0.5 * ph), dim=2).flatten(1)


class QualityMatcher:
    """Matches each column to its best row, marking weak matches (as proposal matchers do)."""

    BELOW_LOW = -1
    BETWEEN = -2
    __annotations__ = {"BELOW_LOW": int, "BETWEEN": int}

    def __init__(self, high: float, low: float):
        self.BELOW_LOW = -1
        self.BETWEEN = -2
        self.high = high
        self.low = low

    def __call__(self, quality: Tensor) -> Tensor:
        values, matches = quality.max(dim=0)
        below = values < self.low
        between = (values >= self.low) & (values < self.high)
        matches[below] = self.BELOW_LOW
        matches[between] = self.BETWEEN
        return matches


class HeadsWithHelpers(torch.nn.Module):
    __annotations__ = {"decoder": BoxDecoder, "matcher": QualityMatcher}

    def __init__(self):
        super().__init__()
        self.decoder = BoxDecoder((10.0, 10.0, 5.0, 5.0))
        self.matcher = QualityMatcher(0.7, 0.3)

    def forward(self, deltas, boxes, quality):
        return self.decoder.decode(deltas, boxes), self.matcher(quality)


# -- modules: attributes holding functions, script modules the old way


class Activation(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.act = F.gelu
        self.squash = torch.tanh

    def forward(self, x):
        return self.squash(self.act(x))


class LayerNormCell(torch.jit.ScriptModule):
    def __init__(self, input_size: int, hidden_size: int):
        super().__init__()
        self.weight_ih = torch.nn.Parameter(torch.randn(4 * hidden_size, input_size))
        self.weight_hh = torch.nn.Parameter(torch.randn(4 * hidden_size, hidden_size))
        self.norm_i = torch.nn.LayerNorm(4 * hidden_size)
        self.norm_h = torch.nn.LayerNorm(4 * hidden_size)
        self.norm_c = torch.nn.LayerNorm(hidden_size)

    @torch.jit.script_method
    def forward(self, input: Tensor, state: Tuple[Tensor, Tensor]) -> Tuple[Tensor, Tuple[Tensor, Tensor]]:
        hx, cx = state
        gates = self.norm_i(torch.mm(input, self.weight_ih.t())) + self.norm_h(torch.mm(hx, self.weight_hh.t()))
        i, f, g, o = gates.chunk(4, 1)
        cy = self.norm_c(torch.sigmoid(f) * cx + torch.sigmoid(i) * torch.tanh(g))
        hy = torch.sigmoid(o) * torch.tanh(cy)
        return hy, (hy, cy)


class CellLayer(torch.jit.ScriptModule):
    def __init__(self, input_size: int, hidden_size: int):
        super().__init__()
        self.cell = LayerNormCell(input_size, hidden_size)

    @torch.jit.script_method
    def forward(self, input, state):
        # type: (Tensor, Tuple[Tensor, Tensor]) -> Tuple[Tensor, Tuple[Tensor, Tensor]]
        inputs = input.unbind(0)
        outputs = torch.jit.annotate(List[Tensor], [])
        for i in range(len(inputs)):
            out, state = self.cell(inputs[i], state)
            outputs += [out]
        return torch.stack(outputs), state


class StackedCells(torch.jit.ScriptModule):
    __constants__ = ["layers", "num_layers"]

    def __init__(self, num_layers: int, input_size: int, hidden_size: int):
        super().__init__()
        self.num_layers = num_layers
        first = [CellLayer(input_size, hidden_size)]
        self.layers = torch.nn.ModuleList(first + [CellLayer(hidden_size, hidden_size) for _ in range(num_layers - 1)])

    @torch.jit.script_method
    def forward(self, input: Tensor) -> Tuple[Tensor, List[Tuple[Tensor, Tensor]]]:
        batch = input.size(1)
        hidden = self.layers[0].cell.weight_hh.size(1)
        states = [(torch.zeros(batch, hidden), torch.zeros(batch, hidden)) for _ in range(self.num_layers)]
        output_states = torch.jit.annotate(List[Tuple[Tensor, Tensor]], [])
        output = input
        i = 0
        for layer in self.layers:
            output, out_state = layer(output, states[i])
            output_states += [out_state]
            i += 1
        return output, output_states


# -- interfaces


@torch.jit.interface
class Scorer:
    def score(self, x: Tensor) -> Tensor:
        pass


@torch.jit.script
class Doubler:
    def __init__(self):
        self.k = 2.0

    def score(self, x: Tensor) -> Tensor:
        return x * self.k


@torch.jit.script
class Negator:
    def __init__(self):
        pass

    def score(self, x: Tensor) -> Tensor:
        return -x


def apply_scorer(s: Scorer, x: Tensor) -> Tensor:
    return s.score(x)


def interface_dispatch(x: Tensor, use_first: bool) -> Tensor:
    s: Scorer = Doubler()
    if not use_first:
        s = Negator()
    return apply_scorer(s, x) + apply_scorer(Doubler(), x)


# -- enum.Enum


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Mode(enum.Enum):
    FAST = "fast"
    SLOW = "slow"


def enum_members(c: Color, m: Mode = Mode.FAST) -> Tuple[str, int, bool, str, Color]:
    same = c == Color.RED
    if m == Mode.SLOW:
        same = not same
    return c.name, c.value + Color.GREEN.value, same, m.value, Color.GREEN


# -- torch._assert, @unused


def checked_rows(x):
    torch._assert(x.dim() == 2, "expected a matrix")
    return x.sum(1)


@torch.jit.unused
def export_only(x: Tensor) -> Tensor:
    return x + 1


def calls_unused(x: Tensor, use: bool) -> Tensor:
    if use:
        return export_only(x)
    return x * 2


CASES = {
    "named_results": [(_randn(0, 3, 4),)],
    "named_results_kthvalue_mode": [(_randn(1, 3, 4),)],
    "dtype_names": [(_randn(2, 2),)],
    "torch_constants": [(_randn(3, 2),)],
    "device_and_dtype_properties": [(_randn(4, 2),)],
    "annotated_types": [(_randn(5, 2), DType("float64"), Device("cpu"), [2, 3])],
    "constant_expression_defaults": [(_randn(6, 3, 4) * 100,)],
    "torch_callable_aliases": [(_randn(7, 1, 2, 4, 4), _randn(8, 3, 2, 3, 3))],
    "ellipsis_then_index": [(_randn(9, 2, 3, 4),)],
    "isinstance_of_union": [([3, 4], 1.5), (5, (1.0, 2.5)), ([7], (0.5, 0.25))],
    "dict_from_keywords": [(4,)],
    "warns_and_continues": [(np.ones(2, np.float32),), (-np.ones(2, np.float32),)],
    "percent_formatting": [(3, 0.5, "abc")],
    "string_repetition": [("ab", 3), ("x", 0)],
    "implicit_string_concatenation": [(5,)],
    "if_elif_else_raise": [
        (_randn(10, 3), "add"),
        (_randn(11, 3), "mul"),
        (_randn(12, 3), "div"),
    ],
    "loop_with_raising_branch": [([1, 20, 3],), ([5, -1],), ([],)],
    "named_tuple_fields": [(_randn(13, 4, 4), np.array([0.9, 0.1, 0.6, 0.2], np.float32))],
    "boxes_in_compiled_code": [(np.array([[0, 0, 2, 3], [1, 1, 4, 2]], np.float32),)],
    "class_compiled_when_used": [([1, 2, 3],), ([],)],
    "checked_rows": [(_randn(14, 2, 3),), (_randn(15, 3),)],
    "calls_unused": [(_randn(16, 2), False), (_randn(17, 2), True)],
    "interface_dispatch": [(_randn(22, 3), True), (_randn(23, 3), False)],
    "enum_members": [(Color.RED,), (Color.GREEN, Mode.SLOW)],
}

MODULES = {
    "HeadsWithHelpers": (
        (),
        [
            (
                _randn(18, 3, 8),
                np.array([[0, 0, 4, 4], [2, 2, 6, 8], [1, 0, 3, 5]], np.float32),
                np.abs(_randn(19, 2, 5)),
            )
        ],
    ),
    "Activation": ((), [(_randn(20, 2, 3),)]),
    "StackedCells": ((2, 3, 4), [(_randn(21, 5, 2, 3),)]),
}
