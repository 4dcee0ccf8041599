"""The fused layers that scripted nn modules call: `aten::lstm` and `aten::gru` (padded `.input`
and packed `.data`), `aten::_native_multi_head_attention` and
`aten::_transformer_encoder_layer_fwd`.

Each case is checked against PyTorch (oracle tests), against PyTorch's results recorded in
recorded/fused_layers.npz (no torch needed; regenerate with TSJIT_UPDATE_RECORDED=1 and the
oracle test `test_the_recorded_results_are_pytorchs`), and the recurrent gradients against
PyTorch's and against central finite differences.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime import TensorError

RECORDED = Path(__file__).parent / "recorded" / "fused_layers.npz"

# (mode, layers, bidirectional, batch_first, bias, proj_size, initial state given)
RNN_CASES = [
    ("LSTM", 1, False, False, True, 0, False),
    ("LSTM", 2, True, True, True, 0, True),
    ("LSTM", 2, False, False, False, 0, True),
    ("LSTM", 1, True, False, True, 3, True),
    ("LSTM", 2, True, True, False, 2, False),
    ("GRU", 1, False, False, True, 0, False),
    ("GRU", 2, True, True, True, 0, True),
    ("GRU", 2, True, False, False, 0, True),
    ("GRU", 1, False, True, False, 0, True),
]
# (mode, layers, bidirectional, proj_size, batch sizes per step)
PACKED_CASES = [
    ("LSTM", 1, False, 0, [3, 3, 2, 1]),
    ("LSTM", 2, True, 0, [3, 2, 2, 1, 1]),
    ("LSTM", 1, True, 2, [2, 2, 1]),
    ("GRU", 1, False, 0, [3, 3, 2, 1]),
    ("GRU", 2, True, 0, [3, 2, 2, 1, 1]),
]
# (embed_dim, heads, use_gelu, norm_first, mask kind)
LAYER_CASES = [
    (8, 2, False, False, None),
    (8, 2, True, True, None),
    (16, 2, True, False, None),  # 8 per head without a mask: PyTorch's flash-attention path
    (8, 2, False, False, "causal"),
    (8, 4, True, True, "padding"),
    (8, 2, False, True, "merged"),
    (16, 2, False, False, "padding"),
]
# (embed_dim, heads, cross attention, need_weights, average_attn_weights, mask kind)
MHA_CASES = [
    (8, 2, False, True, True, None),
    (8, 2, True, True, False, None),
    (8, 4, True, True, True, "padding"),
    (8, 2, False, False, True, "causal"),
    (12, 3, False, True, False, "merged"),
    (8, 2, False, True, False, "blank"),  # a sequence with every key masked: NaN, as PyTorch
]

INPUT, HIDDEN, STEPS, BATCH = 4, 5, 6, 3


def rnn_ids(cases: list[tuple]) -> list[str]:
    return ["-".join(str(v).replace(" ", "") for v in c) for c in cases]


# ---------------------------------------------------------------------------
# Inputs, from a seeded numpy generator (the recorded results depend on them)


def _params(
    rng: np.random.Generator, mode: str, layers: int, directions: int, bias: bool, proj: int
) -> list[np.ndarray]:
    gates = 4 if mode == "LSTM" else 3
    out = proj or HIDDEN
    params = []
    for layer in range(layers):
        width = INPUT if layer == 0 else directions * out
        for _ in range(directions):
            params.append(rng.standard_normal((gates * HIDDEN, width)) * 0.4)
            params.append(rng.standard_normal((gates * HIDDEN, out)) * 0.4)
            if bias:
                params.append(rng.standard_normal(gates * HIDDEN) * 0.4)
                params.append(rng.standard_normal(gates * HIDDEN) * 0.4)
            if proj:
                params.append(rng.standard_normal((proj, HIDDEN)) * 0.4)
    return [p.astype(np.float32) for p in params]


def _states(
    rng: np.random.Generator, mode: str, count: int, batch: int, proj: int, given: bool
) -> list[np.ndarray]:
    shapes = [(count, batch, proj or HIDDEN)] + ([(count, batch, HIDDEN)] if mode == "LSTM" else [])
    make = rng.standard_normal if given else np.zeros
    return [np.asarray(make(s), dtype=np.float32) for s in shapes]


def rnn_inputs(index: int) -> dict[str, Any]:
    mode, layers, bi, batch_first, bias, proj, given = RNN_CASES[index]
    rng = np.random.default_rng(100 + index)
    directions = 2 if bi else 1
    shape = (BATCH, STEPS, INPUT) if batch_first else (STEPS, BATCH, INPUT)
    x = rng.standard_normal(shape).astype(np.float32)
    states = _states(rng, mode, layers * directions, BATCH, proj, given)
    params = _params(rng, mode, layers, directions, bias, proj)
    args = (bias, layers, 0.0, False, bi, batch_first)
    return {"mode": mode, "x": x, "states": states, "params": params, "args": args}


def packed_inputs(index: int) -> dict[str, Any]:
    mode, layers, bi, proj, sizes = PACKED_CASES[index]
    rng = np.random.default_rng(200 + index)
    directions = 2 if bi else 1
    data = rng.standard_normal((sum(sizes), INPUT)).astype(np.float32)
    states = _states(rng, mode, layers * directions, sizes[0], proj, True)
    params = _params(rng, mode, layers, directions, True, proj)
    return {
        "mode": mode,
        "data": data,
        "sizes": np.array(sizes, dtype=np.int64),
        "states": states,
        "params": params,
        "args": (True, layers, 0.0, False, bi),
    }


def _mask(rng: np.random.Generator, kind: str | None, b: int, h: int, t: int) -> Any:
    """(mask, mask_type) as nn.TransformerEncoderLayer's fast path passes them."""
    if kind is None:
        return None, None
    if kind == "causal":
        return np.triu(np.ones((t, t), dtype=bool), 1), 0
    if kind in ("padding", "blank"):
        mask = np.zeros((b, t), dtype=bool)
        mask[0, t - 2 :] = True
        if kind == "blank":
            mask[1] = True
        return mask, 1
    # nn.MultiheadAttention.merge_masks: float attention mask plus float padding mask
    attn = np.where(rng.random((t, t)) < 0.3, -np.inf, 0.0).astype(np.float32)
    np.fill_diagonal(attn, 0.0)
    padding = np.zeros((b, 1, 1, t), dtype=np.float32)
    padding[-1, ..., t - 1] = -np.inf
    return np.broadcast_to(attn, (b, h, t, t)) + padding, 2


