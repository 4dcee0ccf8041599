"""Running `prim::FusionGroup` nodes, and the switch that turns fusion on and off.

A fusion group's operation keeps, per specialization of its inputs (each
tensor's dtype, sizes and strides, which also fix its contiguity, and the
kind of its storage, which fixes its device; each scalar's type), what to
call:

- the kernel the fusion backend registered for the inputs' device
  (`ts_passes.backend_for`) compiled for that specialization (compiled once,
  then reused), or
- when there is no backend, or it cannot compile the group for these inputs
  (it raises, saying why), the group's subgraph run by the interpreter.

A kernel returns the group's outputs, or None when it cannot compute these
particular values (an integer division by zero): the interpreter then runs
the subgraph, which raises the proper error. Every fallback is logged once
per group and specialization (logger `ts_runtime.fusion`; backends log
their own reasons too).

The switch: `set_fuser("cpu" | "none")`, the `fuser(...)` context manager,
or the environment variable `TS_JIT_FUSER=cpu|none`, read when an execution
plan is compiled (default: `cpu`). It decides whether plans compiled while
it is set fuse; plans already compiled keep what they were compiled with.
`get_fuser()` says what plans compiled now get: `none` when fusion is
switched off or when no fusion backend is installed for the chosen device
(ts-fuser-cpu provides the CPU one; the first plan that would have fused
then logs that once).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from ts_ir import (
    BoolType,
    Device,
    FloatType,
    Graph,
    IntType,
    Node,
    NoneType,
    TensorType,
    TorchScriptError,
    Type,
)
from ts_schema import Tag, registry

from .devices import DeviceArray
from .dtypes import scalar_type_of_numpy
from .interpreter.code import Code
from .ops.dispatch import implement_factory
from .tensor import Tensor

log = logging.getLogger("ts_runtime.fusion")

FUSERS = ("cpu", "none")
#: Specializations a group remembers; binding another one is cheap (its code is shared).
MAX_SPECIALIZATIONS = 1024
_ENV = "TS_JIT_FUSER"
_override: list[str] = []
_group_ids = itertools.count()


# ---------------------------------------------------------------------------
# the switch


#: The fuser chosen in code, innermost last; part of every execution plan's key.
FUSER_OVERRIDE = _override


def _check(name: str) -> str:
    if name not in FUSERS:
        raise ValueError(f"unknown fuser {name!r}; expected one of {', '.join(FUSERS)}")
    return name


def _chosen() -> str:
    """The fuser asked for: `set_fuser`'s choice, else `TS_JIT_FUSER`, else "cpu"."""
    if _override:
        return _override[-1]
    value = os.environ.get(_ENV, "").strip().lower()
    return value if value in FUSERS else "cpu"


def get_fuser() -> str:
    """The fuser plans compiled now use: the one asked for (`set_fuser`, `TS_JIT_FUSER`,
    default "cpu"), or "none" when no fusion backend for it is installed."""
    from ts_passes import backend_for

    chosen = _chosen()
    return chosen if chosen == "none" or backend_for(chosen) is not None else "none"


def set_fuser(name: str) -> None:
    """Choose the fuser for plans compiled from now on: "cpu" (fuse pointwise work) or "none"."""
    _override[:] = [_check(name)]


@contextlib.contextmanager
def fuser(name: str) -> Iterator[None]:
    """Compile the plans of calls inside the block with fuser `name` ("cpu" or "none")."""
    _override.append(_check(name))
    try:
        yield
    finally:
        _override.pop()


def fusion_enabled() -> bool:
    """Whether plans compiled now fuse (fusion asked for and a backend installed)."""
    return get_fuser() != "none"


def fusion_requested() -> bool:
    """Whether fusion is asked for, installed backend or not: the executor's pipeline then
    says, once, when none is installed."""
    return _chosen() != "none"


# ---------------------------------------------------------------------------
# the operation


