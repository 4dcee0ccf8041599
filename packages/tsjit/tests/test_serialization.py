"""`tsjit.save`/`load` and `tsjit.jit.save`/`load`, as torch's names."""

from __future__ import annotations

import io

import numpy as np
import pytest
import tsjit as torch


def test_jit_save_and_load_with_extra_files(tmp_path) -> None:
    m = torch.jit.script(torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU()))
    path = tmp_path / "m.pt"
    torch.jit.save(m, str(path), _extra_files={"config.txt": "relu"})
    extra = {"config.txt": ""}
    loaded = torch.jit.load(str(path), _extra_files=extra)
    assert extra == {"config.txt": b"relu"}
    x = torch.randn(2, 3)
    assert np.array_equal(m(x).detach().numpy(), loaded(x).detach().numpy())
    buf = io.BytesIO()
    loaded.save(buf)  # ScriptModule.save
    assert np.array_equal(
        torch.jit.load(io.BytesIO(buf.getvalue()))(x).detach().numpy(), m(x).detach().numpy()
    )


def test_save_and_load_a_state_dict() -> None:
    m = torch.nn.Linear(3, 2)
    buf = io.BytesIO()
    torch.save(m.state_dict(), buf)
    state = torch.load(io.BytesIO(buf.getvalue()), weights_only=True)
    assert list(state) == ["weight", "bias"]
    fresh = torch.nn.Linear(3, 2)
    fresh.load_state_dict(state)
    assert np.array_equal(fresh.weight.detach().numpy(), m.weight.detach().numpy())


def test_jit_save_refuses_plain_values() -> None:
    from ts_serialize import SaveError

    with pytest.raises(SaveError, match=r"tsjit\.save"):
        torch.jit.save({"x": torch.ones(1)}, io.BytesIO())


def test_convert_command(tmp_path, capsys) -> None:
    from tsjit.cli import main

    m = torch.jit.script(torch.nn.Linear(3, 2))
    source = tmp_path / "in.tsj"
    torch.jit.save(m, str(source), _extra_files={"a.txt": "x"})
    target = tmp_path / "out.tsj"
    assert main(["convert", str(source), str(target)]) == 0
    assert "8 parameters" in capsys.readouterr().out
    extra = {"a.txt": ""}
    converted = torch.jit.load(str(target), _extra_files=extra)
    assert extra == {"a.txt": b"x"}
    x = torch.randn(4, 3)
    assert np.array_equal(converted(x).detach().numpy(), m(x).detach().numpy())
    assert main(["convert", str(source), str(target)]) == 1  # exists: needs --force
    (tmp_path / "bad.pt").write_bytes(b"PK\x03\x04 not really a zip")
    assert main(["convert", str(tmp_path / "bad.pt"), str(tmp_path / "x.tsj")]) == 1
    assert "zip" in capsys.readouterr().err
