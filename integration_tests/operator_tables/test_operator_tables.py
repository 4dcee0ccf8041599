"""Every operator rule table checked against the others, on sample inputs (OpInfo-style).

The tables an operator can appear in: its kernel (the registry), its shape
rule (ts-passes' `rule_for_operator`), its gradient (ts-runtime's
`DERIVATIVES`, or a composite kernel's own calls), its CPU lowering
(ts-fuser-cpu's `CPU_LOWERINGS`) and its raw-array kernel (ts-runtime's
`ARRAY_KERNELS`). This module walks them all:

- every builtin operator with a kernel and a tensor result has a shape rule,
  and every rule of every table belongs to an operator with a kernel;
- each shape rule, on the types of each sample, claims nothing the kernel's
  result contradicts: dtype, device, rank, sizes and strides where it gives
  them;
- each gradient agrees with central finite differences (float64 samples);
- each CPU lowering computes what the kernel computes;
- each array kernel computes exactly what the kernel computes.

Samples come from `operator_samples` (hand-written ones, then generic ones
from the schema). `python integration_tests/operator_tables/test_operator_tables.py`
prints the counts of each walk.
"""

from __future__ import annotations

import sys
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import pytest
import ts_runtime as ts
from operator_samples import build_node, samples_for, tensor_outputs
from ts_ir import ListType, TensorType, TorchScriptError, Type
from ts_passes.shape_rules import ShapeArgs, rule_for_operator, shape_rules
from ts_runtime.ops.dispatch import ARRAY_KERNELS, DERIVATIVES
from ts_runtime.ops.random import get_rng_state
from ts_schema import Operator, RuleTable, registry

pytestmark = pytest.mark.filterwarnings("ignore")

BUILTIN_NAMESPACES = ("aten", "prim")


def _has_tensor(t: Type) -> bool:
    if isinstance(t, TensorType):
        return True
    return any(_has_tensor(c) for c in t.contained_types())


@cache
def implemented() -> tuple[Operator, ...]:
    """The builtin operators with a kernel, in registry order."""
    return tuple(
        op
        for op in registry.operators()
        if op.has_implementation and op.qualified_name.partition("::")[0] in BUILTIN_NAMESPACES
    )


def _writes(op: Operator) -> bool:
    return any(a.alias_info is not None and a.alias_info.is_write for a in op.schema.arguments)


@dataclass
class Walk:
    """What one walk saw: entries walked, samples run, agreements and mismatches."""

    entries: int = 0
    samples: int = 0
    agreeing: int = 0
    unsampled: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    notes: Counter[str] = field(default_factory=Counter)

    def record(self, key: str, mismatch: str | None, checked: int) -> None:
        """The outcome of one entry: a mismatch, agreement on its samples, or no sample."""
        if mismatch:
            self.mismatches.append(mismatch)
        elif checked:
            self.agreeing += 1
        else:
            self.unsampled.append(key)

    def summary(self, name: str) -> str:
        extra = ", ".join(f"{k} {v}" for k, v in sorted(self.notes.items()))
        return (
            f"{name}: {self.entries} entries walked, {self.samples} samples checked, "
            f"{self.agreeing} entries agreeing on every sample, {len(self.mismatches)} mismatches, "
            f"{len(self.unsampled)} entries without a sample the kernel accepts"
            + (f" ({extra})" if extra else "")
        )


def _run(op: Operator, args: list[Any], *, grad: bool = False) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if grad:
            return op.impl(*args)
        with ts.no_grad():
            return op.impl(*args)


# ---------------------------------------------------------------------------
# the static checks


def test_every_operator_with_a_kernel_has_a_shape_rule():
    missing = [
        op.key
        for op in implemented()
        if not op.schema.is_vararg
        and any(_has_tensor(r.type) for r in op.schema.returns)
        and rule_for_operator(op) is None
    ]
    assert missing == [], f"{len(missing)} operators with a kernel have no shape rule: {missing}"


def _entries(table: RuleTable) -> Iterator[tuple[str, list[Operator]]]:
    """(key, the operators it covers) for every entry of a rule table."""
    for key in table.overload_keys():
        yield key, [registry.get(key)]
    for name in table.name_keys():
        yield name, registry.lookup(name)


def _tables() -> dict[str, RuleTable]:
    tables = {"shape": shape_rules, "derivative": DERIVATIVES, "array_kernel": ARRAY_KERNELS}
    try:
        from ts_fuser_cpu.lowerings import CPU_LOWERINGS

        tables["cpu_lowering"] = CPU_LOWERINGS
    except ImportError:
        pass
    return tables


