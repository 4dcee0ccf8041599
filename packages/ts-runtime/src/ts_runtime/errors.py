"""The errors tensor operations raise (re-exported by `ts_runtime.tensor`)."""

from __future__ import annotations

from ts_ir import TorchScriptError


class TensorError(TorchScriptError, RuntimeError):
    """An operator was given arguments it cannot work with (shapes, dtypes, values).

    It is a `RuntimeError` too, as PyTorch raises for the same mistakes.
    """


class DimensionError(TorchScriptError, IndexError):
    """A dimension index is out of range (an `IndexError`, as in PyTorch)."""
