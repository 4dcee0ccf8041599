"""ts-passes against live PyTorch: the nine passes of the corpus on hand-written graphs.

Each graph of `integration_tests/passes/*.ir` and of the ts-passes FileCheck
files that PyTorch's own `parse_ir` reads goes through `torch._C._jit_pass_*`
and through ours; the results, renumbered canonically, must be identical,
or equivalent where `EXPECTED_DIFFERENCES` says why ours differs.
"""

from __future__ import annotations

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
        "dce": c._jit_pass_dce,
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


# (file stem, pass) → why ours differs from PyTorch's and is right
EXPECTED_DIFFERENCES: dict[tuple[str, str], str] = {
    ("peephole_lists", "peephole"): (
        "our peephole also reads the elements of a constructed tuple (prim::TupleUnpack and "
        "prim::TupleIndex of a prim::TupleConstruct), as the ts-passes design asks; PyTorch "
        "leaves that to its tuple lowering. Both graphs compute the same values."
    ),
}


def _graphs(path: Path) -> list[tuple[str, str]]:
    """(id, text) of each graph of a file; multi-case files hold several, split at `# -----`."""
    cases = split_cases(path.read_text())
    return [
        (path.stem if len(cases) == 1 else f"{path.stem}:{case.line}", _strip_comments(case.text))
        for case in cases
    ]


def _strip_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


CASES = [(p, case, name) for p in FILES for case in _graphs(p) for name in CORPUS_PASSES]


@pytest.mark.parametrize(
    ("path", "case", "pass_name"), CASES, ids=[f"{c[0]}-{n}" for _p, c, n in CASES]
)
def test_pass_agrees_with_pytorch(path, case, pass_name):
    text = case[1]
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
    if (path.stem, pass_name) in EXPECTED_DIFFERENCES:
        return
    assert canonical_text(ours) == canonical_text(str(theirs))