@pytest.mark.parametrize("table", sorted(_tables()))
def test_every_rule_belongs_to_an_operator_with_a_kernel(table):
    orphans = [
        key
        for key, ops in _entries(_tables()[table])
        if not any(op.has_implementation for op in ops)
    ]
    assert orphans == [], f"{table} rules for operators without a kernel: {orphans}"


# ---------------------------------------------------------------------------
# shape rules against kernels


def _check_type(claim: Any, value: Any, where: str) -> str | None:
    """What the claimed type says that the value contradicts, or None."""
    if isinstance(claim, ListType):
        if not isinstance(value, (list, tuple)):
            return None
        for i, v in enumerate(value):
            bad = _check_type(claim.element, v, f"{where}[{i}]")
            if bad:
                return bad
        return None
    if not isinstance(claim, TensorType) or not isinstance(value, ts.Tensor):
        return None
    actual = value.type_for_ir()
    if claim.scalar_type is not None and claim.scalar_type != actual.scalar_type:
        return f"{where}: dtype {claim.scalar_type.name} != {actual.scalar_type.name}"
    if claim.device is not None and claim.device != actual.device:
        return f"{where}: device {claim.device} != {actual.device}"
    if claim.sizes is not None:
        if len(claim.sizes) != len(actual.sizes):
            return f"{where}: rank {len(claim.sizes)} != {len(actual.sizes)}"
        for i, (c, a) in enumerate(zip(claim.sizes, actual.sizes, strict=True)):
            if c is not None and c != a:
                return f"{where}: sizes {list(claim.sizes)} != {list(actual.sizes)} (dim {i})"
        strides = claim.strides
        if strides is not None and None not in strides:
            for c, a, n in zip(strides, actual.strides, actual.sizes, strict=True):
                if c != a and n > 1 and 0 not in actual.sizes:
                    return f"{where}: strides {list(strides)} != {list(actual.strides)}"
    return None


def _informative(claims: list[Any]) -> bool:
    return any(
        isinstance(c, TensorType) and c.scalar_type is not None and c.sizes is not None
        for c in claims
    ) or any(isinstance(c, ListType) for c in claims)


@cache
def shape_walk() -> Walk:
    walk = Walk()
    for op in implemented():
        if op.schema.is_vararg or not any(_has_tensor(r.type) for r in op.schema.returns):
            continue
        rule = rule_for_operator(op)
        if rule is None:
            continue
        walk.entries += 1
        checked, bad = 0, None
        for label, args in samples_for(op):
            built = build_node(op, args)
            if built is None:
                walk.notes["samples resolving to another overload"] += 1
                continue
            _, node = built
            try:
                claim = rule(ShapeArgs(node))
            except Exception as exc:  # a rule must not fail on valid input types
                claim = exc
            try:
                value = _run(op, args)
            except Exception:
                continue
            checked += 1
            walk.samples += 1
            if isinstance(claim, Exception):
                bad = f"{op.key} [{label}]: the rule raised {claim!r}"
                break
            claims = claim if isinstance(claim, list) else [claim]
            values = value if isinstance(value, tuple) else (value,)
            if len(op.schema.returns) == 1:
                values = (value,)
            if _informative(claims):
                walk.notes["samples with dtype and rank claimed"] += 1
            for k, (c, v) in enumerate(zip(claims, values, strict=False)):
                why = _check_type(c, v, f"output {k}")
                if why:
                    bad = f"{op.key} [{label}]: {why}"
                    break
            if bad:
                break
        walk.record(op.key, bad, checked)
    return walk


def test_shape_rules_agree_with_kernels():
    walk = shape_walk()
    print(walk.summary("shape rules"))
    assert walk.mismatches == [], "\n".join(walk.mismatches)


# ---------------------------------------------------------------------------
# gradients against finite differences

EPS = 1e-6
MAX_ELEMENTS = 6


def _as_double(value: Any) -> Any:
    if isinstance(value, ts.Tensor):
        data = value.numpy()
        return ts.from_numpy(data.astype(np.float64)) if data.dtype == np.float32 else value
    if isinstance(value, list):
        return [_as_double(v) for v in value]
    return value


def _float_leaves(args: list[Any]) -> list[tuple[int, int | None]]:
    """Positions of the float64 tensors among the arguments: (arg, index in a list or None)."""
    out = []
    for i, a in enumerate(args):
        if isinstance(a, ts.Tensor) and a.dtype == ts.float64 and a.numel() > 0:
            out.append((i, None))
        elif isinstance(a, list):
            out.extend(
                (i, j)
                for j, t in enumerate(a)
                if isinstance(t, ts.Tensor) and t.dtype == ts.float64 and t.numel() > 0
            )
    return out


