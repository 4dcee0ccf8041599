"""`Module`: the base class of layers and models, as `torch.nn.Module`.

Assigning a `Parameter`, a `Module` or (for a name registered with
`register_buffer`) a tensor to an attribute registers it; `parameters()`,
`buffers()`, `modules()` and their `named_` forms walk the tree in
registration order, and `state_dict()`/`load_state_dict()` save and restore
the parameters and persistent buffers by dotted name.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from typing import Any

from ts_ir import TorchScriptError

from ..autograd.grad_mode import no_grad
from ..dtypes import dtype as dtype_class
from ..dtypes import float16, float32, float64
from ..tensor import Tensor, TensorError, check_device
from .parameter import Parameter


class StateDictError(TorchScriptError, RuntimeError):
    """`load_state_dict` found missing or unexpected keys, or tensors of the wrong shape."""


IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])


def _addindent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    first = lines.pop(0)
    return first + "\n" + "\n".join(" " * spaces + line for line in lines)


class Module:
    """Base class of every layer and model: holds parameters, buffers and submodules."""

    training: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes no arguments")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())

    # -- registration

    def _require_init(self, what: str) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {what} before Module.__init__() call")

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or a None placeholder) under `name`."""
        self._require_init("parameter")
        self._check_name(name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{type(param).__name__}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                "created explicitly."
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (running statistics, say)."""
        self._require_init("buffer")
        self._check_name(name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' (torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module under `name`."""
        self._require_init("module")
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {type(name).__name__}")
        if "." in name or name == "":
            raise KeyError(
                f'module name can\'t contain ".", got: {name}'
                if name
                else 'module name can\'t be empty string ""'
            )
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._modules[name] = module

    register_module = add_module

    def _check_name(self, name: str, what: str) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{what} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f'{what} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{what} name can\'t be empty string ""')
        if name in self.__dict__ and name not in self._parameters and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            params[name] = None
            return
        if isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            self._modules[name] = value
            return
        modules = d.get("_modules")
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                )
            modules[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as buffer '{name}' (torch.Tensor or None expected)"
                )
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _forget(self, name: str) -> None:
        self.__dict__.pop(name, None)
        for table in ("_parameters", "_buffers", "_modules"):
            self.__dict__[table].pop(name, None)
        self.__dict__["_non_persistent_buffers"].discard(name)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            entries = d.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in ("_parameters", "_buffers", "_modules"):
            entries = self.__dict__[table]
            if name in entries:
                del entries[name]
                self._non_persistent_buffers.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        return sorted(
            set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules)
        )

    # -- traversal

    def named_modules(
        self, memo: set[int] | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = f"{prefix}.{name}" if prefix else name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen: set[int] = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, m in self.named_children():
            yield m

    def _named_members(
        self, table: str, prefix: str, recurse: bool, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        seen: set[int] = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for name, value in module.__dict__[table].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield (f"{module_prefix}.{name}" if module_prefix else name), value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)  # type: ignore[misc]

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def get_submodule(self, target: str) -> Module:
        module: Module = self
        if target == "":
            return module
        for item in target.split("."):
            child = module._modules.get(item)
            if child is None:
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = child
        return module

    def get_parameter(self, target: str) -> Parameter:
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if name not in module._parameters:
            raise AttributeError(f"{module._get_name()} has no parameter `{name}`")
        return module._parameters[name]

    def get_buffer(self, target: str) -> Tensor:
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if name not in module._buffers:
            raise AttributeError(f"{module._get_name()} has no buffer `{name}`")
        return module._buffers[name]

    # -- state

    def state_dict(
        self, destination: dict[str, Any] | None = None, prefix: str = "", keep_vars: bool = False
    ) -> dict[str, Any]:
        """Parameters and persistent buffers by dotted name (detached unless `keep_vars`)."""
        if destination is None:
            destination = OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination, prefix + name + ".", keep_vars)
        return destination

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ) -> IncompatibleKeys:
        """Copy `state_dict`'s tensors into the parameters and buffers of the same names.

        With `strict`, a missing or unexpected key is a `StateDictError` that lists them all;
        a tensor whose shape differs from its parameter's is an error either way.
        """
        slots: list[tuple[str, Tensor, Callable[[Tensor], None]]] = []
        for prefix, module in self.named_modules():
            pre = prefix + "." if prefix else ""
            local = [(n, p) for n, p in module._parameters.items() if p is not None]
            local += [
                (n, b)
                for n, b in module._buffers.items()
                if b is not None and n not in module._non_persistent_buffers
            ]
            for name, target in local:
                slots.append((pre + name, target, partial(setattr, module, name)))
        return load_state(slots, state_dict, strict, assign, self._get_name())

    # -- modes and conversions

    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad._data[...] = 0

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply(self, fn: Callable[[Tensor], Tensor]) -> Module:
        for module in self.children():
            module._apply(fn)
        for p in self._parameters.values():
            if p is None:
                continue
            with no_grad():
                new = fn(p)
            if new is not p:
                p.data = new
                if p.grad is not None:
                    p.grad = fn(p.grad)
        for name, b in self._buffers.items():
            if b is not None:
                self._buffers[name] = fn(b)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Convert floating point parameters and buffers to a dtype; a device other than
        the cpu is an error. Accepts `to(dtype)`, `to(device)`, `to(device, dtype)`, `to(tensor)`."""
        dtype = conversion_dtype(args, kwargs)
        if dtype is None:
            return self

        return self._apply(floating_converter(dtype))

    def float(self) -> Module:
        return self.to(float32)

    def double(self) -> Module:
        return self.to(float64)

    def half(self) -> Module:
        return self.to(float16)

    def cpu(self) -> Module:
        return self

    def cuda(self, device: Any = None) -> Module:
        raise TensorError("CUDA is not available: tensors of this runtime live on the cpu")

    def type(self, dst_type: Any) -> Module:
        return self.to(dst_type)

    # -- calling

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def register_forward_hook(self, hook: Callable[..., Any]) -> Any:
        """Call `hook(module, args, output)` after every forward; it may return a new output."""
        return _register(self._forward_hooks, hook)

    def register_forward_pre_hook(self, hook: Callable[..., Any]) -> Any:
        """Call `hook(module, args)` before every forward; it may return new args."""
        return _register(self._forward_pre_hooks, hook)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for hook in list(self._forward_pre_hooks.values()):
            new = hook(self, args)
            if new is not None:
                args = new if isinstance(new, tuple) else (new,)
        out = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            new = hook(self, args, out)
            if new is not None:
                out = new
        return out

    # -- printing

    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            f"({key}): " + _addindent(repr(module), 2) for key, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


class _HookHandle:
    def __init__(self, table: dict[int, Any], key: int) -> None:
        self._table = table
        self._key = key

    def remove(self) -> None:
        self._table.pop(self._key, None)


_hook_ids = iter(range(1 << 62))


def _register(table: dict[int, Any], hook: Callable[..., Any]) -> _HookHandle:
    key = next(_hook_ids)
    table[key] = hook
    return _HookHandle(table, key)


def _size(t: Tensor) -> str:
    return f"torch.Size({list(t.shape)})"


def conversion_dtype(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The dtype of a module's `to(...)` call (`to(dtype)`, `to(device)`, `to(device, dtype)`,
    `to(tensor)`, or keywords), or None; a device other than the cpu is an error, and so is
    a dtype that is not floating point or complex."""
    kwargs = dict(kwargs)
    dtype = kwargs.pop("dtype", None)
    device = kwargs.pop("device", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("copy", None)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for a in args:
        if isinstance(a, dtype_class):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        else:
            device = a
    check_device(device)
    if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
        raise TypeError(
            f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}"
        )
    return dtype


