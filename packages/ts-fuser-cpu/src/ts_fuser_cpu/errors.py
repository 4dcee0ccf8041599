"""The errors ts-fuser-cpu raises; all derive from ts-ir's `TorchScriptError`."""

from __future__ import annotations

from ts_ir import TorchScriptError


class FuserError(TorchScriptError):
    """The CPU fuser was misused or failed."""


class UnsupportedFusionError(FuserError):
    """A fusion group, or one specialization of it, that the CPU fuser cannot compile.

    The message says why (an unsupported dtype, an operator without a lowering,
    outputs of different shapes, ...); the caller runs the group's subgraph in
    the interpreter instead.
    """
