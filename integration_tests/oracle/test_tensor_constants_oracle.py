"""Tensor constants in IR text: tsjit prints them as PyTorch 2.13 prints them, and reads
PyTorch's text back into the same values."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

import ts_ir  # noqa: E402
import tsjit  # noqa: E402

SHAPES = [
    (2,),
    (3,),
    (5,),
    (10,),
    (2, 3),
    (3, 2),
    (1, 10),
    (2, 5),
    (2, 2, 2),
    (1, 2, 3),
    (0,),
    (2, 0),
]


def _pytorch_text(t) -> str:
    g = torch._C.Graph()
    g.registerOutput(g.insertConstant(t))
    return str(g)


def _random_tensors(seed: int):
    rng = random.Random(seed)
    for _ in range(40):
        shape = rng.choice(SHAPES)
        kind = rng.choice(["int", "bool", "normal", "big", "tiny", "wide", "double"])
        gen = torch.Generator().manual_seed(rng.randrange(1 << 30))
        if kind == "int":
            t = torch.randint(-1000, 1000, shape, generator=gen)
        elif kind == "bool":
            t = torch.randint(0, 2, shape, generator=gen).bool()
        elif kind == "double":
            t = torch.randn(shape, generator=gen, dtype=torch.float64)
        else:
            scale = {"normal": 1.0, "big": 1e7, "tiny": 1e-6, "wide": 1.0}[kind]
            t = torch.randn(shape, generator=gen) * scale
            if kind == "wide" and t.numel():
                t = t * torch.tensor(10.0) ** torch.randint(-9, 9, shape, generator=gen)
        yield t


@pytest.mark.parametrize("seed", range(5))
def test_tensor_constants_print_and_parse_as_pytorch(seed):
    for t in _random_tensors(seed):
        text = _pytorch_text(t)
        # tsjit prints a tensor of the same values as PyTorch does
        mine = ts_ir.Graph()
        mine.register_output(mine.insert_constant(tsjit.from_numpy(t.numpy().copy())))
        assert (
            re.sub(r"%\d+", "%0", str(mine)).split("= prim::Constant")[1]
            == text.split("= prim::Constant")[1]
        )
        # and reads PyTorch's text back: the same shape and dtype, values to the printed digits
        parsed = ts_ir.parse_ir(text)
        assert str(parsed) == text
        literal = parsed.outputs[0].node.attr("value")
        assert literal.shape == tuple(t.shape)
        want = t.double().numpy().reshape(-1)
        got = np.array(literal.values, dtype=np.float64)
        bound = max(1.0, float(np.abs(want).max())) if want.size else 1.0
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4 * bound)