def layer_inputs(index: int) -> dict[str, Any]:
    e, h, gelu, norm_first, kind = LAYER_CASES[index]
    rng = np.random.default_rng(300 + index)
    b, t, f = 2, 5, 3 * e

    def w(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.3).astype(np.float32)

    tensors = [
        w(b, t, e),
        w(3 * e, e),
        w(3 * e),
        w(e, e),
        w(e),
        1 + w(e),
        w(e),
        1 + w(e),
        w(e),
        w(f, e),
        w(f),
        w(e, f),
        w(e),
    ]
    mask, mask_type = _mask(rng, kind, b, h, t)
    return {"tensors": tensors, "e": e, "h": h, "gelu": gelu, "norm_first": norm_first,
            "mask": mask, "mask_type": mask_type}  # fmt: skip


def mha_inputs(index: int) -> dict[str, Any]:
    e, h, cross, need, average, kind = MHA_CASES[index]
    rng = np.random.default_rng(400 + index)
    b, t = 2, 5
    q = rng.standard_normal((b, t, e)).astype(np.float32)
    k = rng.standard_normal((b, t, e)).astype(np.float32) if cross else q
    v = rng.standard_normal((b, t, e)).astype(np.float32) if cross else q
    weights = [(rng.standard_normal(shape) * 0.3).astype(np.float32)
               for shape in ((3 * e, e), (3 * e,), (e, e), (e,))]  # fmt: skip
    mask, mask_type = _mask(rng, kind, b, h, t)
    return {"qkv": [q, k, v], "weights": weights, "e": e, "h": h, "need": need,
            "average": average, "mask": mask, "mask_type": mask_type}  # fmt: skip


# ---------------------------------------------------------------------------
# Running a case with either library (`lib` is ts_runtime or torch)


