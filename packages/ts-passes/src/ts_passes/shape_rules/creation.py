"""Shape rules of tensor factories: zeros, full, arange, linspace, tensor, the *_like and
new_* forms, and the random ones."""

from __future__ import annotations

from typing import Any

from ts_ir import (
    BoolType,
    ComplexType,
    Device,
    FloatType,
    IntType,
    ListType,
    NoneType,
    NumberType,
    ScalarType,
    Type,
)

from .core import (
    CPU,
    Rule,
    ShapeArgs,
    broadcast_shapes,
    complete_sizes,
    device_of,
    int_const,
    known,
    make_tensor,
    register_exact,
    shape_rules,
    size_list,
)


def creation_dtype(args: ShapeArgs, default: ScalarType | None) -> ScalarType | None:
    if args.index("dtype") is None:
        return default
    d = args.const("dtype")
    if d is None:
        return default
    return ScalarType(d) if known(d) and isinstance(d, int) else None


def creation_device(args: ShapeArgs, default: Device | None) -> Device | None:
    if args.index("device") is None:
        return default
    d = args.const("device")
    if d is None:
        return default
    if known(d):
        return d if isinstance(d, Device) else Device(str(d))
    return None


def creation_requires_grad(args: ShapeArgs) -> bool | None:
    if args.index("requires_grad") is None:
        return False
    r = args.const("requires_grad")
    return bool(r) if known(r) and r is not None else (False if r is None else None)


def _sizes(args: ShapeArgs, key: int | str) -> Any:
    size = size_list(args, key)
    if size is None:
        return None
    if None in size or any(s < 0 for s in size):  # type: ignore[operator]
        return len(size)
    return tuple(size)


def factory(default: ScalarType | None) -> Rule:
    """zeros, ones, empty, rand, randn(size, ...): `default` unless `dtype` says otherwise."""

    def rule(args: ShapeArgs) -> Type | None:
        return make_tensor(
            creation_dtype(args, default),
            creation_device(args, CPU),
            _sizes(args, "size"),
            contiguous=True,
            requires_grad=creation_requires_grad(args),
        )

    return rule


def full_rule(args: ShapeArgs) -> Type | None:
    """full(size, fill_value): the fill value's type decides the default dtype."""
    fill = args.value("fill_value")
    default = {
        IntType: ScalarType.Long,
        BoolType: ScalarType.Bool,
        FloatType: ScalarType.Float,
    }.get(
        type(fill.type) if fill is not None else NoneType  # type: ignore[arg-type]
    )
    return factory(default)(args)


def new_rule(args: ShapeArgs) -> Type | None:
    """new_zeros, new_ones, new_empty, new_full(self, size): self's dtype and device by default."""
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(
        creation_dtype(args, t.scalar_type),
        creation_device(args, t.device),
        _sizes(args, "size"),
        contiguous=True,
        requires_grad=False,
    )


def like_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    dtype = creation_dtype(args, t.scalar_type)
    if args.node.kind == "aten::full_like" and args.index("dtype") is not None:
        fill = args.value("fill_value")
        if args.const("dtype") is None and fill is not None and isinstance(fill.type, FloatType):
            dtype = t.scalar_type
    return make_tensor(
        dtype,
        creation_device(args, t.device),
        complete_sizes(t) or t.dim(),
        contiguous=True,
        requires_grad=creation_requires_grad(args),
    )


def arange_rule(args: ShapeArgs) -> Type | None:
    numbers = [
        v
        for v in args.inputs
        if isinstance(v.type, (IntType, FloatType, NumberType))
        and args.node.inputs.index(v) < (args.index("dtype") or len(args.inputs))
    ]
    if any(isinstance(v.type, NumberType) for v in numbers):
        default = None
    elif any(isinstance(v.type, FloatType) for v in numbers):
        default = ScalarType.Float
    else:
        default = ScalarType.Long
    return make_tensor(
        creation_dtype(args, default),
        creation_device(args, CPU),
        1,
        requires_grad=creation_requires_grad(args),
    )


def eye_rule(args: ShapeArgs) -> Type | None:
    return make_tensor(
        creation_dtype(args, ScalarType.Float),
        creation_device(args, CPU),
        2,
        requires_grad=creation_requires_grad(args),
    )


def triangle_indices_rule(args: ShapeArgs) -> Type | None:
    """triu_indices, tril_indices: 2 x N coordinates, int64 unless a dtype is given."""
    return make_tensor(
        creation_dtype(args, ScalarType.Long),
        creation_device(args, CPU),
        2,
        requires_grad=creation_requires_grad(args),
    )


def num_to_tensor_rule(args: ShapeArgs) -> Type | None:
    v = args.value(0)
    if v is None:
        return None
    dtype = {IntType: ScalarType.Long, FloatType: ScalarType.Double, BoolType: ScalarType.Bool}.get(
        type(v.type)  # type: ignore[arg-type]
    )
    return make_tensor(dtype, CPU, (), requires_grad=False)