class FusionGroup:
    """The operation of one `prim::FusionGroup` node (see the module docstring)."""

    def __init__(self, node: Node) -> None:
        self.subgraph: Graph = node.g("Subgraph")
        self.name = f"FusionGroup_{next(_group_ids)}"
        self.cache: dict[tuple, Callable[..., Any]] = {}
        self.tensor_inputs = [isinstance(v.type, TensorType) for v in self.subgraph.inputs]
        self._fallback: Callable[..., Any] | None = None
        self._failed_keys: set[tuple] = set()

    # -- specializations

    def key(self, args: tuple[Any, ...]) -> tuple:
        parts: list[Any] = []
        for a in args:
            if isinstance(a, Tensor):
                d = a._data
                parts += (d.__class__, d.dtype, d.shape, d.strides)
            else:
                parts.append(type(a))
        return tuple(parts)

    def miss(self, key: tuple, args: tuple[Any, ...]) -> Callable[..., Any]:
        """What to run for a specialization not seen before (and remember it)."""
        entry = self.cache.get(key)
        if entry is None:
            if len(self.cache) >= MAX_SPECIALIZATIONS:
                # shapes that never repeat: start over rather than grow without bound
                self.cache.clear()
            entry = self.cache[key] = self._prepare(args)
        return entry

    def _prepare(self, args: tuple[Any, ...]) -> Callable[..., Any]:
        specs, device, problem = _input_specs(args)
        if problem is not None:
            return self._fall_back(problem, specs)
        return self._compile(specs, device)

    def prepare_specs(self, specs: list[Type]) -> Callable[..., Any]:
        """What to run for inputs of these (complete) types."""
        devices = {t.device for t in specs if isinstance(t, TensorType)}
        if len(devices) != 1:
            return self._fall_back("the group's tensors are not on one device", specs)
        return self._compile(specs, devices.pop())

    def _compile(self, specs: list[Type], device: Device | None) -> Callable[..., Any]:
        from ts_passes import backend_for, progress

        backend = backend_for(device)
        if backend is None:
            return self._fall_back(f"no fusion backend is registered for {device}", specs)
        try:
            with progress.compiling(f"{self.name} for {device}"):
                return backend.compile(self.subgraph, specs)
        except TorchScriptError as exc:
            return self._fall_back(str(exc), specs)
        except Exception as exc:  # a backend bug must not change results
            log.warning(
                "%s: the %s fusion backend failed; running the subgraph in the interpreter",
                self.name,
                device,
                exc_info=exc,
            )
            return self.fallback

    def _fall_back(self, reason: str, specs: list[Type] | None) -> Callable[..., Any]:
        described = ", ".join(map(str, specs)) if specs else "these inputs"
        log.info("%s runs in the interpreter for (%s): %s", self.name, described, reason)
        return self.fallback

    @property
    def fallback(self) -> Callable[..., Any]:
        if self._fallback is None:
            self._fallback = Code(self.subgraph, grad_enabled=False, name=self.name).fn
        return self._fallback

    def kernel_failed(self, key: tuple, args: tuple[Any, ...]) -> Any:
        """A kernel could not compute these values: the interpreter does (and raises if it must)."""
        if key not in self._failed_keys:
            self._failed_keys.add(key)
            log.info(
                "%s: the kernel could not compute these inputs; running the interpreter", self.name
            )
        return self.fallback(*args)


