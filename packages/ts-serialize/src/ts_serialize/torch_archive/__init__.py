"""TorchScript's `.pt` archives, read without libtorch and without Python's pickle."""

from .loader import load_torch_archive

__all__ = ["load_torch_archive"]
