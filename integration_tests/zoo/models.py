"""The zoo's models: `tsjit.zoo`, written once for tsjit and PyTorch (see there)."""

from tsjit.zoo import SPECS, Spec, build, library

__all__ = ["SPECS", "Spec", "build", "library"]
