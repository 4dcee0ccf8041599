"""Where each value dies: move-on-last-use flags and explicit drops.

For every value, find its last use in program order, taking control flow
into account as TorchScript's interpreter does:

- A use inside a loop body that does not define the value is never the last
  one (the body may run again); the value dies after the loop instead.
- If the last use is inside one branch of a `prim::If`, the value dies there,
  and the other branch drops it on entry.

The result says, per node, which inputs are moved (their register is freed
when the node has run) and which values to drop before or after a node or at
the start of a block.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ts_ir import Block, Node, Value, prim


@dataclass
class Liveness:
    # (node, input index) pairs whose register dies with this use
    moves: set[tuple[int, int]] = field(default_factory=set)
    # values to free right after a node (last used by a loop inside it, or unused outputs)
    drops_after: dict[int, list[Value]] = field(default_factory=dict)
    # values to free on entry to a block (last used in the other branch of an If)
    drops_on_entry: dict[int, list[Value]] = field(default_factory=dict)

    def is_move(self, node: Node, i: int) -> bool:
        return (id(node), i) in self.moves


def _anchor(user: Node, home: Block) -> Node | None:
    """The ancestor of `user` (or `user`) that sits directly in block `home`."""
    n: Node | None = user
    while n is not None and n.owning_block is not home:
        n = n.owning_block.owning_node if n.owning_block is not None else None
    return n


def _inside_loop_below(user: Node, home: Block) -> bool:
    """Whether `user` is in the body of a loop nested inside `home`."""
    n: Node | None = user
    while n is not None and n.owning_block is not home:
        owner = n.owning_block.owning_node if n.owning_block is not None else None
        if owner is not None and owner.kind is prim.Loop:
            return True
        n = owner
    return False


def analyze(block: Block, result: Liveness | None = None) -> Liveness:
    """Liveness of every value defined in `block` and its nested blocks."""
    live = result or Liveness()
    for v in block.inputs:
        _place(v, block, live)
    for node in block.nodes():
        for b in node.blocks:
            analyze(b, live)
        for v in node.outputs:
            _place(v, block, live)
    return live


def _place(v: Value, home: Block, live: Liveness) -> None:
    if v.node.kind is prim.Constant:
        return  # constants live in the constant table, not in registers that die
    if not v.uses:
        live.drops_after.setdefault(id(v.node), []).append(v)
        return
    _place_in(v, home, [u for u in v.uses], live)


def _place_in(v: Value, home: Block, uses: list, live: Liveness) -> None:
    last: Node | None = None
    for use in uses:
        a = _anchor(use.user, home)
        if a is None:  # used by the block's return: lives to the end
            continue
        if last is None or a.is_after(last):
            last = a
    if last is None or any(u.user is home.return_node for u in uses):
        return  # returned from the block: the caller takes it
    at_last = [u for u in uses if _anchor(u.user, home) is last]
    direct = [u for u in at_last if u.user is last]
    nested = [u for u in at_last if u.user is not last]
    if nested:
        if last.kind is prim.If and not any(_inside_loop_below(u.user, home) for u in nested):
            if direct:  # used as the condition and inside a branch: free after the If
                live.drops_after.setdefault(id(last), []).append(v)
                return
            for b in last.blocks:
                in_branch = [u for u in nested if _in_block(u.user, b)]
                if in_branch:
                    _place_in(v, b, in_branch, live)
                else:
                    live.drops_on_entry.setdefault(id(b), []).append(v)
            return
        live.drops_after.setdefault(id(last), []).append(v)
        return
    # a plain use: the last input slot holding v moves it
    slot = max(u.offset for u in direct)
    live.moves.add((id(last), slot))


def _in_block(node: Node, block: Block) -> bool:
    n: Node | None = node
    while n is not None:
        if n.owning_block is block:
            return True
        n = n.owning_block.owning_node if n.owning_block is not None else None
    return False
