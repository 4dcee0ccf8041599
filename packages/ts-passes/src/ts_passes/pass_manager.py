"""The pass manager: passes by name, so `ts-opt` and pipelines can run them on any graph.

    run_passes(graph, ["constant-propagation", "dce", "cse"])   # True if any changed the graph
    run_passes(graph, names, verify_each=True)   # lint after each pass

A pass that raises (or, verifying, leaves a graph that does not lint) is
reported as `PassFailedError` naming the pass; a pass must return a bool.

Names are accepted with underscores or dashes (`constant_propagation`,
`constant-propagation`), and each pass has its TorchScript short name too
(`dce`, `cse`). `register_pass` adds a pass of one's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ts_ir import Graph, TorchScriptError

from .errors import PassFailedError, UnknownPassError
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


_builtins_loaded = False


def _ensure_builtins() -> None:
    # a flag, not "is the table empty": a pass registered before the first look-up
    # must not hide the built-in ones
    global _builtins_loaded
    if _builtins_loaded:
        return
    _builtins_loaded = True
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


def run_pass(graph: Graph, name: str, *, verify: bool = False) -> bool:
    """Run one pass by name; True if it changed the graph.

    An error the pass raises comes back as `PassFailedError` naming the pass (the error
    itself is its `__cause__`); with `verify`, the graph is linted afterwards and a
    malformed one is a `PassFailedError` too.
    """
    return _run(graph, get_pass(name), verify=verify)


def _run(graph: Graph, info: PassInfo, *, verify: bool) -> bool:
    try:
        changed = info.fn(graph)
    except PassFailedError:
        raise
    except Exception as exc:  # any failure of a pass, typed or not, says which pass it was
        raise PassFailedError(info.name, f"failed: {type(exc).__name__}: {exc}") from exc
    if not isinstance(changed, bool):
        raise PassFailedError(info.name, f"returned {changed!r}, not whether it changed the graph")
    log.debug("%s: %s", info.name, "changed the graph" if changed else "no change")
    if verify:
        try:
            graph.lint()
        except TorchScriptError as exc:
            raise PassFailedError(info.name, f"left a malformed graph: {exc}") from exc
    return changed


def run_passes(graph: Graph, names: Iterable[str], *, verify_each: bool = False) -> bool:
    """Run the named passes in order; True if any changed the graph. Unknown names raise
    `UnknownPassError` before anything runs; a failing pass is a `PassFailedError` that
    names it; `verify_each` lints the graph after every pass."""
    infos = [get_pass(n) for n in names]
    changed = False
    for info in infos:
        changed |= _run(graph, info, verify=verify_each)
    return changed
