"""`repr(tensor)` as PyTorch prints it: `tensor([1.0000, 2.5000], requires_grad=True)`.

Floating values print in one of three modes chosen from the finite values:
all integral (`1.`), fixed with four decimals, or scientific when the
magnitudes span too much. Every element is right-aligned to the widest one;
rows wrap at 80 columns and large tensors are summarized with `...`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .devices import DeviceArray
from .dtypes import bool_, dtype_of_numpy, float32, get_default_dtype, int64

if TYPE_CHECKING:
    from .tensor import Tensor

PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80


class _Formatter:
    def __init__(self, values: np.ndarray) -> None:
        self.kind = values.dtype.kind
        self.int_mode = True
        self.sci_mode = False
        if self.kind == "f":
            finite = values[np.isfinite(values)].astype(np.float64)
            nonzero = np.abs(finite[finite != 0])
            self.int_mode = bool(np.all(finite == np.ceil(finite))) if finite.size else True
            if nonzero.size:
                lo, hi = nonzero.min(), nonzero.max()
                if self.int_mode:
                    self.sci_mode = hi > 1e8
                else:
                    self.sci_mode = hi / lo > 1000.0 or hi > 1e8 or lo < 1e-4
        self.width = max((len(self._raw(v)) for v in values.ravel()), default=1)

    def _raw(self, v: np.generic) -> str:
        if self.kind == "b":
            return "True" if v else "False"
        if self.kind in "iu":
            return str(int(v))
        if self.kind == "c":
            return f"{complex(v).real:.{PRECISION}f}{complex(v).imag:+.{PRECISION}f}j"
        x = float(v)
        if not np.isfinite(x):
            return "nan" if np.isnan(x) else ("inf" if x > 0 else "-inf")
        if self.sci_mode:
            return f"{x:.{PRECISION}e}"
        if self.int_mode:
            return f"{x:.0f}."
        return f"{x:.{PRECISION}f}"

    def format(self, v: np.generic) -> str:
        return self._raw(v).rjust(self.width)


def _summarize(a: np.ndarray) -> np.ndarray:
    if a.ndim == 0:
        return a.reshape(1)
    if a.shape[0] > 2 * EDGEITEMS:
        a = np.concatenate([a[:EDGEITEMS], a[-EDGEITEMS:]])
    return np.concatenate([_summarize(x).ravel() for x in a]) if a.ndim > 1 else a


def _format(a: np.ndarray, fmt: _Formatter, indent: int, summarize: bool) -> str:
    if a.ndim == 0:
        return fmt.format(a[()])
    if a.ndim == 1:
        items = [fmt.format(v) for v in a]
        if summarize and len(items) > 2 * EDGEITEMS:
            items = [*items[:EDGEITEMS], "...", *items[-EDGEITEMS:]]
        per_line = max(1, (LINEWIDTH - indent) // (fmt.width + 2))
        lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = [_format(x, fmt, indent + 1, summarize) for x in a]
    if summarize and len(rows) > 2 * EDGEITEMS:
        rows = [*rows[:EDGEITEMS], "...", *rows[-EDGEITEMS:]]
    sep = "," + "\n" * (a.ndim - 1) + " " * (indent + 1)
    return "[" + sep.join(rows) + "]"


def tensor_repr(t: Tensor) -> str:
    a = t._data
    device = None
    if isinstance(a, DeviceArray):
        # printing copies to the host, as PyTorch's does
        device, a = a.device, a.to_host()
    d = dtype_of_numpy(a.dtype)
    summarize = a.size > THRESHOLD
    prefix = "tensor("
    if a.size == 0:
        body = "[]"
    else:
        fmt = _Formatter(_summarize(a) if summarize else a.ravel())
        body = _format(a, fmt, len(prefix), summarize)
    suffixes = []
    if device is not None:
        suffixes.append(f"device='{device}'")
    if a.size == 0 and a.shape != (0,):
        suffixes.append(f"size={tuple(a.shape)}")
    implicit = d in (get_default_dtype(), int64, bool_) or (
        d == float32 and get_default_dtype() == float32
    )
    if not implicit:
        suffixes.append(f"dtype={d!r}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return prefix + body + "".join(", " + s for s in suffixes) + ")"
