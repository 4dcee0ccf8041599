"""The frontend asks an operator's tags, never a list of names: an operator registered
elsewhere with a tag gets the behaviour the tag drives, and the same operator untagged
does not.

    Tag.calls               the frontend's dead code elimination keeps the node
    Tag.autograd_function   printed Python spells it `torch.autograd.<name>`
    Tag.python_builtin      printed Python spells it as the builtin `<name>(...)`
"""

from __future__ import annotations

import ts_ir
from ts_frontend.cleanup import eliminate_dead_code
from ts_frontend.python_printer import print_graph_as_python
from ts_schema import Tag, registry

for _name, _tags in (
    ("launch", {Tag.calls}),
    ("backward_hook", {Tag.autograd_function}),
    ("Len", {Tag.python_builtin}),
    ("plain", set()),
):
    registry.register(f"tagtest_fe::{_name}(Tensor x) -> Tensor", lambda x: x, tags=_tags)

UNUSED = """
graph(%x : Tensor):
  %y : Tensor = tagtest_fe::{op}(%x)
  return (%x)
"""


def _kinds_after_dead_code(op: str) -> list[str]:
    g = ts_ir.parse_ir(UNUSED.replace("{op}", op))
    eliminate_dead_code(g)
    return [str(n.kind) for n in g.nodes()]


def test_dead_code_keeps_an_unused_node_tagged_calls():
    assert _kinds_after_dead_code("launch") == ["tagtest_fe::launch"]
    assert _kinds_after_dead_code("plain") == []
    # the builtin it stands for: an unused fork may still run code with effects
    g = ts_ir.parse_ir(
        """
graph(%x : Tensor):
  %f : Future[Tensor] = prim::fork_0(%x)
  return (%x)
with prim::fork_0 = graph(%a : Tensor):
  %b : Tensor = aten::relu(%a)
  return (%b)
"""
    )
    eliminate_dead_code(g)
    assert [str(n.kind) for n in g.nodes()] == ["prim::fork"]


USED = """
graph(%x : Tensor):
  %y : Tensor = {op}(%x)
  return (%y)
"""


def _printed_call(op: str) -> str:
    text = print_graph_as_python(ts_ir.parse_ir(USED.replace("{op}", op)), "f")
    return next(line.strip() for line in text.splitlines() if "(x)" in line and "def" not in line)


def test_an_operator_tagged_autograd_function_prints_under_torch_autograd():
    assert _printed_call("tagtest_fe::backward_hook") == "return torch.autograd.backward_hook(x)"
    assert _printed_call("tagtest_fe::plain") == "return ops.tagtest_fe.plain(x)"
    assert _printed_call("aten::relu") == "return torch.relu(x)"


def test_an_operator_tagged_python_builtin_prints_as_the_builtin_of_its_name():
    assert _printed_call("tagtest_fe::Len") == "return len(x)"
    assert _printed_call("aten::Float") == "return float(x)"