def floating_converter(dtype: Any) -> Callable[[Tensor], Tensor]:
    """`t.to(dtype)` for floating-point and complex tensors; other tensors as they are."""

    def convert(t: Tensor) -> Tensor:
        if t.is_floating_point() or t.is_complex():
            return t.to(dtype)
        return t

    return convert


def load_state(
    slots: Iterable[tuple[str, Tensor, Callable[[Tensor], None]]],
    state_dict: Mapping[str, Any],
    strict: bool,
    assign: bool,
    owner: str,
) -> IncompatibleKeys:
    """Copy `state_dict`'s tensors into `slots` (key, target tensor, setter of a replacement).

    With `strict`, a missing or unexpected key is a `StateDictError` that lists them all; a
    tensor whose shape differs from its target's is an error either way. With `assign`, the
    slot takes the given tensor (as a Parameter where the target is one) instead of a copy.
    """
    if not isinstance(state_dict, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    missing: list[str] = []
    errors: list[str] = []
    expected: set[str] = set()
    with no_grad():
        for key, target, replace in slots:
            expected.add(key)
            if key not in state_dict:
                missing.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                errors.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or '
                    f"Tensor-like object from checkpoint but received {type(value)}"
                )
                continue
            if tuple(value.shape) != tuple(target.shape):
                errors.append(
                    f"size mismatch for {key}: copying a param with shape {_size(value)} from "
                    f"checkpoint, the shape in current model is {_size(target)}."
                )
                continue
            if assign:
                replace(
                    Parameter(value, target.requires_grad)
                    if isinstance(target, Parameter)
                    else value
                )
            else:
                target.copy_(value)
    unexpected = [k for k in state_dict if k not in expected]
    if strict:
        if unexpected:
            errors.insert(
                0,
                "Unexpected key(s) in state_dict: "
                + ", ".join(f'"{k}"' for k in unexpected)
                + ". ",
            )
        if missing:
            errors.insert(
                0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". "
            )
    if errors:
        raise StateDictError(
            f"Error(s) in loading state_dict for {owner}:\n\t" + "\n\t".join(errors)
        )
    return IncompatibleKeys(missing, unexpected)


__all__ = [
    "IncompatibleKeys",
    "Module",
    "StateDictError",
    "conversion_dtype",
    "floating_converter",
    "load_state",
]