def linspace_rule(args: ShapeArgs) -> Type | None:
    """linspace, logspace: `steps` values of the default float dtype."""
    steps = int_const(args, "steps")
    return make_tensor(
        creation_dtype(args, ScalarType.Float),
        creation_device(args, CPU),
        (steps,) if steps is not None and steps >= 0 else 1,
        contiguous=True,
        requires_grad=False,
    )


_SCALAR_DTYPES = {
    BoolType: ScalarType.Bool,
    IntType: ScalarType.Long,
    FloatType: ScalarType.Float,
    ComplexType: ScalarType.ComplexFloat,
}


def tensor_rule(args: ShapeArgs) -> Type | None:
    """tensor, as_tensor of a number (0-dim) or of a (nested) list: the list type's depth
    is the rank, its innermost type the default dtype."""
    v = args.value(0)
    if v is None:
        return None
    t, rank = v.type, 0
    while isinstance(t, ListType):
        t, rank = t.element, rank + 1
    default = _SCALAR_DTYPES.get(type(t))  # type: ignore[arg-type]
    return make_tensor(
        creation_dtype(args, default),
        creation_device(args, CPU),
        () if rank == 0 else rank,
        contiguous=True,
        requires_grad=creation_requires_grad(args),
    )


def scalar_tensor_rule(args: ShapeArgs) -> Type | None:
    return make_tensor(
        creation_dtype(args, ScalarType.Float),
        creation_device(args, CPU),
        (),
        contiguous=True,
        requires_grad=False,
    )


def randperm_rule(args: ShapeArgs) -> Type | None:
    n = int_const(args, "n")
    return make_tensor(
        creation_dtype(args, ScalarType.Long),
        creation_device(args, CPU),
        (n,) if n is not None and n >= 0 else 1,
        contiguous=True,
        requires_grad=False,
    )


def normal_rule(args: ShapeArgs) -> Type | None:
    """normal(mean, std): the broadcast of the tensor operands; of floats, a factory."""
    tensors = [t for t in (args.tensor("mean"), args.tensor("std")) if t is not None]
    if not tensors:
        return factory(ScalarType.Float)(args)
    dtypes = {t.scalar_type for t in tensors}
    return make_tensor(
        dtypes.pop() if len(dtypes) == 1 else None,
        device_of(tensors),
        broadcast_shapes(tensors),
        tensors,
        contiguous=True,
        requires_grad=False,
    )


def random_like_rule(args: ShapeArgs) -> Type | None:
    """uniform, normal_functional, bernoulli, randint_like: the input's shape and dtype."""
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(
        creation_dtype(args, t.scalar_type),
        t.device,
        complete_sizes(t) or t.dim(),
        contiguous=True,
        requires_grad=False,
    )


def multinomial_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    n = int_const(args, "num_samples")
    sizes = complete_sizes(t)
    if sizes is not None and n is not None:
        shape: Any = (*sizes[:-1], n)
    else:
        shape = t.dim()
    return make_tensor(ScalarType.Long, t.device, shape, contiguous=True, requires_grad=False)


def window_rule(args: ShapeArgs) -> Type | None:
    """hann_window, hamming_window, ...: window_length samples of the default float dtype."""
    n = int_const(args, "window_length")
    return make_tensor(
        creation_dtype(args, ScalarType.Float),
        creation_device(args, CPU),
        (n,) if n is not None and n >= 0 else 1,
        contiguous=True,
        requires_grad=False,
    )


def _register() -> None:
    r = shape_rules.register
    for name in ("zeros", "ones", "empty", "rand", "randn"):
        r(f"aten::{name}", factory(ScalarType.Float))
    r("aten::randint", factory(ScalarType.Long))
    r("aten::full", full_rule)
    for name in ("zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like"):
        r(f"aten::{name}", like_rule)
    for name in ("new_zeros", "new_ones", "new_empty", "new_full"):
        r(f"aten::{name}", new_rule)
    r("aten::arange", arange_rule)
    r("aten::eye", eye_rule)
    for name in ("triu_indices", "tril_indices"):
        r(f"aten::{name}", triangle_indices_rule)
    for name in ("linspace", "logspace"):
        r(f"aten::{name}", linspace_rule)
    r("aten::tensor", tensor_rule)
    for key in ("aten::as_tensor.bool", "aten::as_tensor.int", "aten::as_tensor.float"):
        r(key, tensor_rule)
    r("aten::as_tensor.complex", tensor_rule)
    r("aten::as_tensor.list", tensor_rule)
    register_exact("aten::as_tensor", _as_tensor_of_tensor)
    r("aten::scalar_tensor", scalar_tensor_rule)
    r("aten::randperm", randperm_rule)
    r("aten::normal", normal_rule)
    for name in ("uniform", "normal_functional", "bernoulli", "randint_like"):
        r(f"aten::{name}", random_like_rule)
    r("aten::multinomial", multinomial_rule)
    r("aten::random", random_like_rule)
    for name in ("hann", "hamming", "blackman", "bartlett", "kaiser"):
        r(f"aten::{name}_window", window_rule)
    r("prim::NumToTensor", num_to_tensor_rule)


def _as_tensor_of_tensor(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(
        creation_dtype(args, t.scalar_type),
        creation_device(args, t.device),
        complete_sizes(t) or t.dim(),
        [t],
    )


_register()
