"""Tensor constants as PyTorch's IR printer writes them, and reading them back.

PyTorch prints a tensor attribute of one element as `{value}`; of up to ten
elements as ATen prints the tensor (`at::print`), with its newlines turned
into spaces:

    prim::Constant[value= 1.0000  2.5000 [ CPUFloatType{2} ]]()
    prim::Constant[value= 1  2  3  4 [ CPULongType{2,2} ]]()
    prim::Constant[value=(1,.,.) =   1  1   1  1  (2,.,.) =   1  1   1  1 [ CPUFloatType{2,2,2} ]]()
    prim::Constant[value=[ CPUFloatType{0} ]]()

and larger ones as `<Tensor>`. `format_tensor_values` reproduces ATen's
layout (`__printFormat`: integers, fixed with 4 decimals and a common scale,
or scientific; columns wrapped at 80 characters); `parse_tensor_values`
reads that text back into the values, shape and dtype it shows. The printed
digits are all there is: a value that needs more than 4 decimals reads back
rounded, as in PyTorch's own text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

#: tensors with more elements print as `<Tensor>` (PyTorch's max_tensor_display_size)
MAX_DISPLAY = 10
_LINE_SIZE = 80
TYPE_NAME_RE = re.compile(r"(CPU|CUDA)([A-Za-z0-9]+)Type\Z")


def _print_format(values: Sequence[float]) -> tuple[float, int, str]:
    """ATen's `__printFormat`: (scale, field width, number format)."""
    int_mode = all(not math.isfinite(z) or z == math.ceil(z) for z in values)
    finite = [abs(z) for z in values if math.isfinite(z)]
    exp_min = exp_max = 1.0
    if finite:
        lo, hi = min(finite), max(finite)
        exp_min = math.floor(math.log10(lo)) + 1 if lo != 0 else 1
        exp_max = math.floor(math.log10(hi)) + 1 if hi != 0 else 1
    if int_mode:
        if exp_max > 9:
            return 1.0, 11, "sci"
        return 1.0, int(exp_max) + 1, "default"
    if exp_max - exp_min > 4:
        width = 11
        if abs(exp_max) > 99 or abs(exp_min) > 99:
            width += 1
        return 1.0, width, "sci"
    if exp_max > 5 or exp_max < 0:
        return 10.0 ** (exp_max - 1), 7, "fixed"
    return 1.0, 7 if exp_max == 0 else int(exp_max) + 6, "fixed"


def _number(x: float, style: str) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if style == "sci":
        return f"{x:.4e}"
    if style == "fixed":
        return f"{x:.4f}"
    return f"{x:g}"


def _scale(scale: float) -> str:
    """The common factor line (`1000000 *`, `1e-07 *`): the shortest form of the number."""
    text = repr(scale)
    return (text[:-2] if text.endswith(".0") else text) + " *\n"


def _matrix(out: list[str], rows: list[list[float]], indent: int) -> None:
    """ATen's `__printMatrix` of a 2-d slice."""
    flat = [x for r in rows for x in r]
    scale, width, style = _print_format(flat)
    n_rows, n_cols = len(rows), len(rows[0]) if rows else 0
    per_line = (_LINE_SIZE - indent) // (width + 1)
    first = 0
    while first < n_cols:
        last = min(first + per_line, n_cols) - 1
        if per_line < n_cols:
            if first != 0:
                out.append("\n")
            out.append(f"Columns {first + 1} to {last + 1}")
            out.append(" " * indent)
        if scale != 1:
            out.append(_scale(scale))
            out.append(" " * indent)
        for i, row in enumerate(rows):
            for c in range(first, last + 1):
                out.append(_number(row[c] / scale, style).rjust(width))
                if c == last:
                    out.append("\n")
                    if i != n_rows - 1:
                        out.append(" " * indent + (" " if scale != 1 else ""))
                else:
                    out.append(" ")
        first = last + 1


def _reshape(flat: Sequence[float], shape: Sequence[int]) -> list:
    if len(shape) <= 1:
        return list(flat)
    step = len(flat) // shape[0] if shape[0] else 0
    return [_reshape(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


def format_tensor_values(values: Sequence[float], shape: Sequence[int], type_name: str) -> str:
    """`at::print` of a tensor with these values (row-major), shape and type name
    (`CPUFloatType`), newlines turned into spaces as PyTorch's IR printer does."""
    dims = ",".join(str(d) for d in shape)
    values = [float(v) for v in values]
    out: list[str] = []
    if len(shape) == 0:
        out.append(f"{values[0]:g}\n[ {type_name}{{}}")
    elif len(shape) == 1:
        if values:
            scale, width, style = _print_format(values)
            if scale != 1:
                out.append(_scale(scale))
            for v in values:
                out.append(_number(v / scale, style).rjust(width) + "\n")
        out.append(f"[ {type_name}{{{dims}}}")
    elif len(shape) == 2:
        if values:
            _matrix(out, _reshape(values, shape), 0)
        out.append(f"[ {type_name}{{{dims}}}")
    else:
        if values:
            nested = _reshape(values, shape)
            lead = list(shape[:-2])
            counter = [0] * len(lead)
            first = True
            while True:
                if not first:
                    out.append("\n")
                first = False
                out.append("(" + "".join(f"{c + 1}," for c in counter) + ".,.) = \n")
                slice_ = nested
                for c in counter:
                    slice_ = slice_[c]
                _matrix(out, slice_, 1)
                # the first leading index moves fastest, as in ATen's `__printTensor`
                i = 0
                while i < len(lead):
                    counter[i] += 1
                    if counter[i] < lead[i]:
                        break
                    counter[i] = 0
                    i += 1
                if i == len(lead):
                    break
        out.append(f"[ {type_name}{{{dims}}}")
    out.append(" ]")
    return "".join(out).replace("\n", " ")


class TensorText:
    """What a printed tensor constant shows: row-major values, shape, scalar type name
    (`Float`), device (`cpu` or `cuda`)."""

    __slots__ = ("device", "scalar_type", "shape", "values")

    def __init__(self, values: list[float], shape: tuple[int, ...], scalar_type: str, device: str):
        self.values = values
        self.shape = shape
        self.scalar_type = scalar_type
        self.device = device


def assemble(
    pieces: list[tuple[tuple[int, ...] | None, int, list[float]]],
    shape: tuple[int, ...],
) -> list[float]:
    """Row-major values from printed pieces: (slice index, first column, values of a column
    block in row-major order) in the order they were printed."""
    if len(shape) <= 1:
        return [v for _, _, vs in pieces for v in vs]
    rows, cols = shape[-2], shape[-1]
    lead = shape[:-2]
    n_slices = math.prod(lead) if lead else 1
    out = [0.0] * (n_slices * rows * cols)
    for index, first_col, vs in pieces:
        if rows == 0:
            continue
        width = len(vs) // rows
        flat_slice = 0
        for i, c in enumerate(index or ()):
            flat_slice += c * math.prod(lead[i + 1 :])
        base = flat_slice * rows * cols
        for k, v in enumerate(vs):
            r, c = divmod(k, width)
            out[base + r * cols + first_col + c] = v
    return out
