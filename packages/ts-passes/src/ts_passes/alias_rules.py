"""Alias-analysis rules for the node kinds whose schema does not say how they alias.

TorchScript's `AliasDb::analyzeImpl` is a switch over special kinds; here it is
a table. `AliasDb` asks `ALIAS_RULES.get(node.kind)`; a kind without a rule is
analyzed from its schema's alias annotations (`from_schema`), except that a
kind tagged `Tag.creates_fresh` (`prim::Constant`, `prim::CreateObject`, ...)
gets fresh outputs. Each rule records, in the `AliasDb` being built, what the
node's outputs point to and what it writes:

    prim::If                 outputs point to both blocks' outputs
    prim::Loop               carried values point to the initial values, the body's
                             outputs, and (the next iteration) each other
    prim::FusionGroup, ...   a subgraph: its inputs point to the node's, the node's
                             outputs to its outputs
    prim::TupleConstruct,    a fresh container holding its inputs (wildcards unless
    ListConstruct,           the container is used only by cat/stack, or is a tuple
                             or list the graph returns)
    DictConstruct
    prim::TupleUnpack, ...   extractors: outputs are wildcards (a frozen module's
                             GetAttr of a submodule is fresh)
    prim::unchecked_cast,... the output points to the first input
    prim::ConstantChunk      every output points to the input
    prim::BroadcastingChunk  the outputs of each input's chunks point to that input
    prim::SetAttr            writes the object; the value becomes a wildcard
    prim::fork               inputs become wildcards; the future is fresh
    aten::wait               outputs are wildcards; it may write every wildcard
    prim::CallFunction, ...  conservative: writes every mutable input, all wildcards
    prim::Print, ...         fresh outputs, no writes
    aten::batch_norm,        fresh outputs; writes running_mean/var unless the
    instance_norm            training flag is the constant False (or frozen)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ts_ir import ClassType, IfView, ListType, LoopView, Node, TupleType, maybe_constant, prim
from ts_schema import AliasAnalysisKind, Tag, registry

if TYPE_CHECKING:
    from .alias_analysis import AliasDb

AliasRule = Callable[["AliasDb", Node], None]


def fresh_outputs(db: AliasDb, node: Node) -> None:
    """Every output is a new value (creators, prints, isinstance)."""
    for v in node.outputs:
        db._give_fresh_alias(v)


def wildcard_outputs(db: AliasDb, node: Node) -> None:
    """Extractors (`prim::TupleUnpack`, `prim::ListUnpack`, `prim::GetAttr`, ...): an element
    taken out of a container may be anything of its type."""
    if db.is_frozen and node.kind is prim.GetAttr:
        t = node.input().type
        if isinstance(t, ClassType) and t.is_module:
            fresh_outputs(db, node)
            return
    for v in node.outputs:
        db._set_wildcard(v)


def if_outputs(db: AliasDb, node: Node) -> None:
    """`%r = prim::If(%c)`: `%r` points to the output of each block at its position."""
    view = IfView(node)
    db._analyze_block(view.then_block)
    db._analyze_block(view.else_block)
    for out, a, b in zip(view.outputs, view.then_outputs, view.else_outputs, strict=True):
        db._make_pointer_to(out, a)
        db._make_pointer_to(out, b)


def loop_carried(db: AliasDb, node: Node) -> None:
    """`%o = prim::Loop(%n, %c, %init)`, body `(%i, %x) -> (%c2, %y)`: `%x` points to `%init`
    and to `%y` (the next iteration), `%o` to `%y` and to `%init` (zero iterations)."""
    loop = LoopView(node)
    for carried in loop.all_carried():
        db._make_pointer_to(carried.body_input, carried.initial)
    db._analyze_block(loop.body)
    for carried in loop.all_carried():
        db._make_pointer_to(carried.final, carried.body_output)
        db._make_pointer_to(carried.final, carried.initial)
        db._make_pointer_to(carried.body_input, carried.body_output)


def subgraph(db: AliasDb, node: Node) -> None:
    """A node holding a `Subgraph` (FusionGroup, DifferentiableGraph, ...): analyzed through
    it; without one, from its schema."""
    if not node.has_attribute("Subgraph"):
        from_schema(db, node)
        return
    sub = node.g("Subgraph")
    for s, v in zip(sub.inputs, node.inputs, strict=False):
        db._make_pointer_to(s, v)
    db._analyze_block(sub.block)
    for out, s in zip(node.outputs, sub.outputs, strict=False):
        db._make_pointer_to(out, s)


#: aten ops whose list argument, used once, does not escape (PyTorch's
#: functionalNonEscapingListUse)
NON_ESCAPING_LIST_USERS = frozenset(
    f"aten::{k}" for k in ("cat", "broadcast_tensors", "stack", "vstack", "hstack", "dstack")
)


def container(db: AliasDb, node: Node) -> None:
    """`prim::ListConstruct(%a, %b)` and tuple/dict constructs: a fresh container that contains
    its inputs. The inputs become wildcards, since anything may take them out again, unless
    the container's one use cannot let them out (`aten::cat`, the graph returning a tuple
    or a list; a dict returned lets them out)."""
    out = node.output()
    if not db.is_mutable_type(out):
        return
    uses = out.uses
    if len(uses) == 1 and _non_escaping_use(db, uses[0].user, out):
        db._give_fresh_alias(out, contained_wildcards=False)
        for v in node.inputs:
            db._add_to_contained(v, out)
        return
    db._give_fresh_alias(out)
    cont = db._elements[out]
    for v in node.inputs:
        w = db._set_wildcard(v)
        if w is not None:
            db.dag.add_to_contained(w, cont)


def _non_escaping_use(db: AliasDb, user: Node, value: object) -> bool:
    if user.kind is prim.Return:
        # a tuple or list returned from the graph: nothing later can take the elements out;
        # a dict returned lets them escape, as PyTorch (2.13) has it
        returned = user.owning_block is db.graph.block
        return returned and isinstance(value.type, (TupleType, ListType))  # type: ignore[attr-defined]
    if not isinstance(value.type, ListType):  # type: ignore[attr-defined]
        return False
    if user.kind in NON_ESCAPING_LIST_USERS:
        return True
    op = registry.operator_for(user)
    return op is not None and op.alias_analysis is AliasAnalysisKind.PURE_FUNCTION


def point_to_first_input(db: AliasDb, node: Node) -> None:
    """`prim::unchecked_cast`, `prim::profile`, `prim::Guard`, ...: the output is its input."""
    if node.inputs and node.outputs:
        db._make_pointer_to(node.output(0), node.inputs[0])


def check_outputs(db: AliasDb, node: Node) -> None:
    """The profiling executor's checks return what they check: `prim::BailOut`'s output is the
    value it guards (its second input), `prim::TypeCheck`'s outputs are its inputs, and a
    TypeCheck's last output, whether they matched, is new."""
    checked = node.inputs[1:2] if node.kind is prim.BailOut else node.inputs
    for v, out in zip(checked, node.outputs, strict=False):
        db._make_pointer_to(out, v)
    for out in node.outputs[len(checked) :]:
        db._give_fresh_alias(out)


