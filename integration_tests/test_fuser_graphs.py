"""The optimized graphs of the LSTM cell and the IoU function: one fusion group holds all pointwise work.

`graph_for` shows what a call runs. For the LSTM cell of PyTorch's JIT
overview, everything but the two matrix products (and the broadcast of the
biases to the gates' shape, which feeds the group's chunks) is in one
`prim::FusionGroup`; for the IoU function, everything is.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import ts_fuser_cpu  # noqa: F401
import ts_ir
import ts_runtime
from ts_ir import FileCheck

POINTWISE = ("aten::add", "aten::sub", "aten::mul", "aten::div", "aten::sigmoid", "aten::tanh",
             "aten::max", "aten::min", "aten::clamp", "aten::chunk", "prim::ConstantChunk")  # fmt: skip

CORPUS = Path(__file__).resolve().parent / "corpus"


def load_jsonl(name: str) -> list[dict]:
    with open(CORPUS / f"{name}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def function(name: str):
    (row,) = [r for r in load_jsonl("programs") if r["name"] == name]
    return ts_runtime.Function(name, ts_ir.parse_ir(row["inlined_graph"]))


def counts(text: str, expected: dict[str, int]) -> None:
    for op, n in expected.items():
        FileCheck().check_count(op + "(", n, exactly=True).check_not(op + "(").run(text)


def outer_and_group(text: str) -> tuple[str, str]:
    outer, sep, groups = text.partition("with prim::FusionGroup_0 = graph")
    assert sep, text
    return outer, groups


def test_lstm_cell_is_two_matmuls_and_one_fusion_group():
    rng = np.random.default_rng(0)

    def t(*shape):
        return ts_runtime.from_numpy(rng.standard_normal(shape).astype(np.float32))

    fn = function("lstm_cell")
    inputs = [t(64, 512), t(64, 512), t(64, 512), t(2048, 512), t(2048, 512), t(2048), t(2048)]
    text = str(fn.executor.graph_for(*inputs))
    outer, group = outer_and_group(text)
    checks = FileCheck().check_count("aten::mm", 2, exactly=True).check("prim::FusionGroup_0(")
    for op in POINTWISE:
        checks = checks.check_not(op)
    checks.check("return").run(outer)
    FileCheck().check_not("prim::FusionGroup_1").run(text)
    counts(
        group,
        {
            "prim::ConstantChunk[chunks=4, dim=1]": 4,
            "aten::add": 13,
            "aten::sigmoid": 3,
            "aten::tanh": 2,
            "aten::mul": 3,
        },
    )
    # and it runs fused
    hy, cy = fn(*inputs)
    assert hy.shape == (64, 512) and cy.shape == (64, 512)


def test_iou_is_one_fusion_group():
    fn = function("ratio_iou")
    inputs = [
        ts_runtime.from_numpy(np.random.default_rng(i).random((100, 100), dtype=np.float32))
        for i in range(8)
    ]
    text = str(fn.executor.graph_for(*inputs))
    outer, group = outer_and_group(text)
    checks = FileCheck().check("prim::FusionGroup_0(")
    for op in POINTWISE:
        checks = checks.check_not(op)
    checks.check("return").run(outer)
    FileCheck().check_not("prim::FusionGroup_1").run(text)
    counts(
        group,
        {
            "aten::max": 2,
            "aten::add": 5,
            "aten::min": 2,
            "aten::sub": 3,
            "aten::clamp": 3,
            "aten::mul": 3,
            "aten::div": 1,
        },
    )
