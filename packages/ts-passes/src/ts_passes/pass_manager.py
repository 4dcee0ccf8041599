"""The pass manager: passes by name, so `ts-opt` and pipelines can run them on any graph.

    run_passes(graph, ["constant-propagation", "dce", "cse"])   # True if any changed the graph

Names are accepted with underscores or dashes (`constant_propagation`,
`constant-propagation`), and each pass has its TorchScript short name too
(`dce`, `cse`). `register_pass` adds a pass of one's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ts_ir import Graph

from .errors import UnknownPassError
from .jit_log import PassLogger

log = PassLogger(__name__)

PassFn = Callable[[Graph], bool]


@dataclass(frozen=True)
class PassInfo:
    name: str
    fn: PassFn
    description: str
    aliases: tuple[str, ...] = ()


_passes: dict[str, PassInfo] = {}
_by_alias: dict[str, str] = {}


def normalize_pass_name(name: str) -> str:
    return name.strip().replace("-", "_").lower()


def register_pass(
    name: str, fn: PassFn, description: str = "", *, aliases: Iterable[str] = ()
) -> PassInfo:
    """Make `fn(graph) -> bool` runnable by `name` (and its aliases)."""
    key = normalize_pass_name(name)
    info = PassInfo(
        key, fn, description or (fn.__doc__ or "").strip().splitlines()[0], tuple(aliases)
    )
    _passes[key] = info
    _by_alias[key] = key
    for a in aliases:
        _by_alias[normalize_pass_name(a)] = key
    return info


def _ensure_builtins() -> None:
    if _passes:
        return
    from . import builtin_passes

    builtin_passes.register_builtin_passes()


def get_pass(name: str) -> PassInfo:
    _ensure_builtins()
    key = _by_alias.get(normalize_pass_name(name))
    if key is None:
        raise UnknownPassError(name, pass_names())
    return _passes[key]


def pass_names() -> list[str]:
    _ensure_builtins()
    return sorted(_passes)


def passes() -> list[PassInfo]:
    _ensure_builtins()
    return [_passes[k] for k in sorted(_passes)]


def run_pass(graph: Graph, name: str) -> bool:
    info = get_pass(name)
    changed = info.fn(graph)
    log.debug("%s: %s", info.name, "changed the graph" if changed else "no change")
    return bool(changed)


def run_passes(graph: Graph, names: Iterable[str]) -> bool:
    """Run the named passes in order; True if any changed the graph. Unknown names raise
    `UnknownPassError` before anything runs."""
    infos = [get_pass(n) for n in names]
    changed = False
    for info in infos:
        changed |= bool(info.fn(graph))
    return changed
