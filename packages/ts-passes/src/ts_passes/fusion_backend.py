"""The fusion backend protocol: how `fuse_graph` learns what a device can fuse.

`fuse_graph` knows no device. For each candidate node it asks the backend
registered for the device of the node's tensor outputs whether it can fuse
the node; the runtime later asks the same backend to compile a group:

    class MyBackend:
        device = "cpu"

        def can_fuse(self, node: Node) -> bool:
            ...                        # e.g. pointwise float ops

        def compile(self, subgraph: Graph, input_specs: Sequence[Type]) -> Callable[..., Any]:
            ...                        # a kernel: kernel(*group_inputs) -> output or tuple

    register_fusion_backend(MyBackend())

A backend may also have `describe() -> dict[str, object]`, what `tsjit
doctor` shows of it (a `Path` value, such as a kernel cache, is shown with
the size of what it holds).

A `prim::FusionGroup` node's `Subgraph` attribute is a graph over the
group's inputs: tensors first, then non-constant scalars; constants are
copied inside. Inside, `prim::ConstantChunk[chunks=, dim=]` nodes apply only
to group inputs (each input is chunked at most once). `input_specs` are the
types of the actual inputs of one call (complete `TensorType`s: dtype,
device, sizes, strides; `IntType`, `FloatType`, `BoolType` for scalars), so
a backend can specialize and cache kernels per spec; the kernel returns one
value per subgraph output.

Backends register themselves when imported, and installed packages declare
them in the entry point group `ts.fusers` (an entry point naming a backend
object, a class to instantiate, or a module that registers on import); the
group is loaded on the first query (`fusion_backends()`, `backend_for()`).
With none installed, the executor's pipeline compiles plans without fusion
and the first plan that would have fused logs so, once, naming the package
that provides a backend for its device (`BACKEND_PACKAGES`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any, Protocol, runtime_checkable

from ts_ir import Device, Graph, Node, TensorType, Type

from .errors import FusionBackendError

ENTRY_POINT_GROUP = "ts.fusers"
#: The package that provides the fusion backend of each device type.
BACKEND_PACKAGES: dict[str, str] = {"cpu": "ts-fuser-cpu", "cuda": "ts-fuser-cuda"}
logger = logging.getLogger(__name__)

Kernel = Callable[..., Any]


@runtime_checkable
class FusionBackend(Protocol):
    """What a fusion backend provides (see the module docstring)."""

    device: str

    def can_fuse(self, node: Node) -> bool: ...

    def compile(self, subgraph: Graph, input_specs: Sequence[Type]) -> Kernel: ...


_lock = threading.RLock()
_backends: dict[str, FusionBackend] = {}
_entry_points_loaded = False
_missing_reported = False


def _device_key(device: str | Device) -> str:
    return str(device).partition(":")[0]


def register_fusion_backend(backend: FusionBackend, *, replace: bool = True) -> FusionBackend:
    """Make `backend` the fuser for its device type (`cpu`, `cuda`)."""
    device = getattr(backend, "device", None)
    if not isinstance(device, str) or not device:
        raise FusionBackendError(f"fusion backend {backend!r} has no device name")
    for method in ("can_fuse", "compile"):
        if not callable(getattr(backend, method, None)):
            raise FusionBackendError(f"fusion backend {backend!r} has no {method}() method")
    key = _device_key(device)
    with _lock:
        if key in _backends and not replace and _backends[key] is not backend:
            raise FusionBackendError(f"a fusion backend for {key} is already registered")
        _backends[key] = backend
    return backend


def unregister_fusion_backend(device: str | Device) -> FusionBackend | None:
    """Remove the backend for a device type; returns it (tests use this to clean up)."""
    with _lock:
        return _backends.pop(_device_key(device), None)


def _load_entry_points() -> None:
    global _entry_points_loaded
    with _lock:
        if _entry_points_loaded:
            return
        _entry_points_loaded = True
        try:
            entries = list(metadata.entry_points(group=ENTRY_POINT_GROUP))
        except Exception as exc:  # broken metadata must not break compilation
            logger.warning("cannot list the %s entry points: %s", ENTRY_POINT_GROUP, exc)
            return
        for entry in entries:
            try:
                obj = entry.load()
                if isinstance(obj, type):
                    obj = obj()
                if hasattr(obj, "can_fuse") and hasattr(obj, "compile"):
                    register_fusion_backend(obj, replace=False)
            except Exception as exc:
                logger.warning("fusion backend %s failed to load: %s", entry.name, exc)


def fusion_backends() -> list[FusionBackend]:
    """Every registered backend (entry points loaded on the first query)."""
    _load_entry_points()
    with _lock:
        return list(_backends.values())


def backend_for(device: str | Device | None) -> FusionBackend | None:
    """The backend that fuses for this device, if any."""
    if device is None:
        return None
    _load_entry_points()
    return _backends.get(_device_key(device))


def report_missing_backend(graph: Graph) -> bool:
    """Log, once per process, that `graph` would have been fused but no backend is installed,
    naming the package that provides one for its tensors' device; True when this call logged.
    A graph without tensor operations would not have fused and logs nothing."""
    global _missing_reported
    if _missing_reported:
        return False
    devices = sorted(
        {
            _device_key(t.device)
            for node in graph.all_nodes()
            for t in (v.type for v in node.outputs)
            if isinstance(t, TensorType) and t.device is not None
        }
    )
    if not devices:
        return False
    with _lock:
        if _missing_reported:
            return False
        _missing_reported = True
    providers = " and ".join(
        f"{BACKEND_PACKAGES[d]} provides the one for {d} tensors"
        for d in devices
        if d in BACKEND_PACKAGES
    )
    logger.warning(
        "no fusion backend is installed, so plans run unfused, one kernel per operation; %s "
        "(`tsjit doctor` lists what is installed)",
        providers or f"a backend registers itself in the {ENTRY_POINT_GROUP} entry point group",
    )
    return True
