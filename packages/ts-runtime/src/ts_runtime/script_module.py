"""`ScriptModule`: the runtime object of a scripted module.

A scripted module is an instance of a `ClassType` (`__torch__.pkg.MLP`):
its parameters, buffers, submodules and other attributes are slots named by
the type, and its methods are `Function`s taking `self` first, kept in
`class_type.methods`. Slots live in the instance `__dict__`, so the
interpreter's `prim::GetAttr` (a plain `getattr`) costs one dictionary
lookup; `prim::SetAttr` goes through `__setattr__`, which only checks that
the slot exists. `prim::CallMethod` finds bound methods the same way (they
are made on first use and cached on the instance).

    m = ScriptModule(class_type, {"fc1": sub, "scale": 3.0}, parameters=set(), buffers=set())
    m(x)                 # m.forward(x)
    m.state_dict()       # parameters and buffers by dotted name
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Any

from ts_ir import ClassType

from .autograd import no_grad
from .dtypes import float16, float32, float64
from .tensor import Tensor

_INTERNAL = frozenset({"_type", "_parameter_names", "_buffer_names", "_module_names"})


class BoundMethod:
    """A method of a scripted module bound to its instance; call it like the Python method."""

    __slots__ = ("function", "module")

    def __init__(self, module: ScriptModule, function: Any) -> None:
        self.module = module
        self.function = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(self.module, *args, **kwargs)

    @property
    def name(self) -> str:
        return self.function.name

    @property
    def graph(self) -> Any:
        return self.function.graph

    @property
    def schema(self) -> Any:
        return self.function.schema

    @property
    def code(self) -> str:
        return self.function.code

    @property
    def inlined_graph(self) -> Any:
        return self.function.inlined_graph

    def graph_for(self, *args: Any, **kwargs: Any) -> Any:
        return self.function.graph_for(self.module, *args, **kwargs)

    def code_for(self, *args: Any, **kwargs: Any) -> Any:
        """The interpreter `Code` a call with these arguments runs."""
        return self.function.code_for(self.module, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<bound method {self.function.name} of {self.module._type.qualified_name}>"


class ScriptModule:
    """An instance of a module ClassType: attribute slots and compiled methods."""

    def __init__(
        self,
        class_type: ClassType,
        attributes: Mapping[str, Any],
        *,
        parameters: set[str] | None = None,
        buffers: set[str] | None = None,
    ) -> None:
        d = self.__dict__
        d["_type"] = class_type
        d["_parameter_names"] = frozenset(parameters or ())
        d["_buffer_names"] = frozenset(buffers or ())
        d["_module_names"] = frozenset(
            name for name, value in attributes.items() if isinstance(value, ScriptModule)
        )
        for name in class_type.attributes:
            if name not in attributes:
                raise KeyError(f"no value for attribute '{name}' of {class_type.qualified_name}")
            d[name] = attributes[name]

    # -- attributes and methods

    def __getattr__(self, name: str) -> Any:
        # only reached when `name` is not a slot: methods are bound on first use
        fn = self.__dict__["_type"].methods.get(name)
        if fn is not None:
            bound = BoundMethod(self, fn)
            self.__dict__[name] = bound
            return bound
        raise AttributeError(
            f"'{self.__dict__['_type'].qualified_name}' scripted module has no attribute '{name}'"
        )

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self.__dict__["_type"].attributes:
            self.__dict__[name] = value
            return
        raise AttributeError(
            f"cannot add attribute '{name}' to a scripted module of type "
            f"'{self.__dict__['_type'].qualified_name}' (its attributes are fixed when compiled)"
        )

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._type.methods))

    @property
    def original_name(self) -> str:
        return self._type.name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def method(self, name: str) -> BoundMethod:
        fn = self._type.methods.get(name)
        if fn is None:
            raise AttributeError(f"{self._type.qualified_name} has no method '{name}'")
        return BoundMethod(self, fn)

    @property
    def graph(self) -> Any:
        return self.method("forward").graph

    @property
    def code(self) -> str:
        return self.method("forward").code

    @property
    def inlined_graph(self) -> Any:
        return self.method("forward").inlined_graph

    def graph_for(self, *args: Any, **kwargs: Any) -> Any:
        return self.method("forward").graph_for(*args, **kwargs)

    def code_for(self, *args: Any, **kwargs: Any) -> Any:
        return self.method("forward").code_for(*args, **kwargs)

    # -- parameters, buffers, submodules

    def named_children(self) -> Iterator[tuple[str, ScriptModule]]:
        for name in self._type.attributes:
            if name in self._module_names:
                yield name, self.__dict__[name]

    def children(self) -> Iterator[ScriptModule]:
        for _, m in self.named_children():
            yield m

    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, ScriptModule]]:
        yield prefix, self
        for name, child in self.named_children():
            yield from child.named_modules(f"{prefix}.{name}" if prefix else name)

    def modules(self) -> Iterator[ScriptModule]:
        for _, m in self.named_modules():
            yield m

    def _named_slots(
        self, names_attr: str, prefix: str, recurse: bool, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        modules = self.named_modules(prefix) if recurse else iter([(prefix, self)])
        seen: set[int] = set()
        for module_prefix, m in modules:
            names = m.__dict__[names_attr]
            for name in m._type.attributes:
                if name in names:
                    value = m.__dict__[name]
                    if value is None or (remove_duplicate and id(value) in seen):
                        continue
                    seen.add(id(value))
                    yield (f"{module_prefix}.{name}" if module_prefix else name), value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        """Parameters by dotted name, each module's before its submodules', shared ones once."""
        return self._named_slots("_parameter_names", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        return self._named_slots("_buffer_names", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def _non_persistent(self) -> frozenset[str]:
        """Buffers left out of the state dict (`register_buffer(..., persistent=False)`)."""
        original = self.__dict__.get("_original")
        return frozenset(getattr(original, "_non_persistent_buffers", ()))

    def _state_slots(self) -> Iterator[tuple[str, Tensor]]:
        """(slot name, tensor) of this module's own state-dict entries, in order."""
        skip = self._non_persistent()
        yield from self._named_slots("_parameter_names", "", recurse=False, remove_duplicate=False)
        for name, value in self._named_slots("_buffer_names", "", False, remove_duplicate=False):
            if name not in skip:
                yield name, value

    def state_dict(self, prefix: str = "", keep_vars: bool = False) -> OrderedDict[str, Tensor]:
        """Parameters then persistent buffers of each module, submodules after, by dotted name."""
        out: OrderedDict[str, Tensor] = OrderedDict()
        for module_prefix, m in self.named_modules():
            pre = prefix + (module_prefix + "." if module_prefix else "")
            for name, value in m._state_slots():
                out[pre + name] = value if keep_vars else value.detach()
        return out

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ) -> Any:
        """Copy `state_dict`'s tensors into the parameters and buffers of the same names, with
        `nn.Module.load_state_dict`'s checks, errors and result (missing, unexpected keys)."""
        from .nn.module import load_state

        slots = []
        for module_prefix, m in self.named_modules():
            pre = module_prefix + "." if module_prefix else ""
            for name, value in m._state_slots():
                slots.append((pre + name, value, partial(_set_slot, m, name)))
        return load_state(slots, state_dict, strict, assign, self._type.name)

    # -- modes, gradients and conversions

    def train(self, mode: bool = True) -> ScriptModule:
        """Set `training` on this module and every submodule: compiled code reads it."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            if "training" in m._type.attributes:
                m.__dict__["training"] = mode
        return self

    def eval(self) -> ScriptModule:
        return self.train(False)

    @property
    def training_mode(self) -> bool:
        return bool(self.__dict__.get("training", True))

    def requires_grad_(self, requires_grad: bool = True) -> ScriptModule:
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

    def _apply(self, fn: Callable[[Tensor], Tensor]) -> ScriptModule:
        """Apply `fn` to every parameter (in place: the parameter keeps its identity, so the
        eager module and lists holding it see the change), its gradient, and every buffer."""
        with no_grad():
            for m in self.modules():
                for name in m._type.attributes:
                    value = m.__dict__.get(name)
                    if value is None:
                        continue
                    if name in m._parameter_names:
                        new = fn(value)
                        if new is not value:
                            value.data = new
                            if value.grad is not None:
                                value.grad = fn(value.grad)
                    elif name in m._buffer_names:
                        m.__dict__[name] = fn(value)
        return self

    def to(self, *args: Any, **kwargs: Any) -> ScriptModule:
        """Convert floating-point parameters and buffers to a dtype, as `nn.Module.to`."""
        from .nn.module import conversion_dtype, floating_converter

        dtype = conversion_dtype(args, kwargs)
        if dtype is None:
            return self
        return self._apply(floating_converter(dtype))

    def float(self) -> ScriptModule:
        return self.to(float32)

    def double(self) -> ScriptModule:
        return self.to(float64)

    def half(self) -> ScriptModule:
        return self.to(float16)

    def cpu(self) -> ScriptModule:
        return self

    def type(self, dst_type: Any) -> ScriptModule:
        return self.to(dst_type)

    def __repr__(self) -> str:
        return f"<ScriptModule {self._type.qualified_name}>"


def _set_slot(module: ScriptModule, name: str, value: Any) -> None:
    module.__dict__[name] = value