def _with_arrays(args: list[Any], arrays: dict[tuple[int, int | None], np.ndarray], grad: bool):
    out = [list(a) if isinstance(a, list) else a for a in args]
    leaves = []
    for (i, j), arr in arrays.items():
        t = ts.from_numpy(arr.copy())
        if grad:
            t.requires_grad_(True)
        leaves.append(t)
        if j is None:
            out[i] = t
        else:
            out[i][j] = t
    return out, leaves


def _outputs(op: Operator, args: list[Any]) -> list[np.ndarray]:
    return [o.numpy() for o in tensor_outputs(_run(op, args)) if o.dtype == ts.float64]


def _loss(op: Operator, args: list[Any], cotangents: list[np.ndarray]) -> float:
    outs = _outputs(op, args)
    return float(sum((o * c).sum() for o, c in zip(outs, cotangents, strict=True)))


def _gradient_case(op: Operator, args: list[Any]) -> str | bool | None:
    """None if the gradient agrees, a message if not, False if the sample says nothing."""
    formula = DERIVATIVES.lookup_operator(op)
    declared = getattr(formula, "not_differentiable", frozenset())
    names = [a.name for a in op.schema.arguments]
    leaves = [pos for pos in _float_leaves(args) if names[pos[0]] not in declared]
    if not leaves:
        return False
    arrays = {
        pos: (args[pos[0]] if pos[1] is None else args[pos[0]][pos[1]]).numpy().copy()
        for pos in leaves
    }
    grad_args, inputs = _with_arrays(args, arrays, True)
    try:
        result = _run(op, grad_args, grad=True)
    except Exception:
        return False
    outs = [o for o in tensor_outputs(result) if o.dtype == ts.float64]
    if not outs or not any(o.requires_grad for o in outs):
        return False
    rng = np.random.default_rng(3)
    cotangents = [rng.standard_normal(tuple(o.shape)) for o in outs]
    before = get_rng_state()
    try:
        losses = {_loss(op, _with_arrays(args, arrays, False)[0], cotangents) for _ in range(2)}
    except Exception:
        return False
    if get_rng_state() != before:
        return False  # it draws random numbers: finite differences say nothing
    if len(losses) != 1 or not np.isfinite(losses.pop()):
        return False  # not finite here
    loss = None
    for o, c in zip(outs, cotangents, strict=True):
        if o.requires_grad:
            term = (o * ts.from_numpy(c)).sum()
            loss = term if loss is None else loss + term
    try:
        grads = ts.autograd.grad(loss, inputs, allow_unused=True)
    except TorchScriptError as exc:
        return f"backward raised {exc!r}"
    for pos, g in zip(arrays, grads, strict=True):
        base = arrays[pos]
        analytic = np.zeros_like(base) if g is None else g.numpy()
        for k in range(min(base.size, MAX_ELEMENTS)):
            plus = {p: a.copy() for p, a in arrays.items()}
            minus = {p: a.copy() for p, a in arrays.items()}
            plus[pos].reshape(-1)[k] += EPS
            minus[pos].reshape(-1)[k] -= EPS
            try:
                # differences of outputs before the sum: large outputs elsewhere cancel exactly
                ups = _outputs(op, _with_arrays(args, plus, False)[0])
                downs = _outputs(op, _with_arrays(args, minus, False)[0])
                numeric = sum(
                    ((u - w) * c).sum() for u, w, c in zip(ups, downs, cotangents, strict=True)
                ) / (2 * EPS)
            except Exception:
                return False  # at the edge of the domain
            got = analytic.reshape(-1)[k]
            if not np.isclose(got, numeric, rtol=1e-4, atol=1e-5):
                return f"input {pos}, element {k}: autograd {got!r}, finite differences {numeric!r}"
    return None


@cache
def gradient_walk() -> Walk:
    walk = Walk()
    for op in implemented():
        if (
            op.schema.is_vararg
            or _writes(op)
            or not any(_has_tensor(r.type) for r in op.schema.returns)
        ):
            continue
        formula = DERIVATIVES.lookup_operator(op)
        composite = op.impl is not None and not hasattr(op.impl, "__wrapped__")
        if formula is None and not composite:
            continue
        walk.entries += 1
        checked, bad = 0, None
        for label, args in samples_for(op):
            if "f32" in label or "i" in label.split()[0] or label.split()[0].startswith("b"):
                continue  # generic samples: the float64 ones only
            why = _gradient_case(op, [_as_double(a) for a in args])
            if why is False:
                continue
            checked += 1
            walk.samples += 1
            if why:
                bad = f"{op.key} [{label}]: {why}"
                break
            if checked >= 3:
                break
        walk.record(op.key, bad, checked)
    return walk


