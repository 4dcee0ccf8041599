"""The profiling executor through the facade: the switches PyTorch programs call, and what
`graph_for` shows of the IoU function and the LSTM cell (profiled types, checks, fallbacks)."""

from __future__ import annotations

import numpy as np
import pytest
import tsjit as torch


@pytest.fixture
def profiling():
    previous = torch._C._jit_set_profiling_executor(True)
    yield
    torch._C._jit_set_profiling_executor(previous)


def test_the_torch_c_switches_return_what_was_set_before():
    previous = torch._C._jit_set_profiling_executor(True)
    try:
        assert torch._C._jit_set_profiling_executor(False) is True
        assert torch._C._jit_set_profiling_mode(True) is False
        assert torch.jit.set_profiling_executor(False) is True
        runs = torch._C._jit_get_num_profiled_runs()
        assert torch._C._jit_set_num_profiled_runs(3) == runs
        assert torch._C._jit_set_num_profiled_runs(runs) == 3
        depth = torch._C._jit_set_bailout_depth(5)
        assert torch._C._jit_set_bailout_depth(depth) == 5
    finally:
        torch._C._jit_set_profiling_executor(previous)


def iou(x1, y1, w1, h1, x2, y2, w2, h2):
    xi = torch.max(x1, x2)
    yi = torch.max(y1, y2)
    wi = torch.clamp(torch.min(x1 + w1, x2 + w2) - xi, min=0.0)
    hi = torch.clamp(torch.min(y1 + h1, y2 + h2) - yi, min=0.0)
    area_i = wi * hi
    area_u = w1 * h1 + w2 * h2 - area_i
    return area_i / torch.clamp(area_u, min=1e-5)


def lstm_cell(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh
    i, f, g, o = gates.chunk(4, 1)
    cy = torch.sigmoid(f) * cx + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(cy), cy


def test_the_iou_function_fuses_behind_a_type_check(profiling):
    pytest.importorskip("ts_fuser_cpu")
    scripted = torch.jit.script(iou)
    rng = np.random.default_rng(0)
    arrays = [rng.random((100, 1), dtype=np.float32) for _ in range(8)]
    boxes = [torch.from_numpy(a) for a in arrays]
    with torch.no_grad():
        graph = str(scripted.graph_for(*boxes))
        out = scripted(*boxes)
    np.testing.assert_allclose(out.numpy(), iou(*boxes).numpy(), rtol=1e-6)
    profiled = "Float(100, 1, strides=[1, 1], requires_grad=0, device=cpu)"
    check = graph.index("prim::TypeCheck[types=[" + profiled)
    assert graph.index("prim::If(") > check
    assert graph.index("prim::FusionGroup_0(") > check
    assert 'prim::Constant[name="fallback_function_0", fallback=1]()' in graph
    assert "prim::CallFunction(" in graph
    assert "prim::BailOut" not in graph  # every input check moved into the type check


def test_the_lstm_cell_has_bailouts_and_a_fused_group(profiling):
    pytest.importorskip("ts_fuser_cpu")
    scripted = torch.jit.script(lstm_cell)
    rng = np.random.default_rng(0)
    shapes = [(3, 8), (3, 8), (3, 8), (32, 8), (32, 8), (32,), (32,)]
    inputs = [torch.from_numpy(rng.standard_normal(s).astype(np.float32)) for s in shapes]
    with torch.no_grad():
        graph = str(scripted.graph_for(*inputs))
        hy, cy = scripted(*inputs)
    want_hy, want_cy = lstm_cell(*inputs)
    np.testing.assert_allclose(hy.numpy(), want_hy.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(cy.numpy(), want_cy.numpy(), rtol=1e-5, atol=1e-6)
    assert "Float(3, 8, strides=[8, 1], requires_grad=0, device=cpu) = prim::BailOut[index=0]" in (
        graph
    )
    assert "prim::FusionGroup" in graph
    assert "with prim::BailoutTemplate_0 = graph(" in graph  # what a bailout resumes in
