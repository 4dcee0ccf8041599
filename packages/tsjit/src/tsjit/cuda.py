"""`tsjit.cuda`, as `torch.cuda`: whether CUDA devices can be used.

No CUDA backend ships with tsjit yet, so `is_available()` is False and
`device_count()` is 0: code written for PyTorch that checks
`torch.cuda.is_available()` runs, and takes its CPU path.
"""

from __future__ import annotations


def is_available() -> bool:
    """Whether tensors can be placed on a CUDA device (not yet: no CUDA backend)."""
    return False


def device_count() -> int:
    """The number of CUDA devices tsjit can use."""
    return 0


__all__ = ["device_count", "is_available"]
