"""The `Environment`: variables of the function being compiled, one frame per block.

Assigning a first-class value emits `prim::Store[name="x"](%v)` into the
current block and records the variable's type in the frame; reading it emits
`%x = prim::Load[name="x"]()`. Values that are not first-class (a module, a
Python function, `math`) are kept as sugared values in the frame instead.
`convert_to_ssa` later turns the loads and stores into SSA values, block
inputs and outputs, as TorchScript does.

Reassigning a variable of an enclosing block must keep its type (after
implicit conversions); a variable assigned different types in two branches
of an `if` is only an error when it is read afterwards, so frames keep such
deferred errors.
"""

from __future__ import annotations

from collections.abc import Callable

from ts_ir import (
    Block,
    Graph,
    ListType,
    NoneType,
    SourceRange,
    TensorType,
    Type,
    Value,
    unshaped_type,
)

from .errors import FrontendError, FrontendTypeError
from .kinds import LOAD, STORE
from .sugared_value import SimpleValue, SugaredValue

DeferredError = Callable[[SourceRange], FrontendError]


def meaningful_name(name: str) -> bool:
    """Whether a variable's name should name its values, as TorchScript's `meaningfulName`:
    not names the emitter makes up (`$iter`), nor temporaries of printed code (`_`, `_0`)."""
    if not name or name[0] == "$":
        return False
    if name[0] != "_":
        return True
    return not name[1:].isdigit() and name != "_"


class Frame:
    """The variables one block defines."""

    __slots__ = ("block", "errors", "refined", "sugared", "types")

    def __init__(self, block: Block) -> None:
        self.block = block
        self.types: dict[str, Type] = {}
        self.sugared: dict[str, SugaredValue] = {}
        self.errors: dict[str, DeferredError] = {}
        # attribute paths (`self.bias`) refined here, or FORGOTTEN once assigned
        self.refined: dict[str, Type | None] = {}

    def defined_variables(self) -> list[str]:
        return list(self.types)


class Environment:
    """A stack of frames over the blocks being emitted."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.frames: list[Frame] = []

    # -- frames

    def push(self, block: Block) -> Frame:
        frame = Frame(block)
        self.frames.append(frame)
        return frame

    def pop(self) -> Frame:
        return self.frames.pop()

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    @property
    def block(self) -> Block:
        return self.frames[-1].block

    # -- stores and loads

    def insert_store(self, name: str, loc: SourceRange | None, value: Value, type: Type) -> None:
        g = self.graph
        n = g.insert_node(g.create(STORE, [value], 0))
        n.s_("name", name)
        n.source_range = loc
        frame = self.frame
        frame.types[name] = type
        frame.errors.pop(name, None)

    def insert_load(self, name: str, type: Type) -> Value:
        g = self.graph
        n = g.insert_node(g.create(LOAD, [], 1))
        n.s_("name", name)
        out = n.output().set_type(type)
        if meaningful_name(name):
            out.set_debug_name(name)
        return out

    # -- lookups

    def find_in_frame(self, frame: Frame, name: str) -> SugaredValue | None:
        sugared = frame.sugared.get(name)
        if sugared is not None:
            return sugared
        t = frame.types.get(name)
        if t is not None:
            return SimpleValue(self.insert_load(name, t))
        return None

    def find_in_any_frame(self, name: str) -> SugaredValue | None:
        for frame in reversed(self.frames):
            found = self.find_in_frame(frame, name)
            if found is not None:
                return found
            if name in frame.errors:
                return None
        return None

    def find_type_in_any_frame(self, name: str) -> Type | None:
        for frame in reversed(self.frames):
            t = frame.types.get(name)
            if t is not None:
                return t
            if name in frame.sugared or name in frame.errors:
                return None
        return None

    def find_in_parent_frames(self, name: str) -> SugaredValue | None:
        for frame in reversed(self.frames[:-1]):
            if name in frame.sugared:
                return frame.sugared[name]
            t = frame.types.get(name)
            if t is not None:
                return SimpleValue(self.insert_load(name, t))
        return None

    def parent_type(self, name: str) -> Type | None:
        for frame in reversed(self.frames[:-1]):
            if name in frame.sugared:
                return None
            t = frame.types.get(name)
            if t is not None:
                return t
        return None

    def deferred_error(self, name: str) -> DeferredError | None:
        for frame in reversed(self.frames):
            if name in frame.types or name in frame.sugared:
                return None
            err = frame.errors.get(name)
            if err is not None:
                return err
        return None

    # -- setting

    def set_type(self, name: str, type: Type) -> None:
        """Record a variable's type in this frame without a store (after an `if`)."""
        self.frame.types[name] = type
        self.frame.errors.pop(name, None)

    def set_error(self, name: str, error: DeferredError) -> None:
        """Reading `name` from here on raises `error` (a branch left it undefined or mistyped)."""
        frame = self.frame
        frame.types.pop(name, None)
        frame.sugared.pop(name, None)
        frame.errors[name] = error

    def set_sugared(self, name: str, value: SugaredValue) -> None:
        self.frame.sugared[name] = value

    def is_defined_in_parent(self, name: str) -> bool:
        for frame in reversed(self.frames[:-1]):
            if name in frame.types or name in frame.sugared:
                return True
        return False

    # -- refined attributes

    def refine_attribute(self, path: str, type: Type) -> None:
        """`path` (`self.bias`) reads as `type` in this block (an `is not None` test held)."""
        self.frame.refined[path] = type

    def refined_attribute(self, path: str) -> Type | None:
        for frame in reversed(self.frames):
            if path in frame.refined:
                return frame.refined[path]
        return None

    def forget_refinements(self, name: str) -> None:
        """`name` was assigned: refinements of it and of attributes under it no longer hold."""
        prefix = name + "."
        for frame in self.frames:
            for key in [k for k in frame.refined if k == name or k.startswith(prefix)]:
                del frame.refined[key]
        if "." in name:
            self.frame.refined[name] = None

    def check_reassignment(
        self, name: str, value: Value, loc: SourceRange, convert: Callable[[Value, Type], Value]
    ) -> Value:
        """`value` converted to the type `name` has in an enclosing block, or a type error."""
        parent = self.parent_type(name)
        if parent is None:
            return value
        expected = unshaped_type(parent)
        converted = convert(value, expected)
        if not converted.type.is_subtype_of(expected):
            raise FrontendTypeError(
                f"variable '{name}' previously had type {parent.annotation_str()} but is now "
                f"being assigned a value of type {value.type.annotation_str()}",
                loc,
                hint=_reassign_hint(parent, value.type),
            )
        return converted


def _reassign_hint(parent: Type, new: Type) -> str:
    if isinstance(parent, ListType) and isinstance(new, ListType):
        if parent.element == TensorType.get() or new.element == TensorType.get():
            return (
                "an empty list is a List[Tensor]; annotate the first assignment "
                "(xs: List[int] = []) to make a list of another type"
            )
    if isinstance(parent, NoneType):
        return (
            f"the variable was first assigned None; annotate it "
            f"(x: Optional[{new.annotation_str()}] = None) to let it hold other values"
        )
    return "a variable keeps one type; use a new name for a value of another type"
