"""Complex tensors: real and imaginary parts, conjugates, views between complex and pairs of
reals, construction from parts, angle.

`real`, `imag`, `view_as_real` and `view_as_complex` are views, as in
PyTorch (numpy's `.real`, `.imag` and dtype views share memory). Conjugation
is eager here (PyTorch's lazy conjugate bit is not modelled): `conj` of a
complex tensor is a new tensor, `is_conj` always false, `resolve_conj` and
`resolve_neg` the tensor itself. Of a real tensor, `real` and `conj` are the
tensor itself.
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor, TensorError, make_view
from .common import result
from .dispatch import derivative, implements

_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


@implements("aten::real", autograd=False)
def real(self: Tensor) -> Tensor:
    a = self._data
    if a.dtype.kind != "c":
        return self
    return make_view(self, a.real)


@implements("aten::imag")
def imag(self: Tensor) -> Tensor:
    a = self._data
    if a.dtype.kind != "c":
        raise TensorError("imag is not implemented for tensors with non-complex dtypes.")
    return make_view(self, a.imag)


@implements("aten::conj", autograd=False)
def conj(self: Tensor) -> Tensor:
    a = self._data
    return self if a.dtype.kind != "c" else result(np.conj(a))


@implements("aten::conj_physical")
def conj_physical(self: Tensor) -> Tensor:
    a = self._data
    return result(np.conj(a) if a.dtype.kind == "c" else a.copy())


@implements("aten::detach_", autograd=False)
def detach_(self: Tensor) -> Tensor:
    return self.detach_()


@implements("aten::resolve_conj", "aten::resolve_neg", autograd=False)
def resolve(self: Tensor) -> Tensor:
    return self


@implements("aten::is_conj", autograd=False)
def is_conj(self: Tensor) -> bool:
    return False


@implements("aten::view_as_real")
def view_as_real(self: Tensor) -> Tensor:
    a = self._data
    if a.dtype.kind != "c":
        raise TensorError("view_as_real is only supported for complex tensors")
    part = np.float32 if a.dtype == np.complex64 else np.float64
    if a.ndim == 0:
        a = a.reshape(1)
        return make_view(self, a.view(part))
    if a.strides[-1] != a.itemsize and a.shape[-1] != 1:
        raise TensorError("Tensor must have a last dimension with stride 1")
    return make_view(self, a.view(part).reshape(*a.shape, 2))


@implements("aten::view_as_complex")
def view_as_complex(self: Tensor) -> Tensor:
    a = self._data
    target = _COMPLEX_OF.get(a.dtype)
    if target is None:
        raise TensorError(
            f"view_as_complex is only supported for float and double tensors, but got a tensor "
            f"of scalar type: {self.dtype}"
        )
    if a.ndim == 0 or a.shape[-1] != 2:
        raise TensorError("Tensor must have a last dimension of size 2")
    if a.strides[-1] != a.itemsize:
        raise TensorError("Tensor must have a last dimension with stride 1")
    return make_view(self, np.ascontiguousarray(a).view(target).reshape(a.shape[:-1]))


@implements("aten::complex")
def complex_(real: Tensor, imag: Tensor) -> Tensor:
    r, i = real._data, imag._data
    if r.dtype != i.dtype:
        raise TensorError(
            f"Expected object of scalar type {real.dtype} but got scalar type {imag.dtype} for "
            "second argument"
        )
    target = _COMPLEX_OF.get(r.dtype)
    if target is None:
        raise TensorError(
            f"Expected both inputs to be Half, Float or Double tensors but got {real.dtype} and "
            f"{imag.dtype}"
        )
    return result((r + 1j * i).astype(target))


@implements("aten::polar")
def polar(abs: Tensor, angle: Tensor) -> Tensor:
    r, t = abs._data, angle._data
    target = _COMPLEX_OF.get(r.dtype)
    if target is None or r.dtype != t.dtype:
        raise TensorError(
            f"Expected both inputs to be Float or Double tensors but got {abs.dtype} and "
            f"{angle.dtype}"
        )
    return result((r * np.cos(t) + 1j * (r * np.sin(t))).astype(target))


@implements("aten::angle")
def angle(self: Tensor) -> Tensor:
    a = self._data
    if a.dtype.kind == "c":
        return result(np.angle(a).astype(a.real.dtype))
    dt = a.dtype if a.dtype.kind == "f" else np.dtype(np.float32)
    x = a.astype(dt)
    out = np.where(x < 0, np.pi, 0.0).astype(dt)
    return result(np.where(np.isnan(x), x, out))


@derivative("aten::angle", saves=("self",))
def _d_angle(grad, self, *, result):
    return (grad * 0,)
