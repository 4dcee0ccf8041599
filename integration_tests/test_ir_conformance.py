"""Every graph PyTorch printed in the corpus parses, lints, and prints back exactly."""

import re

from ts_ir import IRParseError, LintError, parse_ir

PASS_NAMES = {
    "dce",
    "cse",
    "constant_propagation",
    "constant_pooling",
    "peephole",
    "loop_unrolling",
    "remove_mutation",
    "lower_all_tuples",
    "canonicalize",
}
LOCATION = re.compile(r" # [^\n]*:\d+:\d+$", re.M)


def drop_locations(text):
    return LOCATION.sub("", text)


def test_graph_prints_back_exactly(corpus_graph):
    g = parse_ir(corpus_graph)
    g.lint()
    assert str(g) == corpus_graph


def test_graph_prints_back_exactly_without_source_locations(corpus_graph):
    bare = drop_locations(corpus_graph)
    assert parse_ir(corpus_graph).to_string(source_locations=False) == bare
    g = parse_ir(bare)
    g.lint()
    assert str(g) == bare


def test_the_corpus_is_read_completely(corpus):
    """No graph is skipped silently: every row holds the graphs its kind promises."""
    programs = corpus("programs")
    scripted = [p for p in programs if p.get("torchscript_supported") is not False]
    assert len(programs) == 60
    for p in scripted:
        assert p["graph"].startswith("graph(") and p["inlined_graph"].startswith("graph("), p[
            "name"
        ]
    passes = corpus("passes")
    readable = [r for r in passes if "parse_error" not in r]
    assert readable
    for row in readable:
        assert set(row["passes"]) == PASS_NAMES, row["name"]
        assert row["input"] and row["reprinted"], row["name"]
    optimized = corpus("optimized_graphs")
    assert sum(1 for r in optimized if r.get("graph")) + sum(
        1 for r in optimized if "error" in r
    ) == (len(optimized))


def test_graphs_pytorch_cannot_parse_back(corpus):
    """PyTorch prints these graphs but its parser rejects them (nodes without outputs,
    subgraph attributes); ours reads them."""
    inlined = {p["name"]: p.get("inlined_graph") for p in corpus("programs")}
    rejected = [r["name"] for r in corpus("passes") if "parse_error" in r]
    assert rejected
    failures = []
    for name in rejected:
        text = drop_locations(inlined[name])
        try:
            g = parse_ir(text)
            g.lint()
        except (IRParseError, LintError) as err:
            failures.append(f"{name}: {err}")
            continue
        if str(g) != text:
            failures.append(f"{name}: printed differently")
    assert not failures, "\n".join(failures)


def test_corpus_graphs_use_the_features_the_parser_must_read(corpus):
    """The corpus exercises zero-output nodes, subgraph sections and refined types."""
    texts = [t for p in corpus("programs") for t in (p.get("inlined_graph") or "",)]
    texts += [r.get("graph", "") for r in corpus("optimized_graphs")]
    joined = "\n".join(texts)
    assert "\n   = prim::" in joined
    assert "\nwith prim::DifferentiableGraph_0 = graph(" in joined
    assert "requires_grad=1, device=cpu)" in joined