def _input_specs(args: tuple[Any, ...]) -> tuple[list[Type], Device | None, str | None]:
    """Each input's type for the backend, the device of the tensors, and a problem if any."""
    specs: list[Type] = []
    device: Device | None = None
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            d = a._data
            if not isinstance(d, (np.ndarray, DeviceArray)):
                return specs, None, f"input {i} is not stored in a numpy array"
            try:
                dtype = scalar_type_of_numpy(d.dtype)
            except Exception:
                return specs, None, f"input {i} has dtype {d.dtype}, which tensors cannot have"
            itemsize = d.itemsize
            if any(s % itemsize for s in d.strides):
                return specs, None, f"input {i} has strides that are not whole elements"
            strides = tuple(s // itemsize for s in d.strides)
            dev = a.device
            if device is None:
                device = dev
            elif dev != device:
                return specs, None, f"inputs on {device} and {dev}"
            specs.append(TensorType(dtype, dev, False, d.shape, strides))
        elif isinstance(a, bool):
            specs.append(BoolType.get())
        elif isinstance(a, int):
            specs.append(IntType.get())
        elif isinstance(a, float):
            specs.append(FloatType.get())
        elif a is None:
            specs.append(NoneType.get())
        else:
            return specs, None, f"input {i} is a {type(a).__name__}"
    if device is None:
        return specs, None, "the group has no tensor inputs"
    return specs, device, None


def _make_run(group: FusionGroup) -> Callable[..., Any]:
    """The per-call function of a group, written for its number and kinds of inputs."""
    n = len(group.tensor_inputs)
    params = [f"a{i}" for i in range(n)]
    lines = [f"def run({', '.join(params)}):"]
    key_parts = []
    for i, is_tensor in enumerate(group.tensor_inputs):
        if is_tensor:
            lines.append(f"        d{i} = a{i}._data")
            key_parts += [f"d{i}.__class__", f"d{i}.dtype", f"d{i}.shape", f"d{i}.strides"]
        else:
            key_parts.append(f"type(a{i})")
    args = ", ".join(params)
    key = "(" + ", ".join(key_parts) + ("," if len(key_parts) == 1 else "") + ")"
    lines.insert(1, "    try:")
    lines.append(f"        key = {key}")
    lines += [
        "    except AttributeError:",  # an input that is not what the group was built for
        f"        key = _key(({args}{',' if n == 1 else ''}))",
        "    kernel = _get(key)",
        "    if kernel is None:",
        f"        kernel = _miss(key, ({args}{',' if n == 1 else ''}))",
        f"    out = kernel({args})",
        "    if out is None:",
        f"        return _failed(key, ({args}{',' if n == 1 else ''}))",
        "    return out",
    ]
    namespace: dict[str, Any] = {
        "_get": group.cache.get,
        "_miss": group.miss,
        "_failed": group.kernel_failed,
        "_key": group.key,
    }
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<tsjit {group.name}>", "exec"), namespace)
    run = namespace["run"]
    run.group = group
    return run


_STATIC_SCALARS = (IntType, FloatType, BoolType)


def checked_specs(node: Node) -> list[Type] | None:
    """The input specs of a fusion group whose every tensor input comes from a check (a node
    tagged `Tag.type_check`, whose outputs have exactly their static types when they run) with
    a complete type and whose other inputs are ints, floats or bools; else None: a group
    reading only such values needs no per-call key."""
    specs: list[Type] = []
    for v in node.inputs:
        t = v.type
        if isinstance(t, TensorType):
            if Tag.type_check not in registry.tags_of(v.node) or not t.is_complete():
                return None
            specs.append(t.with_requires_grad(False))
        elif isinstance(t, _STATIC_SCALARS):
            specs.append(t)
        else:
            return None
    return specs


def _make_checked_run(group: FusionGroup, specs: list[Type]) -> Callable[..., Any]:
    """The per-call function of a group behind checks: one kernel, compiled for the checked
    types on the first call (the profiling executor's kernels specialized to profiled shapes)."""
    key = ("checked",)
    kernel: Callable[..., Any] | None = None

    def run(*args: Any) -> Any:
        nonlocal kernel
        if kernel is None:
            kernel = group.cache[key] = group.prepare_specs(specs)
        out = kernel(*args)
        if out is None:
            return group.kernel_failed(key, args)
        return out

    run.group = group  # type: ignore[attr-defined]
    return run


@implement_factory("prim::FusionGroup")
def fusion_group(node: Node) -> Callable[..., Any]:
    """The operation of a `prim::FusionGroup` node (made once, when its Code is built)."""
    group = FusionGroup(node)
    specs = checked_specs(node)
    return _make_run(group) if specs is None else _make_checked_run(group, specs)
