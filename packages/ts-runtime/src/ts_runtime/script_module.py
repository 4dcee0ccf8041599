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
from collections.abc import Iterator, Mapping
from typing import Any

from ts_ir import ClassType

from .autograd import no_grad
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
        self, names_attr: str, prefix: str, recurse: bool
    ) -> Iterator[tuple[str, Tensor]]:
        modules = self.named_modules(prefix) if recurse else iter([(prefix, self)])
        for module_prefix, m in modules:
            names = m.__dict__[names_attr]
            for name in m._type.attributes:
                if name in names:
                    value = m.__dict__[name]
                    if value is not None:
                        yield (f"{module_prefix}.{name}" if module_prefix else name), value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        return self._named_slots("_parameter_names", prefix, recurse)

    def parameters(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Tensor]]:
        return self._named_slots("_buffer_names", prefix, recurse)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def state_dict(self, prefix: str = "", keep_vars: bool = False) -> OrderedDict[str, Tensor]:
        """Parameters then buffers of each module, submodules after, by dotted name."""
        out: OrderedDict[str, Tensor] = OrderedDict()
        self._save_to(out, prefix, keep_vars)
        return out

    def _save_to(self, out: OrderedDict[str, Tensor], prefix: str, keep_vars: bool) -> None:
        for names_attr in ("_parameter_names", "_buffer_names"):
            for name, value in self._named_slots(names_attr, "", recurse=False):
                out[prefix + name] = value if keep_vars else value.detach()
        for name, child in self.named_children():
            child._save_to(out, f"{prefix}{name}.", keep_vars)

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True
    ) -> tuple[list[str], list[str]]:
        """Copy tensors into the parameters and buffers; (missing keys, unexpected keys)."""
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            raise KeyError(
                "error loading the state dict: "
                + (f"missing keys {missing}" if missing else "")
                + ("; " if missing and unexpected else "")
                + (f"unexpected keys {unexpected}" if unexpected else "")
            )
        with no_grad():
            for key, target in own.items():
                if key not in state_dict:
                    continue
                source = state_dict[key]
                if not isinstance(source, Tensor):
                    raise TypeError(f"state dict entry '{key}' is not a tensor")
                if tuple(source.shape) != tuple(target.shape):
                    raise ValueError(
                        f"size mismatch for '{key}': the module has {tuple(target.shape)}, the "
                        f"state dict {tuple(source.shape)}"
                    )
                target._data[...] = source._data.astype(target._data.dtype, copy=False)
        return missing, unexpected

    def train(self, mode: bool = True) -> ScriptModule:
        for m in self.modules():
            if "training" in m._type.attributes:
                m.__dict__["training"] = mode
        return self

    def eval(self) -> ScriptModule:
        return self.train(False)

    @property
    def training_mode(self) -> bool:
        return bool(self.__dict__.get("training", True))

    def __repr__(self) -> str:
        return f"<ScriptModule {self._type.qualified_name}>"
