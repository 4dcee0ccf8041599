"""`tsjit doctor`: what this installation has, for bug reports and for "why is it slow?".

It prints the tsjit packages and the libraries they use, with versions and
where they are installed; the fusion backends (and the packages that would
provide the missing ones) with what each describes of itself; the kernel
caches on disk with their sizes; threads; and whether a GPU can be used.
Nothing is compiled or run.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from .term import Terminal

#: Libraries tsjit's packages build on (present or not), and the oracle.
LIBRARIES = ("numpy", "llvmlite", "msgpack", "pycuda", "torch")
#: Entry point groups through which packages extend tsjit.
PLUGIN_GROUPS = ("ts.fusers", "ts.operators")


def _is_tsjit_distribution(name: str) -> bool:
    return name == "tsjit" or name.startswith(("ts-", "ts_", "tsjit-", "tsjit_"))


def _where(dist: metadata.Distribution) -> str:
    """`editable <path>` for a development install, else the directory it is installed in."""
    try:
        import json

        direct = json.loads(dist.read_text("direct_url.json") or "{}")
    except ValueError:
        direct = {}
    url = direct.get("url", "")
    if direct.get("dir_info", {}).get("editable") and url.startswith("file://"):
        return "editable " + url.removeprefix("file://")
    try:
        return str(Path(str(dist.locate_file(""))).resolve())
    except Exception:  # a distribution without files on disk
        return "?"


def installed_packages() -> list[list[str]]:
    """[name, version, where] for each installed tsjit package, by name."""
    seen: dict[str, metadata.Distribution] = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or ""
        if _is_tsjit_distribution(name.lower()):
            seen.setdefault(name.lower(), dist)
    return [[name, seen[name].version, _where(seen[name])] for name in sorted(seen)]


def libraries() -> list[list[str]]:
    rows = []
    for name in LIBRARIES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "not installed"
        rows.append([name, version])
    return rows


def plugins() -> list[list[str]]:
    rows = []
    for group in PLUGIN_GROUPS:
        for ep in metadata.entry_points(group=group):
            dist = ep.dist.name if ep.dist is not None else "?"
            rows.append([group, ep.name, ep.value, dist])
    return rows


def _size(path: Path) -> str:
    """`N files, X MB` under a directory (`missing` when it does not exist)."""
    if not path.is_dir():
        return "not created yet"
    count = total = 0
    for p in path.rglob("*"):
        try:
            if p.is_file():
                count += 1
                total += p.stat().st_size
        except OSError:
            continue
    return f"{count} file{'s' if count != 1 else ''}, {_bytes(total)}"


def _bytes(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    raise AssertionError("unreachable")


def backends() -> tuple[list[list[str]], dict[str, Any]]:
    """Rows [device, backend, package] (missing ones named with the package that provides
    them), and what each registered backend describes of itself, by device."""
    from ts_passes import BACKEND_PACKAGES, fusion_backends

    rows = []
    described: dict[str, Any] = {}
    registered = {str(b.device): b for b in fusion_backends()}
    for device in sorted(set(registered) | set(BACKEND_PACKAGES)):
        backend = registered.get(device)
        if backend is None:
            provider = BACKEND_PACKAGES.get(device, "?")
            rows.append([device, "none", f"{provider} is not installed"])
            continue
        rows.append([device, type(backend).__name__, _package_of(type(backend).__module__)])
        describe = getattr(backend, "describe", None)
        if callable(describe):
            try:
                described[device] = dict(describe())
            except Exception as exc:  # a faulty backend must not stop the report
                described[device] = {"describe() failed": exc}
    return rows, described


def _package_of(module: str) -> str:
    """The distribution that installed a module (editable installs included)."""
    top = module.partition(".")[0]
    found = metadata.packages_distributions().get(top)
    if found:
        return found[0]
    try:
        return metadata.distribution(top.replace("_", "-")).metadata["Name"]
    except metadata.PackageNotFoundError:
        return top


def gpu() -> list[list[str]]:
    import tsjit

    rows = [
        ["tsjit.cuda.is_available()", str(tsjit.cuda.is_available())],
        ["tsjit.cuda.device_count()", str(tsjit.cuda.device_count())],
    ]
    smi = shutil.which("nvidia-smi")
    if smi is None:
        rows.append(["NVIDIA driver", "nvidia-smi not found"])
    else:
        try:
            done = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=10)
            listed = done.stdout.strip().splitlines() or [done.stderr.strip() or "no GPU listed"]
        except (OSError, subprocess.SubprocessError) as exc:
            listed = [f"nvidia-smi failed: {exc}"]
        rows += [["GPU", line] for line in listed]
    return rows


def threads() -> list[list[str]]:
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    rows = [["CPU cores", f"{os.cpu_count()} ({usable} usable by this process)"]]
    for var in ("TS_JIT_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        if var in os.environ:
            rows.append([var, os.environ[var]])
    return rows


def _pairs(term: Terminal, rows: list[list[str]]) -> None:
    width = max((len(k) for k, _ in rows), default=0)
    for key, value in rows:
        term.write(f"    {key:<{width}}  {value}")


def run(term: Terminal) -> int:
    import ts_runtime

    term.write(term.style("tsjit doctor", "bold"))
    term.write(
        f"    Python {platform.python_version()} ({sys.executable}) on {platform.platform()}"
    )

    term.heading("tsjit packages")
    term.table(["package", "version", "installed"], installed_packages())
    term.heading("libraries")
    term.table(["library", "version"], libraries())
    found = plugins()
    if found:
        term.heading("plugins (entry points)")
        term.table(["group", "name", "object", "package"], found)

    term.heading("fusion")
    rows, described = backends()
    chosen = os.environ.get("TS_JIT_FUSER")
    term.table(["device", "backend", "package"], rows)
    term.write()
    details = [
        ["fuser in use", ts_runtime.get_fuser() + (f" (TS_JIT_FUSER={chosen})" if chosen else "")]
    ]
    details += [
        [f"{device}: {key}", str(value)]
        for device, info in described.items()
        for key, value in info.items()
        if key != "threads" and not isinstance(value, Path)
    ]
    _pairs(term, details)

    term.heading("kernel caches")
    caches = [
        [device, str(value), _size(Path(value))]
        for device, info in described.items()
        for key, value in info.items()
        if isinstance(value, Path)
    ]
    if caches:
        term.table(["backend", "directory", "holds"], caches)
    else:
        term.write("    none: no installed backend keeps kernels on disk")

    term.heading("threads")
    thread_rows = threads()
    for device, info in described.items():
        if "threads" in info:
            thread_rows.append([f"{device} fused kernels", str(info["threads"])])
    _pairs(term, thread_rows)

    term.heading("GPU")
    _pairs(term, gpu())
    return 0
