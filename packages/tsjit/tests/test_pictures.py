"""The pictures of the overview's examples: what the DOT shows, and that graphviz draws it.

The LSTM cell's and the IoU function's optimized graphs are drawn as `tsjit demo`
draws them. The DOT structure is always checked; rendering to PNG needs
graphviz's `dot` and is skipped without it.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import tsjit as torch
from ts_ir import read_dot
from tsjit import demo

EXAMPLES = {ex.name: ex for ex in demo.EXAMPLES}


def optimized(name: str):
    ex = EXAMPLES[name]
    scripted = torch.jit.script(ex.fn)
    inputs = [torch.from_numpy(a) for a in ex.make_inputs(np.random.default_rng(0))]
    with torch.no_grad(), torch.jit.fuser("cpu"):
        return scripted, scripted.graph_for(*inputs)


def first_lines(picture, nodes) -> Counter:
    """The kinds shown in these nodes' labels (`aten::add(·, ·, 1)` counts as `aten::add`)."""
    return Counter(picture.labels[n].split("\n")[0].split("(")[0].split("[")[0] for n in nodes)


def render_png(dot: str, path: Path) -> tuple[int, int]:
    """Render with graphviz; the PNG's width and height."""
    source = path.with_suffix(".dot")
    source.write_text(dot)
    done = subprocess.run(
        ["dot", "-Tpng", str(source), "-o", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("name", ["lstm_cell", "ratio_iou"])
def test_the_optimized_graph_draws_its_fusion_group_as_a_cluster(name, tmp_path):
    _, graph = optimized(name)
    (group,) = [n for n in graph.nodes() if n.kind == "prim::FusionGroup"]
    subgraph = group.g("Subgraph")
    dot = graph.to_dot()
    picture = read_dot(dot)

    (cluster,) = picture.clusters()
    assert cluster.label == "prim::FusionGroup_0"
    # inside the cluster: exactly the subgraph's operations, its constants folded away
    inside = Counter(str(n.kind) for n in subgraph.nodes() if n.kind != "prim::Constant")
    assert first_lines(picture, cluster.all_nodes()) == inside
    # outside: the graph's operations (no constants), one node per input, the return
    outside = Counter(
        str(n.kind) for n in graph.nodes() if n.kind not in ("prim::Constant", "prim::FusionGroup")
    )
    outside["return"] = 1
    for v in graph.inputs:
        outside[f"%{v.debug_name}"] = 1
    assert first_lines(picture, picture.root.nodes) == outside

    labels = list(picture.labels.values())
    assert "prim::Constant" not in first_lines(picture, picture.labels)
    assert not any("requires_grad" in label or "device=" in label for label in labels)
    assert all(label.count("f32[") == label.count("f32[*") for label in labels)  # no sizes known
    # edges: none from a constant, one for each value an operation or the return uses
    # (the group's inputs and outputs are not nodes: edges go to and from its operations)
    uses = sum(
        len({id(v) for v in n.inputs if v.node.kind != "prim::Constant"})
        for n in [*graph.nodes(), graph.return_node, *subgraph.nodes()]
        if n.kind != "prim::FusionGroup"
    )
    assert len(picture.edges) == uses
    if shutil.which("dot"):
        width, height = render_png(dot, tmp_path / f"{name}.png")
        assert width > 200 and height > 200


def test_the_lstm_cells_fused_gates_read_from_four_chunked_inputs():
    _, graph = optimized("lstm_cell")
    picture = read_dot(graph.to_dot())
    (cluster,) = picture.clusters()
    chunks = [n for n in cluster.nodes if picture.labels[n].startswith("prim::ConstantChunk")]
    assert len(chunks) == 4
    for chunk in chunks:
        assert picture.labels[chunk].startswith("prim::ConstantChunk[chunks=4, dim=1]\n")
        assert len(picture.labels[chunk].split("\n")) == 5  # a line per chunk: %name : f32[*,*]
        # each chunk node receives one tensor from outside the group
        sources = [s for s, t, _ in picture.edges if t == chunk]
        assert len(sources) == 1 and sources[0] not in cluster.all_nodes()
    # the shared `1` of the adds shows in each add, not as a node with a dozen edges
    adds = [label for label in picture.labels.values() if label.startswith("aten::add")]
    assert len(adds) == 13 and all(a.startswith("aten::add(·, ·, 1)\n") for a in adds)


def test_the_scripted_graphs_draw_without_clusters(tmp_path):
    for name in EXAMPLES:
        scripted, _ = optimized(name)
        dot = scripted.graph.to_dot()
        picture = read_dot(dot)
        assert picture.clusters() == []
        assert "prim::Constant" not in first_lines(picture, picture.labels)
        if shutil.which("dot"):
            render_png(dot, tmp_path / f"{name}_scripted.png")
