"""Shape rules of operators whose tensors come from elsewhere: dict and list plumbing, and
the autograd prims, the profiling executor's guard. Most can tell nothing beyond their schema (`declared_types`); the rule
says so explicitly, so that every operator with a kernel has an entry."""

from __future__ import annotations

from .core import declared_types, like_input, register_exact, shape_rules


def _register() -> None:
    r = shape_rules.register
    for key in (
        "aten::keys.Tensor",
        "aten::items.Tensor",
        "aten::copy.Dict_Tensor",
        "aten::dict.Tensor",
        "aten::dict.Dict_Tensor",
        "aten::popitem.Tensor",
        "aten::sorted.Tensor",
    ):
        r(key, declared_types)
    register_exact("aten::dict", declared_types)
    register_exact("prim::AutogradZero", declared_types)
    register_exact("prim::grad", declared_types)
    register_exact("prim::data", like_input(0))
    # a guard's result has the type it checks, which its output already carries
    register_exact("prim::Guard", declared_types)


_register()
