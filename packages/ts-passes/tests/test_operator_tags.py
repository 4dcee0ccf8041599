"""The profiling passes ask an operator's tags, never a list of names: an operator registered
elsewhere tagged `Tag.type_check` is treated as the executor's own checks are, and the same
operator untagged is not.
"""

from __future__ import annotations

import ts_ir
from ts_passes import insert_profile_nodes, refine_types_from_checks
from ts_schema import Tag, registry

for _name, _tags in (("check", {Tag.type_check}), ("plain", set())):
    registry.register(f"tagtest_ps::{_name}(Tensor x) -> Tensor", lambda x: x, tags=_tags)

CHECKED = """
graph(%x : Tensor):
  %c : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu) = tagtest_ps::{op}(%x)
  %r : Tensor = aten::relu(%c)
  return (%r)
"""


def _graph(op: str) -> ts_ir.Graph:
    return ts_ir.parse_ir(CHECKED.replace("{op}", op))


def test_types_from_a_node_tagged_type_check_are_kept_and_propagated():
    g = _graph("check")
    refine_types_from_checks(g)
    assert str(g.outputs[0].type) == "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"
    g = _graph("plain")
    refine_types_from_checks(g)  # nothing checked it: the type is forgotten
    assert str(g.outputs[0].type) == "Tensor"


def test_the_inputs_of_a_node_tagged_type_check_are_not_profiled():
    def profiled(op: str) -> list[str]:
        g = _graph(op)
        insert_profile_nodes(g)
        return [str(n.inputs[0].node.kind) for n in g.nodes() if n.kind == "prim::profile"]

    # the uses by relu and by the return are profiled; the check's use of %x is not
    assert profiled("check") == ["tagtest_ps::check", "aten::relu"]
    assert profiled("plain") == ["prim::Param", "tagtest_ps::plain", "aten::relu"]
