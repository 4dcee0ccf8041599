import re
import shutil
import subprocess

import pytest
from ts_ir import graph_to_dot, parse_ir, quote_string

GRAPH = """graph(%x : Tensor,
      %c : bool,
      %n : int):
  %one : int = prim::Constant[value=1]()
  %s : str = prim::Constant[value=@STRING@]()
  %y : Tensor = prim::If(%c)
    block0():
      %a : Tensor = prim::FusionGroup_0(%x)
      -> (%a)
    block1():
      -> (%x)
  %l : Tensor = prim::Loop(%n, %c, %y)
    block0(%i : int, %h : Tensor):
      %t : Tensor = aten::add(%h, %x, %one)
      -> (%c, %t)
   = prim::Print(%s, %l)
  return (%l)
with prim::FusionGroup_0 = graph(%p : Tensor):
  %q : Tensor = prim::DifferentiableGraph_0(%p)
  return (%q)
with prim::DifferentiableGraph_0 = graph(%u : Tensor):
  %v : Tensor = aten::neg(%u)
  return (%v)
"""
# long enough to be cut in the label, at a place where an escape sequence starts
STRING = 'say "hi"\n then ' + "x" * 28 + "\\tail, and more text"
GRAPH = GRAPH.replace("@STRING@", quote_string(STRING))

_QUOTED = re.compile(r'"(?:\\.|[^"\\])*"')


def check_well_formed(dot):
    """Balanced braces outside strings, terminated strings, and every edge endpoint
    declared as a node; returns the declared node ids."""
    assert dot.startswith('digraph "graph" {\n') and dot.endswith("}\n")
    stripped = _QUOTED.sub('""', dot)
    assert '"' not in stripped.replace('""', ""), "an unterminated string"
    depth = 0
    for ch in stripped:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0
    declared = set(re.findall(r"^\s*(n\d+) \[", stripped, re.M))
    edges = re.findall(r"^\s*(n\d+) -> (n\d+)", stripped, re.M)
    assert edges
    for src, dst in edges:
        assert src in declared and dst in declared, (src, dst)
    return declared, edges


def test_dot_is_well_formed():
    g = parse_ir(GRAPH)
    dot = graph_to_dot(g)
    assert dot == g.to_dot()
    declared, _edges = check_well_formed(dot)
    # one declaration per node, block sentinel and graph sentinel, subgraphs included
    subgraphs = [g]
    for sub in subgraphs:
        for n in sub.all_nodes():
            if n.has_attribute("Subgraph"):
                subgraphs.append(n.g("Subgraph"))
    expected = sum(2 + sum(1 + 2 * len(n.blocks) for n in sub.all_nodes()) for sub in subgraphs)
    assert len(declared) == expected
    # every use is an edge: the value's name labels it
    uses = sum(len(n.inputs) for sub in subgraphs for n in [*sub.all_nodes()])
    returns = sum(
        len(b.outputs)
        for sub in subgraphs
        for b in [sub.block] + [b for n in sub.all_nodes() for b in n.blocks]
    )
    labelled = [e for e in dot.splitlines() if "->" in e and 'label="%' in e]
    assert len(labelled) == uses + returns


def test_dot_clusters_and_labels():
    dot = graph_to_dot(parse_ir(GRAPH), name='my "graph"')
    assert dot.startswith('digraph "my \\"graph\\"" {')
    assert dot.count("subgraph cluster_") == 5  # If: 2 blocks, Loop: 1, two subgraphs
    assert 'label="prim::If block1"' in dot
    assert "prim::FusionGroup subgraph" in dot and "prim::DifferentiableGraph subgraph" in dot
    assert 'label="%one"' in dot
    # long attribute values are cut, and cutting never leaves a dangling escape
    (line,) = [x for x in dot.splitlines() if "then xxx" in x]
    label = _QUOTED.search(line).group()[1:-1]
    assert "more text" not in label
    assert re.fullmatch(r'(?:[^\\"]|\\[\\"n])*', label), label


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")
def test_dot_renders_to_svg(tmp_path):
    source = tmp_path / "graph.dot"
    source.write_text(graph_to_dot(parse_ir(GRAPH)))
    target = tmp_path / "graph.svg"
    result = subprocess.run(
        ["dot", "-Tsvg", str(source), "-o", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    svg = target.read_text()
    assert "<svg" in svg and "prim::Loop" in svg