def constant_chunk(db: AliasDb, node: Node) -> None:
    """`prim::ConstantChunk`: every chunk is a view of the input."""
    for v in node.outputs:
        db._make_pointer_to(v, node.input(0))


def broadcasting_chunk(db: AliasDb, node: Node) -> None:
    """`prim::BroadcastingChunk[chunks=k](%a, %b)`: the first k outputs view `%a`, the next k
    view `%b`, ..."""
    chunks = node.i("chunks")
    for i, inp in enumerate(node.inputs):
        for v in node.outputs[i * chunks : (i + 1) * chunks]:
            db._make_pointer_to(v, inp)


def set_attr(db: AliasDb, node: Node) -> None:
    """`prim::SetAttr[name=..](%obj, %value)`: writes `%obj`; `%value` may now be reached
    through it by anything."""
    db._register_write(node.inputs[0], node)
    db._set_wildcard(node.inputs[1])


def fork(db: AliasDb, node: Node) -> None:
    """`prim::fork`: the forked function may do anything with the inputs; the future is new."""
    for v in node.inputs:
        db._set_wildcard(v)
    fresh_outputs(db, node)


def wait(db: AliasDb, node: Node) -> None:
    """`aten::wait(%future)`: its result may be anything, and the forked work may have
    written any wildcard by now."""
    for v in node.outputs:
        db._set_wildcard(v)
    db._writes_all_wildcards.append(node)


