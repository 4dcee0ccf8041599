"""Views of `prim::Loop` and `prim::If` nodes by role, as PyTorch's `ir_views.h`.

A loop's positions are fixed but easy to get wrong by hand (`inputs[2:]`,
`body.inputs[1 + i]`); these name them:

    %y.1 : T = prim::Loop(%max_trip_count, %input_cond, %x.1)   LoopView(node):
      block0(%i : int, %x.2 : T):                             .current_trip_count, .body_carried_inputs
        ...
        -> (%next_cond, %x.3)                                 .next_cond, .body_carried_outputs
                                                              .carried_inputs == (%x.1,), .carried_outputs == (%y.1,)

    %r : T = prim::If(%cond)                                  IfView(node): .cond
      block0():  -> (%a)                                      .then_block, .then_outputs
      block1():  -> (%b)                                      .else_block, .else_outputs

The i-th carried value of a loop appears four times (node input, body input,
body output, node output); `LoopView.carried(i)` gives them together and
`remove_carried(i)` removes all four. A view holds no state of its own: it
stays valid while the node is edited.
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import IRError
from .ir import Block, Node, Value
from .symbol import prim
from .types import Type

#: the loop's inputs before the carried values: max trip count, initial condition
LOOP_CARRIED_INPUTS_START = 2
#: the body's inputs (and outputs) before the carried values: trip count (next condition)
LOOP_BODY_CARRIED_START = 1


class Carried(NamedTuple):
    """The four values of one loop-carried variable."""

    initial: Value  # the loop's input
    body_input: Value  # the body's parameter: the value at the start of an iteration
    body_output: Value  # what the body yields for the next iteration
    final: Value  # the loop's output


class LoopView:
    """A `prim::Loop` node by role (see the module docstring)."""

    __slots__ = ("node",)

    def __init__(self, node: Node) -> None:
        if node.kind is not prim.Loop:
            raise IRError(f"LoopView of a {node.kind} node")
        self.node = node

    @property
    def body(self) -> Block:
        return self.node.blocks[0]

    @property
    def max_trip_count(self) -> Value:
        return self.node.inputs[0]

    @property
    def input_cond(self) -> Value:
        return self.node.inputs[1]

    @property
    def current_trip_count(self) -> Value:
        return self.body.inputs[0]

    @property
    def next_cond(self) -> Value:
        return self.body.outputs[0]

    @property
    def carried_inputs(self) -> tuple[Value, ...]:
        return tuple(self.node.inputs[LOOP_CARRIED_INPUTS_START:])

    @property
    def body_carried_inputs(self) -> tuple[Value, ...]:
        return tuple(self.body.inputs[LOOP_BODY_CARRIED_START:])

    @property
    def body_carried_outputs(self) -> tuple[Value, ...]:
        return tuple(self.body.outputs[LOOP_BODY_CARRIED_START:])

    @property
    def carried_outputs(self) -> tuple[Value, ...]:
        return tuple(self.node.outputs)

    def num_carried(self) -> int:
        return len(self.node.outputs)

    def carried(self, i: int) -> Carried:
        """The i-th carried variable's four values."""
        return Carried(
            self.node.inputs[LOOP_CARRIED_INPUTS_START + i],
            self.body.inputs[LOOP_BODY_CARRIED_START + i],
            self.body.outputs[LOOP_BODY_CARRIED_START + i],
            self.node.outputs[i],
        )

    def all_carried(self) -> list[Carried]:
        return [self.carried(i) for i in range(self.num_carried())]

    def remove_carried(self, i: int) -> None:
        """Remove the i-th carried variable: its loop input, body input, body output and
        loop output. The body input and loop output must have no uses left."""
        self.node.remove_input(LOOP_CARRIED_INPUTS_START + i)
        self.body.erase_input(LOOP_BODY_CARRIED_START + i)
        self.body.erase_output(LOOP_BODY_CARRIED_START + i)
        self.node.erase_output(i)

    def insert_carried_input(self, i: int, initial: Value) -> None:
        """Make `initial` the loop's i-th carried input (the caller adds the rest)."""
        self.node.insert_input(LOOP_CARRIED_INPUTS_START + i, initial)

    def insert_body_carried_input(self, i: int, type: Type | None = None) -> Value:
        return self.body.insert_input(LOOP_BODY_CARRIED_START + i, type=type)

    def insert_body_carried_output(self, i: int, value: Value) -> None:
        self.body.insert_output(LOOP_BODY_CARRIED_START + i, value)

    def replace_max_trip_count(self, value: Value) -> None:
        self.node.replace_input(0, value)

    def replace_input_cond(self, value: Value) -> None:
        self.node.replace_input(1, value)

    def replace_carried_input(self, i: int, value: Value) -> None:
        self.node.replace_input(LOOP_CARRIED_INPUTS_START + i, value)

    def remove_carried_input(self, i: int) -> Value:
        return self.node.remove_input(LOOP_CARRIED_INPUTS_START + i)

    def erase_body_carried_input(self, i: int) -> None:
        self.body.erase_input(LOOP_BODY_CARRIED_START + i)

    def erase_body_carried_output(self, i: int) -> None:
        self.body.erase_output(LOOP_BODY_CARRIED_START + i)

    def __repr__(self) -> str:
        return f"LoopView({self.node!r})"


class IfView:
    """A `prim::If` node by role (see the module docstring)."""

    __slots__ = ("node",)

    def __init__(self, node: Node) -> None:
        if node.kind is not prim.If:
            raise IRError(f"IfView of a {node.kind} node")
        self.node = node

    @property
    def cond(self) -> Value:
        return self.node.inputs[0]

    @property
    def then_block(self) -> Block:
        return self.node.blocks[0]

    @property
    def else_block(self) -> Block:
        return self.node.blocks[1]

    @property
    def then_outputs(self) -> tuple[Value, ...]:
        return tuple(self.then_block.outputs)

    @property
    def else_outputs(self) -> tuple[Value, ...]:
        return tuple(self.else_block.outputs)

    @property
    def outputs(self) -> tuple[Value, ...]:
        return tuple(self.node.outputs)

    def remove_output(self, i: int) -> None:
        """Remove output i and what each branch yields for it (it must have no uses)."""
        self.then_block.erase_output(i)
        self.else_block.erase_output(i)
        self.node.erase_output(i)

    def __repr__(self) -> str:
        return f"IfView({self.node!r})"