def _t(lib: Any, a: np.ndarray | None, requires_grad: bool = False) -> Any:
    if a is None:
        return None
    out = lib.from_numpy(np.ascontiguousarray(a).copy())
    return out.requires_grad_() if requires_grad else out


def run_rnn(lib: Any, case: dict[str, Any], grad: bool = False) -> tuple[list[Any], list[Any]]:
    """The op's outputs, and the leaves (input, states, params) it was given."""
    x = _t(lib, case["x"], grad)
    states = [_t(lib, s, grad) for s in case["states"]]
    params = [_t(lib, p, grad) for p in case["params"]]
    if case["mode"] == "LSTM":
        out = lib.lstm(x, states, params, *case["args"])
    else:
        out = lib.gru(x, states[0], params, *case["args"])
    return list(out), [x, *states, *params]


def run_packed(lib: Any, case: dict[str, Any]) -> list[Any]:
    data, sizes = _t(lib, case["data"]), _t(lib, case["sizes"])
    states = [_t(lib, s) for s in case["states"]]
    params = [_t(lib, p) for p in case["params"]]
    if case["mode"] == "LSTM":
        return list(lib.lstm(data, sizes, states, params, *case["args"]))
    return list(lib.gru(data, sizes, states[0], params, *case["args"]))


def run_layer(lib: Any, case: dict[str, Any]) -> list[Any]:
    src, qkv_w, qkv_b, proj_w, proj_b, *rest = (_t(lib, a) for a in case["tensors"])
    out = lib._transformer_encoder_layer_fwd(
        src, case["e"], case["h"], qkv_w, qkv_b, proj_w, proj_b, case["gelu"],
        case["norm_first"], 1e-5, *rest, _t(lib, case["mask"]), case["mask_type"],
    )  # fmt: skip
    return [out]


def run_mha(lib: Any, case: dict[str, Any]) -> list[Any]:
    q, k, v = (_t(lib, a) for a in case["qkv"])
    if case["qkv"][1] is case["qkv"][0]:
        k = v = q
    out, weights = lib._native_multi_head_attention(
        q, k, v, case["e"], case["h"], *(_t(lib, w) for w in case["weights"]),
        _t(lib, case["mask"]), case["need"], case["average"], case["mask_type"],
    )  # fmt: skip
    return [out] if weights is None else [out, weights]


def numpy_of(values: list[Any]) -> list[np.ndarray]:
    return [v.detach().numpy() for v in values]


def same(got: list[np.ndarray], want: list[np.ndarray], atol: float = 2e-5) -> None:
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=atol)


ALL = (
    [(f"rnn{i}", run_rnn, rnn_inputs, i) for i in range(len(RNN_CASES))]
    + [(f"packed{i}", run_packed, packed_inputs, i) for i in range(len(PACKED_CASES))]
    + [(f"layer{i}", run_layer, layer_inputs, i) for i in range(len(LAYER_CASES))]
    + [(f"mha{i}", run_mha, mha_inputs, i) for i in range(len(MHA_CASES))]
)


def _outputs(lib: Any, run: Any, case: dict[str, Any]) -> list[np.ndarray]:
    out = run(lib, case)
    return numpy_of(out[0] if run is run_rnn else out)


# ---------------------------------------------------------------------------
# Against PyTorch


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(RNN_CASES)), ids=rnn_ids(RNN_CASES))
def test_padded_recurrent_layers_give_pytorchs_outputs(index: int) -> None:
    torch = pytest.importorskip("torch")
    case = rnn_inputs(index)
    same(numpy_of(run_rnn(ts, case)[0]), numpy_of(run_rnn(torch, case)[0]))


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(PACKED_CASES)), ids=rnn_ids(PACKED_CASES))
def test_packed_recurrent_layers_give_pytorchs_outputs(index: int) -> None:
    torch = pytest.importorskip("torch")
    case = packed_inputs(index)
    same(numpy_of(run_packed(ts, case)), numpy_of(run_packed(torch, case)))


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(LAYER_CASES)), ids=rnn_ids(LAYER_CASES))
def test_transformer_encoder_layer_gives_pytorchs_output(index: int) -> None:
    torch = pytest.importorskip("torch")
    case = layer_inputs(index)
    with torch.no_grad():
        want = numpy_of(run_layer(torch, case))
    same(numpy_of(run_layer(ts, case)), want)


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(MHA_CASES)), ids=rnn_ids(MHA_CASES))
def test_native_multi_head_attention_gives_pytorchs_outputs(index: int) -> None:
    torch = pytest.importorskip("torch")
    case = mha_inputs(index)
    with torch.no_grad():
        want = numpy_of(run_mha(torch, case))
    same(numpy_of(run_mha(ts, case)), want)


