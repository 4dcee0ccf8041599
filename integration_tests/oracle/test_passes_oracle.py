"""ts-passes against live PyTorch: the nine passes of the corpus on hand-written graphs.

Each graph of `integration_tests/passes/*.ir` and of the ts-passes FileCheck
files that PyTorch's own `parse_ir` reads goes through `torch._C._jit_pass_*`
and through ours; the results, renumbered canonically, must be identical,
or different where `EXPECTED_DIFFERENCES` says why ours is right. Graphs with
subgraph attributes (`with prim::Name = graph(...)`) are not compared: PyTorch's
`parse_ir` reads only the outer graph and drops those sections, so its pass
would run on another graph than ours.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ts_ir  # noqa: E402
from passes.harness import CORPUS_PASSES, canonical_text  # noqa: E402
from ts_ir.testing import split_cases  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "integration_tests" / "passes").glob("*.ir")) + sorted(
    (ROOT / "packages" / "ts-passes" / "tests" / "filecheck").glob("*.ir")
)


def torch_pass(name: str, graph):
    c = torch._C
    if name == "canonicalize":
        return c._jit_pass_canonicalize(graph)
    fn = {
        # Ours is the graph-level elimination, which asks alias analysis what a write can
        # reach; `_jit_pass_dce` runs the block-level one, which keeps every mutating op.
        "dce": c._jit_pass_dce_graph,
        "cse": c._jit_pass_cse,
        "constant_propagation": c._jit_pass_constant_propagation,
        "constant_pooling": c._jit_pass_constant_pooling,
        "peephole": c._jit_pass_peephole,
        "loop_unrolling": c._jit_pass_loop_unrolling,
        "remove_mutation": c._jit_pass_remove_mutation,
        "lower_all_tuples": c._jit_pass_lower_all_tuples,
    }[name]
    fn(graph)
    return graph


# (case id, pass) → why ours differs from PyTorch's and is right; the id is the file stem,
# with `:RULE/CASE` of the case for a multi-case file.
_TUPLE_READS = (
    "our peephole also reads the elements of a constructed tuple (prim::TupleUnpack and "
    "prim::TupleIndex of a prim::TupleConstruct, rules tuple_unpack_of_construct and "
    "tuple_index_of_construct); PyTorch's peephole leaves that to its tuple lowering, and "
    "both graphs compute the same values."
)
_SIZE_IF_NOT_EQUAL = (
    "our peephole folds aten::_size_if_not_equal of two known sizes (None when equal, the "
    "first when not, rule size_if_not_equal_known); PyTorch's folds aten::size of the "
    "complete tensor to a constant but leaves the comparison, which computes the same value."
)
EXPECTED_DIFFERENCES: dict[tuple[str, str], str] = {
    ("peephole:list_idioms/len_getitem_unpack", "peephole"): _TUPLE_READS,
    ("peephole:tuple_index_of_construct", "peephole"): _TUPLE_READS,
    ("peephole:tuple_unpack_of_construct", "peephole"): _TUPLE_READS,
    ("peephole:size_if_not_equal_known/equal_sizes", "peephole"): _SIZE_IF_NOT_EQUAL,
    ("peephole:size_if_not_equal_known/different_sizes", "peephole"): _SIZE_IF_NOT_EQUAL,
    ("peephole:number_round_trip/float_of_an_int_tensor_left_alone", "peephole"): (
        "PyTorch's peephole replaces aten::Float(prim::NumToTensor(i)) of an int i by i, so "
        "the graph returns the int 3 where it returned the float 3.0; ours folds the round "
        "trip only when the number keeps its type."
    ),
    ("peephole:conv_dim/unbatched_input", "peephole"): (
        "PyTorch's peephole folds dim() of a conv1d's output to 3 whatever its input, so the "
        "graph returns 3 where running conv1d on this 2-d (unbatched) input gives a 2-d "
        "result; ours folds to the input's rank where it is known."
    ),
    ("peephole:self_comparison", "peephole"): (
        "ours also folds the self-comparison s != s of a str (a str always equals itself); "
        "PyTorch's peephole folds i == i of an int but leaves strs alone."
    ),
    ("peephole:self_comparison/floats_left_alone", "peephole"): (
        "PyTorch's peephole folds f == f of a float to True, which is False for nan; ours "
        "leaves floats alone."
    ),
    ("peephole:arithmetic_identity/int_true_division_left_alone", "peephole"): (
        "PyTorch's peephole replaces the true division i / 1 of an int by i, so the graph "
        "returns the int 3 where it returned the float 3.0; ours folds only i // 1."
    ),
    ("peephole:arithmetic_identity/bool_tensors_left_alone", "peephole"): (
        "PyTorch's peephole drops x + 0 of a bool tensor, whose result is an int64 tensor "
        "(bool + int promotes), so the value's dtype changes; ours keeps the promotion."
    ),
    ("lower_tuples:through_a_loop", "lower_all_tuples"): (
        "PyTorch's tuple lowering types the int element it splits out of a loop-carried "
        "(Tensor, int) as Tensor (loop output and block input), a mistyped graph; ours "
        "keeps the element's type, int."
    ),
    ("peephole:self_comparison/float_lists_and_scalars_left_alone", "peephole"): (
        "PyTorch folds `l == l` of a float list to True, which is right (list equality is "
        "True for the same list, nan elements included, in both runtimes); ours leaves float "
        "lists to run, a missed fold, not a different value."
    ),
    ("remove_mutation:normal_with_a_generator_left_alone", "remove_mutation"): (
        "PyTorch's remove_mutation rewrites `normal_(x, mean, std, generator)` into "
        "`normal(...)` with generator=None, dropping the caller's generator (a different "
        "random stream); ours keeps the in-place call."
    ),
}

#: A subgraph attribute section of the IR text: PyTorch's parse_ir drops it silently.
_SUBGRAPH_SECTION = re.compile(r"^with \S+ = graph\(", re.MULTILINE)


def _graphs(path: Path) -> list[tuple[str, str]]:
    """(id, text) of each graph of a file; multi-case files hold several, split at `# -----`,
    each named by its `# RULE:` and `# CASE:` lines (`peephole:size_known/zero_dim...`)."""
    cases = split_cases(path.read_text())
    if len(cases) == 1:
        return [(path.stem, _strip_comments(cases[0].text))]
    return [(f"{path.stem}:{_case_name(case)}", _strip_comments(case.text)) for case in cases]


def _case_name(case) -> str:
    rule, name = case.directive("RULE"), case.directive("CASE")
    if rule and name:
        return f"{rule}/{name}"
    return rule or name or f"line {case.line}"


def _strip_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


CASES = [(p, case, name) for p in FILES for case in _graphs(p) for name in CORPUS_PASSES]


@pytest.mark.parametrize(
    ("path", "case", "pass_name"), CASES, ids=[f"{c[0]}-{n}" for _p, c, n in CASES]
)
def test_pass_agrees_with_pytorch(path, case, pass_name):
    text = case[1]
    if _SUBGRAPH_SECTION.search(text):
        pytest.skip(
            f"{case[0]} has subgraph attributes, which PyTorch's parse_ir drops: "
            "its pass would run on another graph than ours"
        )
    try:
        theirs = torch._C.parse_ir(text)
    except RuntimeError as exc:
        pytest.skip(f"PyTorch cannot parse {path.name}: {str(exc).splitlines()[0]}")
    try:
        theirs = torch_pass(pass_name, theirs)
    except RuntimeError as exc:
        pytest.skip(f"PyTorch's {pass_name} rejects {path.name}: {str(exc).splitlines()[0]}")
    ours = ts_ir.parse_ir(text)
    CORPUS_PASSES[pass_name](ours)
    ours.lint()
    if (case[0], pass_name) in EXPECTED_DIFFERENCES:
        assert canonical_text(ours) != canonical_text(str(theirs)), (
            f"{case[0]} {pass_name} now agrees with PyTorch: drop its EXPECTED_DIFFERENCES entry"
        )
        return
    assert canonical_text(ours) == canonical_text(str(theirs))


def test_every_expected_difference_names_a_case():
    known = {(c[0], n) for _p, c, n in CASES}
    assert set(EXPECTED_DIFFERENCES) <= known, set(EXPECTED_DIFFERENCES) - known
