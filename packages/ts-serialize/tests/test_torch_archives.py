"""TorchScript `.pt` archives written by PyTorch 2.14.1, loaded without PyTorch.

The archives and the outputs `torch.jit.load` gave for them are committed
under torch_archives/ (see its README). Every archive must load (its code
compiles, its pickles are read by the restricted machine); running it must
give PyTorch's outputs.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import ts_runtime as torch
import ts_serialize

HERE = Path(__file__).parent / "torch_archives"
OTHER = HERE / "torch-2.14.1"
NAMES = sorted(p.stem for p in OTHER.glob("*.pt"))


def recorded(path: Path) -> tuple[list[Any], list[np.ndarray]]:
    data = np.load(path.with_suffix(".npz"), allow_pickle=False)
    inputs = sorted((k for k in data.files if k.startswith("input")), key=_index)
    outputs = sorted((k for k in data.files if k.startswith("output")), key=_index)
    return [torch.from_numpy(data[k].copy()) for k in inputs], [data[k] for k in outputs]


def _index(key: str) -> list[int]:
    return [int(p) for p in key.split(".")[1:]]


def flatten(value: Any) -> list[np.ndarray]:
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flatten(v)]
    if isinstance(value, torch.Tensor):
        return [value.detach().numpy()]
    return [np.asarray(value)]


def check_outputs(module: Any, path: Path) -> None:
    inputs, expected = recorded(path)
    with torch.no_grad():
        got = flatten(module(*inputs))
    assert len(got) == len(expected)
    for a, b in zip(got, expected, strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
        assert np.allclose(a, b, rtol=1e-4, atol=1e-5), f"max difference {np.abs(a - b).max()}"


def test_the_archives_are_committed() -> None:
    assert len(NAMES) >= 12
    assert (OTHER / "TORCH_VERSION").read_text().startswith("2.14.1")


@pytest.mark.parametrize("name", NAMES)
def test_archives_from_pytorch_2_14_load_and_give_its_outputs(name: str) -> None:
    path = OTHER / f"{name}.pt"
    module = ts_serialize.load(path)
    assert isinstance(module, torch.ScriptModule)
    check_outputs(module, path)


def test_script_methods_and_class_instances_are_kept() -> None:
    m = ts_serialize.load(OTHER / "script_methods.pt")
    x = torch.randn(2, 4)
    assert np.allclose(m.project(x).detach().numpy(), x.mm(m.weight).detach().numpy())
    h = ts_serialize.load(OTHER / "holds_class.pt")
    assert h.mean._type.qualified_name.endswith("RunningMean") and h.mean.count == 0
    h(torch.ones(3))
    assert h.mean.count == 2  # the class's method updated its state


def test_attributes_of_every_kind() -> None:
    m = ts_serialize.load(OTHER / "attributes.pt")
    assert m.names == ["a", "bb"] and m.sizes == [2, 3] and m.table == {"x": 1.5, "y": -2.0}
    assert m.pair == (7, "seven") and m.maybe is None and m.flag is True
    assert (
        m.steps.tolist() == [[0, 1, 2], [3, 4, 5]] and dict(m.named_buffers())["steps"] is m.steps
    )


def test_extra_files_are_returned_as_bytes() -> None:
    extra = {"config.json": "", "notes/readme.txt": "", "missing.txt": "x"}
    ts_serialize.load(OTHER / "extra_files.pt", extra_files=extra)
    assert extra == {
        "config.json": b'{"classes": 4}',
        "notes/readme.txt": b"saved with extra files",
        "missing.txt": b"",  # as torch.jit.load fills names the archive lacks
    }


def test_parameters_are_memory_mapped_views_of_the_file() -> None:
    m = ts_serialize.load(OTHER / "cnn_scripted.pt")
    w = m.head.weight.detach().numpy()
    base = w
    while isinstance(base.base, np.ndarray):
        base = base.base
    assert isinstance(base.base, memoryview)  # a view of the mapped file, not a copy


def _classes(module: Any) -> dict[str, Any]:
    """Every object of a compiled class reachable from `module`, by qualified class name."""
    out: dict[str, Any] = {}
    stack = [module]
    while stack:
        obj = stack.pop()
        q = obj._type.qualified_name
        if q in out:
            continue
        out[q] = obj
        stack.extend(
            v
            for v in obj.__dict__.values()
            if isinstance(getattr(v, "_type", None), type(obj._type))
        )
    return out


@pytest.mark.parametrize("name", NAMES)
def test_converting_to_a_tsjit_archive_keeps_every_graph(tmp_path: Path, name: str) -> None:
    """PyTorch's printed code, compiled by tsjit, printed again, compiled again: same graphs."""
    path = OTHER / f"{name}.pt"
    m = ts_serialize.load(path)
    ts_serialize.save(m, tmp_path / "m.tsj")
    converted = ts_serialize.load(tmp_path / "m.tsj")
    before, after = _classes(m), _classes(converted)
    assert sorted(before) == sorted(after)
    for q, obj in before.items():
        for method in obj._type.methods:
            difference = ts_serialize.graph_difference(
                obj.method(method).graph, after[q].method(method).graph
            )
            assert difference is None, f"{q}.{method}: {difference}"
    check_outputs(converted, path)


def test_archives_from_another_pytorch(tmp_path: Path) -> None:
    """Regenerate the archives with another PyTorch (2.14.1 or 2.9.1) and load them."""
    python = os.environ.get("TSJIT_OTHER_TORCH_PYTHON")
    if not python:
        pytest.skip("set TSJIT_OTHER_TORCH_PYTHON to an interpreter with another PyTorch")
    out = tmp_path / "archives"
    subprocess.run([python, str(HERE / "make_archives.py"), str(out)], check=True, timeout=900)
    version = (out / "TORCH_VERSION").read_text().strip()
    assert not version.startswith("2.13"), "the point is another version than the oracle's"
    for path in sorted(out.glob("*.pt")):
        module = ts_serialize.load(path)
        check_outputs(module, path)
    if os.environ.get("TSJIT_UPDATE_ARCHIVES") and version.startswith("2.14.1"):
        for path in out.iterdir():
            (OTHER / path.name).write_bytes(path.read_bytes())
