"""DOT export: the structure of the picture (clusters, labels, edges) and short types."""

import re
import shutil
import subprocess
from collections import Counter

import pytest
from ts_ir import (
    Device,
    FloatType,
    IntType,
    ListType,
    OptionalType,
    ScalarType,
    TensorType,
    TupleType,
    graph_to_dot,
    parse_ir,
    quote_string,
    read_dot,
    short_type,
)

GRAPH = """graph(%x : Float(*, *, requires_grad=0, device=cpu),
      %c : bool,
      %n : int):
  %one : int = prim::Constant[value=1]()
  %half : float = prim::Constant[value=0.5]()
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
      %u : Tensor = aten::mul(%t, %half)
      -> (%c, %u)
   = prim::Print(%s, %l)
  return (%l, %one)
with prim::FusionGroup_0 = graph(%p : Tensor):
  %q : Tensor = prim::DifferentiableGraph_0(%p)
  return (%q)
with prim::DifferentiableGraph_0 = graph(%u : Tensor):
  %two : int = prim::Constant[value=2]()
  %v : Tensor = aten::neg(%u)
  %w : Tensor = aten::mul(%v, %two)
  return (%w)
"""
# long enough to be cut in the label, at a place where an escape sequence starts
STRING = 'say "hi"\n then ' + "x" * 28 + "\\tail, and more text"
GRAPH = GRAPH.replace("@STRING@", quote_string(STRING))

_QUOTED = re.compile(r'"(?:\\.|[^"\\])*"')


def node_with(picture, first_line: str) -> str:
    (found,) = [n for n, label in picture.labels.items() if label.split("\n")[0] == first_line]
    return found


def test_dot_is_well_formed():
    g = parse_ir(GRAPH)
    dot = graph_to_dot(g)
    assert dot == g.to_dot()
    assert dot.startswith('digraph "graph" {\n') and dot.endswith("}\n")
    stripped = _QUOTED.sub('""', dot)
    assert '"' not in stripped.replace('""', ""), "an unterminated string"
    depth = 0
    for ch in stripped:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0
    picture = read_dot(dot)
    for src, dst, _ in picture.edges:
        assert src in picture.labels and dst in picture.labels, (src, dst)


def test_constants_are_folded_into_their_users():
    picture = read_dot(graph_to_dot(parse_ir(GRAPH)))
    labels = picture.labels.values()
    assert not any("prim::Constant" in label for label in labels)
    add = node_with(picture, "aten::add(·, ·, 1)")
    assert node_with(picture, "aten::mul(·, 0.5)")
    assert node_with(picture, "aten::mul(·, 2)")  # inside the subgraph too
    assert node_with(picture, 'prim::Print("say \\"hi\\"\\n then xxxx…, ·)')
    # two edges into the add (its block parameter %h and the graph input %x), none for `1`
    assert sorted(e[2] for e in picture.edges if e[1] == add) == ["", "%h"]
    # a constant the graph returns shows in the return
    (ret,) = [n for n, label in picture.labels.items() if label.startswith("return")]
    assert picture.labels[ret] == "return (·, 1)"


def test_one_node_per_graph_input_and_labels_of_values_with_short_types():
    picture = read_dot(graph_to_dot(parse_ir(GRAPH)))
    assert picture.labels[node_with(picture, "%x")] == "%x\nf32[*,*]"
    assert picture.labels[node_with(picture, "%n")] == "%n\nint"
    assert node_with(picture, "aten::neg") in picture.labels
    assert "%v : Tensor" in picture.labels[node_with(picture, "aten::neg")]
    assert not any("requires_grad" in label for label in picture.labels.values())


def test_blocks_and_subgraphs_are_clusters_inside_their_node():
    picture = read_dot(graph_to_dot(parse_ir(GRAPH)))
    (if_cluster,) = picture.clusters("prim::If")
    (loop_cluster,) = picture.clusters("prim::Loop")
    assert [c.label for c in if_cluster.clusters] == ["block0 (true)", "block1 (false)"]
    assert [c.label for c in loop_cluster.clusters] == ["block0 (body)"]
    # the If's then-block holds the FusionGroup, which holds the DifferentiableGraph
    (fusion,) = if_cluster.clusters[0].clusters
    assert fusion.label == "prim::FusionGroup_0"
    (differentiable,) = fusion.clusters
    assert differentiable.label == "prim::DifferentiableGraph_0"
    kinds = [picture.labels[n].split("\n")[0] for n in differentiable.all_nodes()]
    assert kinds == ["aten::neg", "aten::mul(·, 2)"]
    # edges cross into the subgraph straight to the user of the group's input: %x -> neg
    x, neg = node_with(picture, "%x"), node_with(picture, "aten::neg")
    assert (x, neg, "") in picture.edges
    # ... and leave from the operation computing its output, to the block's return
    mul2 = node_with(picture, "aten::mul(·, 2)")
    (then_return,) = [n for n in if_cluster.clusters[0].nodes if picture.labels[n] == "-> (·)"]
    assert (mul2, then_return, "") in picture.edges
    # the loop's block parameters: one node, edges named by value
    params = node_with(picture, "%i : int")
    assert picture.labels[params] == "%i : int\n%h : Tensor"
    assert params in loop_cluster.clusters[0].nodes


