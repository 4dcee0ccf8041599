"""Security drills for `.pt` loading: hostile pickles, lying storages, zip bombs, mutants.

- A pickle naming `os.system`, `builtins.eval`, `subprocess.Popen` or any global
  outside TorchScript's set is refused with the global's name, and a canary
  file shows the payload did not run (while Python's own pickle does run it).
- A 1.6 KB archive whose storage declares 226 GB is refused without allocating.
- Zip bombs (an entry inflating far past what it declares, or declaring more
  than the limits) are refused with bounded memory.
- `TSJIT_FUZZ_CASES` mutants (500 by default, 10,000 in `nox -s archive_fuzz`) of
  PyTorch-written archives raise only `ArchiveError`s.
"""

from __future__ import annotations

import io
import os
import random
import struct
import subprocess
import sys
import tracemalloc
import zipfile
import zlib
from pathlib import Path

import pytest
import ts_serialize
from archive_mutation import campaign, from_bytes
from ts_serialize import ArchiveError, ForbiddenGlobalError, UnsupportedArchiveError
from ts_serialize.torch_archive.unpickler import RestrictedUnpickler

ARCHIVES = Path(__file__).parent / "torch_archives" / "torch-2.14.1"
CASES = int(os.environ.get("TSJIT_FUZZ_CASES", "500"))

CODE = """\
class M(Module):
  __parameters__ = []
  __buffers__ = ["w", ]
  w : Tensor
  training : bool
  def forward(self: __torch__.M,
    x: Tensor) -> Tensor:
    return torch.add(x, self.w)
"""


def _unicode(s: str) -> bytes:
    data = s.encode()
    return b"X" + struct.pack("<I", len(data)) + data


def tensor_pickle(numel: int, shape: tuple[int, ...]) -> bytes:
    """TorchScript's pickle of a float tensor over storage data/0 (as torch.jit.save writes)."""
    dims = b"(" + b"".join(b"\x8a\x08" + struct.pack("<q", d) for d in shape) + b"t"
    strides = b"(" + b"".join(b"K\x01" for _ in shape) + b"t"
    return (
        b"ctorch._utils\n_rebuild_tensor_v2\n("
        + b"("
        + _unicode("storage")
        + b"ctorch\nFloatStorage\n"
        + _unicode("0")
        + _unicode("cpu")
        + b"\x8a\x08"
        + struct.pack("<q", numel)
        + b"tQ"
        + b"K\x00"
        + dims
        + strides
        + b"\x89ccollections\nOrderedDict\n)Rt"
        + b"R"
    )


def module_pickle(w: bytes) -> bytes:
    """`__torch__.M` with attributes w (the given value program) and training."""
    return b"\x80\x02c__torch__\nM\n)\x81}(" + _unicode("w") + w + _unicode("training") + b"\x88ub."