def conservative(db: AliasDb, node: Node) -> None:
    """Calls and `with` (`prim::CallFunction`, `prim::Enter`, ...), and operators registered
    CONSERVATIVE: may write everything their inputs reach, and return anything."""
    for v in node.inputs:
        if db.is_mutable_type(v):
            db._register_write(v, node, contained=True)
            db._set_wildcard(v)
    for v in node.outputs:
        db._set_wildcard(v)


def norm(db: AliasDb, node: Node) -> None:
    """`aten::batch_norm` / `aten::instance_norm`: fresh outputs; they update `running_mean`
    and `running_var` in place unless training is the constant False (or the graph is
    frozen), which their schemas do not say."""
    fresh_outputs(db, node)
    schema = node.maybe_schema()
    if schema is None or db.is_frozen:
        return
    flag_name = "training" if node.kind == "aten::batch_norm" else "use_input_stats"
    index = schema.argument_index_with_name(flag_name)
    if index is not None and maybe_constant(node.inputs[index]) is False:
        return
    for name in ("running_mean", "running_var"):
        i = schema.argument_index_with_name(name)
        if i is not None:
            db._register_write(node.inputs[i], node)


def from_schema(db: AliasDb, node: Node) -> None:
    """The default: what the schema's alias annotations say (`AliasDb._analyze_from_schema`)."""
    db._analyze_from_schema(node)


def _rules(kinds: str, rule: AliasRule, ns: str = "prim") -> dict[str, AliasRule]:
    return {f"{ns}::{k}": rule for k in kinds.split()}


#: The rule of each special kind (see the module docstring).
ALIAS_RULES: dict[str, AliasRule] = {
    "prim::If": if_outputs,
    "prim::Loop": loop_carried,
    **_rules("FusionGroup DifferentiableGraph FallbackGraph FunctionalGraph CudaFusionGroup", subgraph),
    **_rules("TupleConstruct ListConstruct DictConstruct", container),
    **_rules("TupleUnpack TupleIndex TupleSlice ListUnpack PythonOp GetAttr", wildcard_outputs),
    **_rules("unchecked_cast profile profile_ivalue Guard unchecked_unwrap_optional", point_to_first_input),
    **_rules("BailOut TypeCheck", check_outputs),
    "prim::ConstantChunk": constant_chunk,
    "prim::BroadcastingChunk": broadcasting_chunk,
    "prim::SetAttr": set_attr,
    "prim::fork": fork,
    "aten::wait": wait,
    **_rules("CallFunction CallMethod Enter Exit Load Store", conservative),
    **_rules("Print isinstance RaiseException", fresh_outputs),
    **_rules("batch_norm instance_norm", norm, "aten"),
}  # fmt: skip


def rule_for(node: Node) -> AliasRule:
    """The rule that analyzes `node`: its kind's, else fresh outputs for a kind tagged
    `Tag.creates_fresh`, else its schema's annotations."""
    rule = ALIAS_RULES.get(node.kind)
    if rule is not None:
        return rule
    if Tag.creates_fresh in registry.tags_of(node):
        return fresh_outputs
    return from_schema
