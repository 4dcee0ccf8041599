"""ts-runtime: tensors over numpy, the operator library, autograd, the interpreter and the executor.

    import ts_runtime as torch

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tanh(x * 2).sum()
    y.backward()

Every operator in the registry with an implementation is reachable as a
function of this module (`ts_runtime.tanh`) and, when it takes `Tensor self`,
as a tensor method; calls go through eager dispatch, so autograd and the
tracer see them.
"""

from __future__ import annotations

from typing import Any

from ts_ir import Device as device
from ts_schema import registry as _registry

from . import autograd, fft, linalg, nn, ops, optim, special
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .dtypes import (
    bfloat16,
    bool_,
    cdouble,
    cfloat,
    complex64,
    complex128,
    double,
    dtype,
    finfo,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    iinfo,
    int8,
    int16,
    int32,
    int64,
    long,
    set_default_dtype,
    short,
    uint8,
)
from .dtypes import float_ as float
from .dtypes import int_ as int
from .executor import ExecutorStats, GraphExecutor
from .function import (
    ArgumentCountError,
    ArgumentTypeError,
    CompilationUnit,
    Function,
    Parameter,
)
from .fusion import fuser, get_fuser, set_fuser
from .interpreter.code import Code
from .interpreter.fork import Future, fork, wait
from .interpreter.state import InterpreterState
from .ops import EAGER_FUNCTIONS as _EAGER_FUNCTIONS
from .ops.dispatch import ArgumentError, call, eager_function
from .parallel import get_num_threads, set_num_threads
from .profiling_executor import (
    ProfilingGraphExecutor,
    ProfilingStats,
    get_num_profiled_runs,
    profiling_executor_enabled,
    set_bailout_depth,
    set_num_profiled_runs,
    set_profiling_executor,
)
from .script_module import ScriptModule as ScriptModule
from .tensor import DimensionError, Size, Tensor, TensorError, as_tensor, from_numpy, tensor
from .tensor_methods import install as _install_methods

bool = bool_

_install_methods()

from . import autodiff  # noqa: E402, F401  (formulas become symbolic gradients)

# functions whose Python signature is not their schema's (`zeros(..., requires_grad=True)`)
_EAGER: dict[str, Any] = dict(_EAGER_FUNCTIONS)


def __getattr__(name: str) -> Any:
    """`ts_runtime.<op>` for every implemented `aten::` operator, made on first use."""
    fn = _EAGER.get(name)
    if fn is not None:
        return fn
    if not name.startswith("__") and _registry.has(f"aten::{name}"):
        fn = _EAGER[name] = eager_function(f"aten::{name}", name)
        return fn
    raise AttributeError(f"module 'ts_runtime' has no attribute {name!r}")


__all__ = [
    "ArgumentCountError",
    "ArgumentError",
    "ArgumentTypeError",
    "Code",
    "CompilationUnit",
    "DimensionError",
    "ExecutorStats",
    "Function",
    "Future",
    "GraphExecutor",
    "InterpreterState",
    "Parameter",
    "ProfilingGraphExecutor",
    "ProfilingStats",
    "Size",
    "Tensor",
    "TensorError",
    "as_tensor",
    "autograd",
    "bfloat16",
    "bool",
    "call",
    "cdouble",
    "cfloat",
    "complex64",
    "complex128",
    "device",
    "double",
    "dtype",
    "enable_grad",
    "fft",
    "finfo",
    "float",
    "float16",
    "float32",
    "float64",
    "fork",
    "from_numpy",
    "fuser",
    "get_default_dtype",
    "get_fuser",
    "get_num_profiled_runs",
    "get_num_threads",
    "half",
    "iinfo",
    "inference_mode",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "is_grad_enabled",
    "linalg",
    "long",
    "nn",
    "no_grad",
    "ops",
    "optim",
    "profiling_executor_enabled",
    "set_bailout_depth",
    "set_default_dtype",
    "set_fuser",
    "set_grad_enabled",
    "set_num_profiled_runs",
    "set_num_threads",
    "set_profiling_executor",
    "short",
    "special",
    "tensor",
    "uint8",
    "wait",
]