@pytest.mark.oracle
@pytest.mark.parametrize("index", [1, 3, 6, 7], ids=rnn_ids([RNN_CASES[i] for i in (1, 3, 6, 7)]))
def test_recurrent_gradients_are_pytorchs(index: int) -> None:
    torch = pytest.importorskip("torch")
    case = rnn_inputs(index)
    rng = np.random.default_rng(index)
    cotangents = [rng.standard_normal(o.shape).astype(np.float32) for o in run_rnn(ts, case)[0]]
    results = []
    for lib in (ts, torch):
        outs, leaves = run_rnn(lib, case, grad=True)
        sum((o * _t(lib, c)).sum() for o, c in zip(outs, cotangents, strict=True)).backward()
        results.append([leaf.grad.numpy() for leaf in leaves])
    same(results[0], results[1], atol=1e-4)


@pytest.mark.oracle
@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_dropout_applies_between_layers_only_in_training(mode: str) -> None:
    torch = pytest.importorskip("torch")
    case = rnn_inputs(1 if mode == "LSTM" else 6)
    bias, layers, _, _, bi, batch_first = case["args"]
    results = []
    for train in (False, True):
        # p = 1 zeroes the second layer's input whole: deterministic in both libraries
        case["args"] = (bias, layers, 1.0, train, bi, batch_first)
        got = numpy_of(run_rnn(ts, case)[0])
        same(got, numpy_of(run_rnn(torch, case)[0]))
        results.append(got[0])
    assert not np.allclose(results[0], results[1])


@pytest.mark.oracle
def test_the_recorded_results_are_pytorchs() -> None:
    torch = pytest.importorskip("torch")
    fresh = {}
    with torch.no_grad():
        for name, run, make, index in ALL:
            for i, a in enumerate(_outputs(torch, run, make(index))):
                fresh[f"{name}.{i}"] = a
    if os.environ.get("TSJIT_UPDATE_RECORDED"):
        RECORDED.parent.mkdir(exist_ok=True)
        np.savez_compressed(RECORDED, **fresh)
    recorded = np.load(RECORDED)
    assert sorted(recorded.files) == sorted(fresh)
    for key, a in fresh.items():
        np.testing.assert_allclose(recorded[key], a, rtol=1e-5, atol=1e-6, err_msg=key)


# ---------------------------------------------------------------------------
# Without PyTorch


