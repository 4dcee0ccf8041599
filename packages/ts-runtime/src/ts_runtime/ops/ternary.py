"""Pointwise operators over three tensors: `addcmul` and `addcdiv`, and their derivatives.

    addcmul(self, t1, t2, value) = self + value * t1 * t2
    addcdiv(self, t1, t2, value) = self + value * t1 / t2

The three tensors broadcast together and promote by PyTorch's rules; `value`
takes no part in promotion (on integer tensors a float `value` is truncated,
as PyTorch's kernel casts it to the tensors' type). `addcdiv` of two integer
tensors is an error, as in PyTorch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor import Tensor, TensorError
from .common import operand, promote, result, sum_to
from .dispatch import derivative, implements
from .pointwise import _inplace, broadcasting


def _value(value: Any, dt: np.dtype) -> Any:
    return int(value) if dt.kind in "iu" else value


@implements("aten::addcmul")
@broadcasting
def addcmul(self: Tensor, tensor1: Tensor, tensor2: Tensor, value: Any = 1) -> Tensor:
    dt = promote(self, tensor1, tensor2)
    if dt.kind == "b":
        raise TensorError("\"addcmul_cpu_out\" not implemented for 'Bool'")
    a, b, c = operand(self, dt), operand(tensor1, dt), operand(tensor2, dt)
    product = np.multiply(b, c)
    v = _value(value, dt)
    if v != 1:
        product = np.multiply(product, np.asarray(v, dtype=dt))
    return result(np.add(a, product).astype(dt, copy=False))


@implements("aten::addcdiv")
@broadcasting
def addcdiv(self: Tensor, tensor1: Tensor, tensor2: Tensor, value: Any = 1) -> Tensor:
    if tensor1._data.dtype.kind in "biu" and tensor2._data.dtype.kind in "biu":
        raise TensorError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes."
        )
    dt = promote(self, tensor1, tensor2)
    a, b, c = operand(self, dt), operand(tensor1, dt), operand(tensor2, dt)
    quotient = np.true_divide(b, c)
    v = _value(value, dt)
    if v != 1:
        quotient = np.multiply(quotient, np.asarray(v, dtype=dt))
    return result(np.add(a, quotient).astype(dt, copy=False))


def _inplace_of(functional: Any, name: str) -> Any:
    def kernel(self: Tensor, tensor1: Tensor, tensor2: Tensor, value: Any = 1) -> Tensor:
        out = functional(self, tensor1, tensor2, value)
        if out._data.shape != self._data.shape:
            raise TensorError(
                f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
                f"{list(out._data.shape)}"
            )
        return _inplace(self, out, name)

    kernel.__name__ = functional.__name__ + "_"
    return kernel


implements("aten::addcmul_")(_inplace_of(addcmul, "aten::addcmul_"))
implements("aten::addcdiv_")(_inplace_of(addcdiv, "aten::addcdiv_"))


def _g(grad: Tensor, x: Tensor) -> Tensor:
    return sum_to(grad, x)


@derivative("aten::addcmul")
def _d_addcmul(grad, self, tensor1, tensor2, value=1, *, result):
    scaled = grad * value if value != 1 else grad
    return _g(grad, self), _g(scaled * tensor2, tensor1), _g(scaled * tensor1, tensor2)


@derivative("aten::addcdiv")
def _d_addcdiv(grad, self, tensor1, tensor2, value=1, *, result):
    scaled = grad * value if value != 1 else grad
    return (
        _g(grad, self),
        _g(scaled / tensor2, tensor1),
        _g(-scaled * tensor1 / (tensor2 * tensor2), tensor2),
    )
