"""Operator tags: what passes need to know about an operator beyond its schema.

A tag belongs to an operator name (all its overloads, and nodes of that kind
that match no schema, such as `prim::Print`). It is declared once: for the
builtin operators in `BUILTIN_TAGS` below, for any other operator where it is
registered (`@operator(schema, tags={Tag.side_effect})`, or
`registry.tag(name, ...)`). Passes ask `registry.tags_of(node)` instead of
keeping lists of names, as xDSL asks an operation for its traits and torch.fx
for `has_side_effect`:

    dead code elimination, CSE, reordering   Tag.side_effect
    CSE, constant propagation                Tag.nondeterministic
    constant propagation                     Tag.no_fold
    alias analysis                           Tag.creates_fresh
    fusion's size outputs, graph fuser       Tag.shape_of_first
    in-place dispatch                        Tag.idempotent_write
    frontend dead code, executor plans       Tag.calls
    fusion runtime, profiling passes         Tag.type_check
    interpreter and device dispatch          Tag.to_cuda
    printing Python                          Tag.autograd_function, Tag.python_builtin
"""

from __future__ import annotations

import enum


class Tag(enum.Enum):
    side_effect = "side_effect"
    """Running it does something besides computing its outputs (prints, raises, sets an
    attribute, calls a function): never removed, merged or reordered."""
    nondeterministic = "nondeterministic"
    """Two runs on the same inputs may give different results (random numbers): never merged
    or evaluated at compile time."""
    no_fold = "no_fold"
    """Never evaluated at compile time, even on constant inputs (control flow, calls, waits,
    nodes whose result is not a value known before running)."""
    creates_fresh = "creates_fresh"
    """Its outputs are new values that alias nothing existing before it (constants, new
    objects), whatever its schema says."""
    shape_of_first = "shape_of_first"
    """A pointwise operator whose tensor result has the shape of its first operand alone,
    not the broadcast of all its tensor operands (`type_as`, `to`)."""
    idempotent_write = "idempotent_write"
    """An in-place operator whose result does not depend on the order elements are written
    in (`fill_`, `zero_`): it may write a tensor whose elements share memory (an expanded
    view), as PyTorch allows."""
    calls = "calls"
    """Runs code that is not in the graph (a function, a method, a forked subgraph, Python):
    what that code does (write attributes, create tensors that require grad) cannot be seen
    from the node, so it is kept alive and no plan assumes anything about what it does."""
    type_check = "type_check"
    """Passes its inputs on only after checking at run time that they have their outputs'
    static types (else it bails out or falls back): its outputs have exactly those types
    when the code after it runs (the profiling executor's guards and checks)."""
    to_cuda = "to_cuda"
    """Its result is on the CUDA device although no argument names a device (`x.cuda()`):
    a graph calling it needs the device, and dispatch runs it there."""
    autograd_function = "autograd_function"
    """Python code calls it as `torch.autograd.<name>` (`backward`, `grad`), not as
    `torch.<name>`; printed Python spells it so."""
    python_builtin = "python_builtin"
    """Python code calls it as the builtin function of its name, lower-cased (`int(x)` for
    `aten::Int`, `sorted(xs)`); printed Python spells it so, as TorchScript does."""


NO_TAGS: frozenset[Tag] = frozenset()

_S, _N, _F, _C = Tag.side_effect, Tag.nondeterministic, Tag.no_fold, Tag.creates_fresh


def _names(prefix: str, names: str) -> tuple[str, ...]:
    return tuple(f"{prefix}::{n}" for n in names.split())


#: The builtin operators' tags, by name (TorchScript's Node::hasSideEffects,
#: isNondeterministic, the constant propagation skip list and the kinds alias
#: analysis creates fresh values for).
BUILTIN_TAGS: dict[str, frozenset[Tag]] = {}


def _declare(names: tuple[str, ...], *tags: Tag) -> None:
    for name in names:
        BUILTIN_TAGS[name] = BUILTIN_TAGS.get(name, NO_TAGS) | frozenset(tags)


_declare(
    _names(
        "prim",
        "PythonOp IgnoredPythonOp Print RaiseException SetAttr AddStatValue TimePoint "
        "CallFunction CallMethod BailoutTemplate BailOut rpc_async rpc_sync rpc_remote "
        "Enter Exit",
    )
    + _names("aten", "warn save manual_seed wait set_grad_enabled")
    + _names("cuda", "set_stream _set_device _current_device synchronize"),
    _S,
)
_declare(
    _names(
        "aten",
        "dropout feature_dropout alpha_dropout feature_alpha_dropout _fused_dropout "
        "native_dropout _standard_gamma bernoulli multinomial normal poisson binomial rrelu "
        "rrelu_with_noise rand rand_like randint randint_like randn randn_like randperm uniform "
        "exponential geometric log_normal cauchy bernoulli_ uniform_ normal_ random_ "
        "exponential_ geometric_ log_normal_ cauchy_ seed initial_seed",
    ),
    _N,
)
_declare(
    _names(
        "prim",
        "If Loop Closure Constant AutogradZero Uninitialized Guard profile profile_ivalue "
        "unchecked_unwrap_optional awaitable fork RaiseException Print CallFunction CallMethod "
        "GetAttr SetAttr CreateObject isinstance Enter Exit FusionGroup DifferentiableGraph "
        "BailOut TypeCheck RequiresGradCheck",
    )
    + _names("aten", "dequantize wait warn"),
    _F,
)
_declare(
    _names(
        "prim",
        "Constant AutogradZero AutogradAdd FusedConcat MMTreeReduce MMBatchSide BroadcastSizes "
        "ChunkSizes Closure CreateObject tolist Uninitialized EmptyListLiteral TensorExprGroup "
        "StaticSubgraph",
    ),
    _C,
)
_declare(_names("aten", "type_as to"), Tag.shape_of_first)
_declare(_names("aten", "fill_ zero_"), Tag.idempotent_write)
_declare(_names("prim", "CallFunction CallMethod fork PythonOp"), Tag.calls)
_declare(_names("prim", "Guard BailOut TypeCheck"), Tag.type_check)
_declare(_names("aten", "cuda"), Tag.to_cuda)
_declare(_names("aten", "backward grad"), Tag.autograd_function)
_declare(_names("aten", "Int Float Bool str sorted"), Tag.python_builtin)