@pytest.mark.parametrize("name,run,make,index", ALL, ids=[a[0] for a in ALL])
def test_outputs_are_the_recorded_pytorch_results(name: str, run: Any, make: Any, index: int):
    recorded = np.load(RECORDED)
    want = [recorded[k] for k in sorted((k for k in recorded.files if k.startswith(name + ".")),
                                        key=lambda k: int(k.split(".")[1]))]  # fmt: skip
    assert want, name
    same(_outputs(ts, run, make(index)), want)


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_recurrent_gradients_match_finite_differences(mode: str) -> None:
    rng = np.random.default_rng(7)
    gates = 4 if mode == "LSTM" else 3
    hidden, steps, batch, width = 2, 3, 2, 2
    x = rng.standard_normal((steps, batch, width))
    states = [rng.standard_normal((2, batch, hidden)) for _ in range(2 if mode == "LSTM" else 1)]
    params = []
    for _ in range(2):  # both directions
        params += [rng.standard_normal((gates * hidden, width)),
                   rng.standard_normal((gates * hidden, hidden)),
                   rng.standard_normal(gates * hidden), rng.standard_normal(gates * hidden)]  # fmt: skip
    leaves = [x, *states, *params]
    cotangents: list[np.ndarray] = []

    def loss(values: list[np.ndarray], grad: bool = False) -> Any:
        tensors = [_t(ts, v, grad) for v in values]
        x, *rest = tensors
        n = len(states)
        if mode == "LSTM":
            outs = ts.lstm(x, rest[:n], rest[n:], True, 1, 0.0, False, True, False)
        else:
            outs = ts.gru(x, rest[0], rest[n:], True, 1, 0.0, False, True, False)
        if not cotangents:
            cotangents.extend(rng.standard_normal(o.shape) for o in outs)
        total = sum((o * _t(ts, c)).sum() for o, c in zip(outs, cotangents, strict=True))
        return total, tensors

    total, tensors = loss(leaves, grad=True)
    total.backward()
    eps = 1e-6
    for which, leaf in enumerate(leaves):
        got = tensors[which].grad.numpy()
        for flat in range(0, leaf.size, max(1, leaf.size // 5)):
            plus = [v.copy() for v in leaves]
            minus = [v.copy() for v in leaves]
            plus[which].reshape(-1)[flat] += eps
            minus[which].reshape(-1)[flat] -= eps
            numeric = (loss(plus)[0].item() - loss(minus)[0].item()) / (2 * eps)
            assert math.isclose(got.reshape(-1)[flat], numeric, rel_tol=1e-5, abs_tol=1e-7)


def _rnn_case(mode: str = "LSTM") -> dict[str, Any]:
    return rnn_inputs(0 if mode == "LSTM" else 5)


def test_an_lstm_needs_two_hidden_states() -> None:
    case = _rnn_case()
    case["states"] = case["states"][:1]
    with pytest.raises(TensorError, match="lstm expects two hidden states"):
        run_rnn(ts, case)


def test_a_wrong_number_of_parameters_is_refused() -> None:
    case = _rnn_case("GRU")
    case["params"] = case["params"][:3]
    with pytest.raises(TensorError, match="incorrect number of RNN parameters"):
        run_rnn(ts, case)


def test_hidden_states_of_the_wrong_shape_are_refused() -> None:
    case = _rnn_case()
    case["states"] = [s[:, :2] for s in case["states"]]
    with pytest.raises(TensorError, match="hidden state 0 has shape"):
        run_rnn(ts, case)


def test_input_of_the_wrong_width_or_rank_is_refused() -> None:
    case = _rnn_case("GRU")
    case["x"] = case["x"][..., :2]
    with pytest.raises(TensorError, match="expects inputs of size 4, got 2"):
        run_rnn(ts, case)
    case["x"] = case["x"][0]
    with pytest.raises(TensorError, match="input must have 3 dimensions"):
        run_rnn(ts, case)


def test_packed_batch_sizes_must_not_grow() -> None:
    case = packed_inputs(0)
    case["sizes"] = np.array([1, 3, 3, 2], dtype=np.int64)
    with pytest.raises(TensorError, match="non-increasing"):
        run_packed(ts, case)
    case["sizes"] = np.array([3, 3, 2], dtype=np.int64)
    with pytest.raises(TensorError, match="sum to 8, but the packed data has 9 rows"):
        run_packed(ts, case)


def test_attention_masks_of_the_wrong_shape_are_refused() -> None:
    case = layer_inputs(4)  # padding mask, (B, T)
    case["mask"] = case["mask"][:, :3]
    with pytest.raises(TensorError, match="mask_type 1"):
        run_layer(ts, case)
    case = mha_inputs(0)
    case["e"] = 6
    with pytest.raises(TensorError, match="embed_dim 6 didn't match"):
        run_mha(ts, case)
    case = mha_inputs(1)  # cross attention
    case["qkv"][1] = case["qkv"][1][:, :4]
    with pytest.raises(TensorError, match="shapes to match"):
        run_mha(ts, case)


def test_a_two_dimensional_mask_needs_its_type() -> None:
    case = mha_inputs(2)
    case["mask_type"] = None
    with pytest.raises(TensorError, match="Mask Type should be defined"):
        run_mha(ts, case)


def test_autocast_is_never_enabled() -> None:
    from ts_runtime.ops.dispatch import call

    assert call("aten::is_autocast_enabled") is False