def test_labels_have_line_breaks_never_a_literal_backslash_n():
    dot = graph_to_dot(parse_ir(GRAPH))
    for label in _QUOTED.findall(dot):
        # `\\n` (a backslash, then n) appears only where the string constant holds a newline
        if "\\\\n" in label:
            assert "say" in label, label
    picture = read_dot(dot)
    assert picture.labels[node_with(picture, "%i : int")].count("\n") == 1


def test_long_constants_and_attributes_are_cut_without_a_dangling_escape():
    dot = graph_to_dot(parse_ir(GRAPH), name='my "graph"')
    assert dot.startswith('digraph "my \\"graph\\"" {')
    (line,) = [x for x in dot.splitlines() if "then xxx" in x]
    label = _QUOTED.search(line).group()[1:-1]
    assert "more text" not in label
    assert re.fullmatch(r'(?:[^\\"]|\\[\\"n])*', label), label


def test_the_printer_numbers_subgraphs_and_pictures_name_them_alike():
    text = """graph(%x : Tensor):
  %a : Tensor = prim::FusionGroup_0(%x)
  %b : Tensor = prim::FusionGroup_1(%a)
  return (%b)
with prim::FusionGroup_0 = graph(%p : Tensor):
  %q : Tensor = aten::relu(%p)
  return (%q)
with prim::FusionGroup_1 = graph(%p : Tensor):
  %q : Tensor = aten::neg(%p)
  return (%q)
"""
    g = parse_ir(text)
    picture = read_dot(graph_to_dot(g))
    labels = [c.label for c in picture.clusters()]
    assert labels == ["prim::FusionGroup_0", "prim::FusionGroup_1"]
    assert labels == re.findall(r"(prim::FusionGroup_\d+)\(", str(g))
    relu, neg = node_with(picture, "aten::relu"), node_with(picture, "aten::neg")
    assert (relu, neg, "") in picture.edges  # group 0's output feeds group 1's operation


@pytest.mark.parametrize(
    ("type_", "shown"),
    [
        (TensorType(ScalarType.Float, Device("cpu"), False, (None, None)), "f32[*,*]"),
        (TensorType(ScalarType.Long, Device("cpu"), False, (3,)), "i64[3]"),
        (TensorType(ScalarType.Double, None, None, (64, 512)), "f64[64,512]"),
        (TensorType(ScalarType.Float, Device("cpu"), True, (None,)), "f32[*] grad"),
        (TensorType(ScalarType.Half, Device("cuda", 0), False, ()), "f16[] cuda:0"),
        (TensorType(ScalarType.Bool), "b8[...]"),
        (TensorType(None, None, None, (None, 2)), "Tensor[*,2]"),
        (TensorType.get(), "Tensor"),
        (TupleType([TensorType(ScalarType.Float, None, None, (None,)), IntType.get()]), "(f32[*], int)"),
        (ListType(TensorType.get()), "Tensor[]"),
        (OptionalType(FloatType.get()), "float?"),
    ],
)  # fmt: skip
def test_short_types(type_, shown):
    assert short_type(type_) == shown


def test_every_dtype_has_a_short_name():
    from ts_ir.graphviz import DTYPE_NAMES

    assert set(DTYPE_NAMES) == set(ScalarType)
    assert len(set(DTYPE_NAMES.values())) == len(DTYPE_NAMES)


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")
def test_dot_renders(tmp_path):
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
    picture = read_dot(source.read_text())
    # what graphviz drew is what the DOT declares (the inputs' invisible ordering aside)
    assert Counter(re.findall(r'class="(cluster|node|edge)"', svg)) == Counter(
        cluster=len(picture.clusters()), node=len(picture.labels), edge=len(picture.edges)
    )