def pt_archive(data_pkl: bytes, *, storage: bytes = b"\0" * 16, **extra: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("archive/version", "3\n")
        z.writestr("archive/code/__torch__.py", CODE, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("archive/constants.pkl", b"\x80\x02).")
        z.writestr("archive/data.pkl", data_pkl)
        z.writestr("archive/data/0", storage)
        for name, content in extra.items():
            z.writestr(f"archive/{name}", content)
    return buf.getvalue()


def load_bytes(data: bytes):
    return ts_serialize.load(io.BytesIO(data))


def test_a_handmade_archive_loads() -> None:
    import ts_runtime as torch

    m = load_bytes(pt_archive(module_pickle(tensor_pickle(4, (4,)))))
    assert m(torch.ones(4)).tolist() == [1.0, 1.0, 1.0, 1.0]


HOSTILE = {
    "os.system": lambda cmd: b"cos\nsystem\n" + _unicode(cmd) + b"\x85R",
    "builtins.eval": lambda cmd: (
        b"cbuiltins\neval\n" + _unicode(f"__import__('os').system({cmd!r})") + b"\x85R"
    ),
    "subprocess.Popen": lambda cmd: (
        b"csubprocess\nPopen\n" + b"(" + _unicode("sh") + _unicode("-c") + _unicode(cmd) + b"l\x85R"
    ),
    "posix.system": lambda cmd: b"\x8c\x05posix\x8c\x06system\x93" + _unicode(cmd) + b"\x85R",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("place", ["data.pkl", "constants.pkl", "nested"])
def test_hostile_globals_are_refused_by_name_and_nothing_runs(tmp_path, name, place) -> None:
    canary = tmp_path / "canary"
    payload = HOSTILE[name](f"touch {canary}")
    if place == "data.pkl":
        data = pt_archive(b"\x80\x02" + payload + b".")
    elif place == "constants.pkl":
        data = pt_archive(module_pickle(tensor_pickle(4, (4,))))
        data = _replace_entry(data, "archive/constants.pkl", b"\x80\x02(" + payload + b"t.")
    else:  # inside the module's state, where a tensor should be
        data = pt_archive(module_pickle(payload))
    with pytest.raises(ForbiddenGlobalError) as info:
        load_bytes(data)
    assert info.value.global_name == name
    assert name in str(info.value)
    assert not canary.exists()


def test_the_payloads_are_live_under_pythons_pickle(tmp_path) -> None:
    """Control: Python's own unpickler runs the same bytes (in a child process)."""
    canary = tmp_path / "canary"
    program = b"\x80\x02" + HOSTILE["os.system"](f"touch {canary}") + b"."
    script = f"import pickle; pickle.loads({program!r})"
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    assert canary.exists()


def _replace_entry(data: bytes, name: str, content: bytes) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            body = content if info.filename == name else src.read(info.filename)
            out.writestr(info, body)
    return buf.getvalue()


def test_a_small_file_declaring_226_gb_is_refused_without_allocating() -> None:
    numel = 56_500_000_000  # float32: 226 GB
    data = pt_archive(module_pickle(tensor_pickle(numel, (numel,))))
    assert len(data) < 2000  # smaller still than the 1.6 KB file of PyTorch issue #185443
    tracemalloc.start()
    try:
        with pytest.raises(ArchiveError, match="declares 56500000000 float32 elements"):
            load_bytes(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 << 20


def test_a_tensor_reaching_past_its_storage_is_refused() -> None:
    with pytest.raises(ArchiveError, match="needs storage element 9"):
        load_bytes(pt_archive(module_pickle(tensor_pickle(4, (10,)))))


def _deflated_entry(name: str, declared: int, payload: bytes) -> bytes:
    """A zip whose entry `name` holds `payload` deflated but declares `declared` bytes."""
    base = pt_archive(module_pickle(tensor_pickle(4, (4,))))
    src = zipfile.ZipFile(io.BytesIO(base))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            if info.filename == name:
                continue
            out.writestr(info, src.read(info.filename))
    # append the bomb by hand so its declared size can lie
    compressed = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = compressed.compress(payload) + compressed.flush()
    raw = buf.getvalue()
    end = raw.rindex(b"PK\x05\x06")
    cd_size, cd_offset = struct.unpack_from("<II", raw, end + 12)
    entries = raw[cd_offset : cd_offset + cd_size]
    count = struct.unpack_from("<H", raw, end + 10)[0]
    fname = name.encode()
    crc = zlib.crc32(payload)
    local = struct.pack(
        "<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(body), declared, len(fname), 0
    )
    local_offset = cd_offset
    central = struct.pack(
        "<4sHHHHHHIIIHHHHHII",
        b"PK\x01\x02",
        20,
        20,
        0,
        8,
        0,
        0,
        crc,
        len(body),
        declared,
        len(fname),
        0,
        0,
        0,
        0,
        0,
        local_offset,
    )
    head = raw[:cd_offset] + local + fname + body
    directory = entries + central + fname
    eocd = struct.pack(
        "<4sHHHHIIH", b"PK\x05\x06", 0, 0, count + 1, count + 1, len(directory), len(head), 0
    )
    return head + directory + eocd


def test_zip_bombs_are_bounded() -> None:
    bomb = b"\0" * (80 << 20)  # 80 MB of zeros: about 80 KB deflated
    tracemalloc.start()
    try:
        # an entry that declares 1 KB but inflates to 80 MB: inflation stops after 1 KB + 1
        with pytest.raises(ArchiveError, match="inflates to more than the 1024 bytes"):
            load_bytes(_deflated_entry("archive/code/__torch__.py", 1024, bomb))
        lying_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        # an entry that honestly declares 80 MB of code: refused before inflating
        with pytest.raises(ArchiveError, match="more than the limit"):
            load_bytes(_deflated_entry("archive/code/__torch__.py", len(bomb), bomb))
        honest_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert lying_peak < 8 << 20 and honest_peak < 8 << 20


def test_unsupported_but_legitimate_globals_say_so() -> None:
    qtensor = b"\x80\x02ctorch._utils\n_rebuild_qtensor\n)R."
    with pytest.raises(UnsupportedArchiveError, match="quantized tensors"):
        load_bytes(pt_archive(qtensor))
    bf16 = tensor_pickle(4, (4,)).replace(b"FloatStorage", b"BFloat16Storage")
    with pytest.raises(UnsupportedArchiveError, match="bfloat16"):
        load_bytes(pt_archive(module_pickle(bf16)))


def test_the_pickle_machine_refuses_opcodes_torchscript_never_writes() -> None:
    def run(program: bytes):
        return RestrictedUnpickler(
            program,
            name="p",
            resolve_global=lambda ref, where: (_ for _ in ()).throw(AssertionError),
        ).load()

    assert run(b"\x80\x02(K\x01K\x02t.") == (1, 2)
    for program, message in [
        (b"\x80\x02cos\nsystem\n\x85.", None),
        (b"\x80\x02i__main__\nX\n.", "INST"),
        (b"\x80\x02(K\x01o.", "OBJ"),
        (b"\x80\x02\x82\x01.", "EXT1"),
        (b"\x80\x02K\x01", "without STOP"),
        (b"\x80\x02X\xff\xff\xff\x7f", "more bytes"),
        (b"\x80\x02\x8b\x00\x00\x01\x00" + b"\x01" * 64, "64 bits"),
        (b"\x80\x02h\x05.", "never set"),
        (b"\x80\x02]q\x00h\x00a.", None),  # a list containing itself is allowed here ...
    ]:
        if message is None:
            continue
        with pytest.raises(ArchiveError, match=message):
            run(program)


def test_self_containing_values_are_refused_when_used() -> None:
    cyclic = b"]q\x00h\x00a"  # a list that contains itself
    with pytest.raises(ArchiveError, match="nested deeper"):
        load_bytes(pt_archive(module_pickle(cyclic)))


def test_shared_structure_cannot_blow_up() -> None:
    # L0 = [1]; L(k+1) = [Lk, Lk]: 2**40 leaves from a few hundred bytes
    program = b"]K\x01aq\x000"
    for k in range(40):
        program += b"]h" + bytes([k]) + b"ah" + bytes([k]) + b"aq" + bytes([k + 1]) + b"0"
    program += b"h" + bytes([40])
    with pytest.raises(ArchiveError, match=r"nested deeper|too large"):
        load_bytes(pt_archive(module_pickle(program)))


def zip_structured(rng: random.Random, data: bytes) -> bytes:
    """An entry's content mutated and the zip rewritten, CRCs valid, so parsers see the damage."""
    src = zipfile.ZipFile(io.BytesIO(data))
    infos = src.infolist()
    target = rng.choice([i for i in infos if not i.filename.endswith("debug_pkl")])
    body = bytearray(src.read(target.filename))
    if body:
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(body))
            r = rng.random()
            if r < 0.5:
                body[i] = rng.randrange(256)
            elif r < 0.75:
                del body[i : i + rng.randint(1, 8)]
                if not body:
                    break
            else:
                body[i:i] = bytes([rng.randrange(256)])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for info in infos:
            out.writestr(info, bytes(body) if info is target else src.read(info.filename))
    return buf.getvalue()


def test_mutated_pytorch_archives_raise_only_archive_errors() -> None:
    names = ["mlp_scripted", "holds_class", "attributes", "cnn_traced", "script_methods"]
    seeds = [(ARCHIVES / f"{n}.pt").read_bytes() for n in names]
    load = from_bytes(ts_serialize.load)
    for data in seeds:
        load(data)
    outcome = campaign(seeds, CASES, load, (ArchiveError,), structured=zip_structured, seed=1)
    print(f"\n{CASES} mutated .pt archives: {outcome.summary()}")
    assert not outcome.failures, "\n".join(outcome.failures[:10])


def _archive_with_code(
    code: str, *, version: str = "3", extra_entries: dict[str, bytes] | None = None
) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("archive/version", version + "\n")
        z.writestr("archive/code/__torch__.py", code, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("archive/data.pkl", module_pickle(tensor_pickle(4, (4,))))
        z.writestr("archive/data/0", b"\0" * 16)
        for name, content in (extra_entries or {}).items():
            z.writestr(f"archive/{name}", content)
    return buf.getvalue()


def test_unsupported_operators_and_constructs_are_named_with_their_place() -> None:
    code = CODE.replace("torch.add(x, self.w)", "torch.no_such_op(x, self.w)")
    with pytest.raises(UnsupportedArchiveError, match=r"aten::no_such_op.*code/__torch__\.py:8"):
        load_bytes(_archive_with_code(code))
    code = CODE + "class Color(Enum):\n  RED = 1\n"
    with pytest.raises(UnsupportedArchiveError, match="an Enum"):
        load_bytes(_archive_with_code(code))
    code = CODE.replace("return torch.add(x, self.w)", "return [y for y in x]")
    with pytest.raises(UnsupportedArchiveError, match=r"does not compile.*code/__torch__\.py"):
        load_bytes(_archive_with_code(code))


def test_the_1x_layout_loads() -> None:
    """What PyTorch 1.x archives add: `op_version_set` and import lines, no byteorder record,
    no constants.pkl, version 2."""
    import ts_runtime as torch

    code = "op_version_set = 2\nimport __torch__\nfrom typing import List\n" + CODE.replace(
        '__buffers__ = ["w", ]', '__buffers__ = ["w", ]'
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("model/version", "2\n")
        z.writestr("model/code/__torch__.py", code)
        z.writestr("model/data.pkl", module_pickle(tensor_pickle(4, (4,))))
        z.writestr("model/data/0", struct.pack("<4f", 1, 2, 3, 4))
    m = load_bytes(buf.getvalue())
    assert m(torch.ones(4)).tolist() == [2.0, 3.0, 4.0, 5.0]


def test_model_json_archives_are_refused_with_a_reason() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("model/model.json", "{}")
        z.writestr("model/version", "1\n")
    with pytest.raises(UnsupportedArchiveError, match=r"model\.json layout"):
        load_bytes(buf.getvalue())