def test_gradients_agree_with_finite_differences():
    walk = gradient_walk()
    print(walk.summary("gradients"))
    assert walk.mismatches == [], "\n".join(walk.mismatches)


# ---------------------------------------------------------------------------
# array kernels and CPU lowerings against kernels


def _same(a: Any, b: Any, *, exact: bool) -> str | None:
    if not isinstance(a, ts.Tensor) or not isinstance(b, ts.Tensor):
        return None if a == b else f"{a!r} != {b!r}"
    x, y = a.numpy(), b.numpy()
    if x.dtype != y.dtype or x.shape != y.shape:
        return f"{x.dtype}{list(x.shape)} != {y.dtype}{list(y.shape)}"
    if exact or x.dtype.kind not in "fc":
        same = np.array_equal(x, y, equal_nan=x.dtype.kind in "fc")
    else:
        same = np.allclose(x, y, rtol=1e-5, atol=1e-6, equal_nan=True)
    return None if same else "values differ"


def _table_ops(table: RuleTable) -> list[Operator]:
    seen: dict[str, Operator] = {}
    for _, ops in _entries(table):
        for op in ops:
            if op.has_implementation:
                seen.setdefault(op.key, op)
    return list(seen.values())


@cache
def array_kernel_walk() -> Walk:
    walk = Walk()
    for op in _table_ops(ARRAY_KERNELS):
        walk.entries += 1
        checked, bad = 0, None
        for label, args in samples_for(op):
            built = build_node(op, args)
            if built is None:
                continue
            _, node = built
            select = ARRAY_KERNELS.lookup(node)
            chosen = select(node) if select is not None else None
            if chosen is None:
                continue
            try:
                expected = _run(op, args)
            except Exception:
                continue
            values = [a.numpy() if i in chosen.tensors else a for i, a in enumerate(args)]
            got = ts.from_numpy(np.asarray(chosen.fn(*[values[i] for i in chosen.args])))
            checked += 1
            walk.samples += 1
            why = _same(got, expected, exact=True)
            if why:
                bad = f"{op.key} [{label}]: {why}"
                break
        walk.record(op.key, bad, checked)
    return walk


def test_array_kernels_agree_with_kernels():
    walk = array_kernel_walk()
    print(walk.summary("array kernels"))
    assert walk.mismatches == [], "\n".join(walk.mismatches)


@cache
def lowering_walk() -> Walk:
    ts_fuser_cpu = pytest.importorskip("ts_fuser_cpu")
    from ts_fuser_cpu.errors import UnsupportedFusionError
    from ts_fuser_cpu.lowerings import CPU_LOWERINGS

    walk = Walk()
    for op in _table_ops(CPU_LOWERINGS):
        walk.entries += 1
        checked, bad = 0, None
        for label, args in samples_for(op):
            if "()" in label:
                continue  # a zero-dim group is left to the interpreter
            built = build_node(op, args)
            if built is None:
                continue
            graph, node = built
            if CPU_LOWERINGS.lookup(node) is None:
                continue
            tensors = [a for a in args if isinstance(a, ts.Tensor)]
            try:
                expected = _run(op, args)
                kernel = ts_fuser_cpu.backend.compile(graph, [t.type_for_ir() for t in tensors])
                got = kernel(*tensors)
            except (UnsupportedFusionError, TorchScriptError):
                continue
            if got is None:
                continue
            checked += 1
            walk.samples += 1
            why = _same(got[0] if isinstance(got, tuple) else got, expected, exact=False)
            if why:
                bad = f"{op.key} [{label}]: {why}"
                break
            if checked >= 2:
                break  # compiling is the cost here; the fuser's own tests go wider
        walk.record(op.key, bad, checked)
    return walk


def test_cpu_lowerings_agree_with_kernels():
    walk = lowering_walk()
    print(walk.summary("CPU lowerings"))
    assert walk.mismatches == [], "\n".join(walk.mismatches)


if __name__ == "__main__":
    for name, fn in (
        ("shape rules", shape_walk),
        ("gradients", gradient_walk),
        ("array kernels", array_kernel_walk),
        ("CPU lowerings", lowering_walk),
    ):
        w = fn()
        print(w.summary(name))
        for m in w.mismatches:
            print("   ", m)
        if "-v" in sys.argv:
            print("    without samples:", ", ".join(w.unsampled))
