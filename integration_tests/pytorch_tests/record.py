"""Record PyTorch 2.13's results of the harvested cases (run where torch is installed).

python integration_tests/pytorch_tests/record.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, ClassVar

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harvest import RECORDED, first_line  # noqa: E402


def record_irparser() -> dict:
    from cases_irparser import CASES, EXTRA_CASES

    out = {}
    for name, _kind, text in CASES + EXTRA_CASES:
        try:
            out[name] = {"printed": str(torch._C.parse_ir(text))}
        except RuntimeError as exc:
            out[name] = {"error": first_line(exc)}
    return out


def record_schema_parser() -> dict:
    from cases_schema_parser import CASES

    out = {}
    for name, schema, _facts in CASES:
        try:
            parsed = torch._C.parse_schema(schema)
        except RuntimeError as exc:
            out[name] = {"error": first_line(exc)}
            continue
        arguments = []
        for a in parsed.arguments:
            info = a.alias_info
            alias = None
            if info is not None:
                alias = [sorted(info.before_set), sorted(info.after_set), info.is_write]
            arguments.append(
                {"name": a.name, "type": str(a.type), "N": a.N, "is_out": a.is_out, "alias": alias}
            )
        out[name] = {"printed": str(parsed), "arguments": arguments}
    from cases_schema_parser import EQUALITY

    for a, b, equal in EQUALITY:
        assert (torch._C.parse_schema(a) == torch._C.parse_schema(b)) is equal, (a, b)
    return out


def record_filecheck() -> dict:
    from cases_filecheck import CASES, NAMESPACE_TEXTS
    from torch.testing import FileCheck

    out = {}
    for name, statement, _expected in CASES:
        try:
            exec(statement, {"FileCheck": FileCheck, **NAMESPACE_TEXTS})
            out[name] = {"error": None}
        except RuntimeError as exc:
            out[name] = {"error": first_line(exc)}
    return out


class TorchWorld:
    """PyTorch 2.13 as a world for `scripted.play`."""

    torch = torch
    PASSES: ClassVar[dict[str, Any]] = {
        "peephole": torch._C._jit_pass_peephole,
        "constant_propagation": torch._C._jit_pass_constant_propagation,
        "constant_pooling": torch._C._jit_pass_constant_pooling,
        "dce": torch._C._jit_pass_dce,
        "inline": torch._C._jit_pass_inline,
        "remove_mutation": torch._C._jit_pass_remove_mutation,
        "loop_unrolling": torch._C._jit_pass_loop_unrolling,
        "refine_integer_values": torch._C._jit_pass_refine_integer_values,
        "peephole_list_idioms": torch._C._jit_pass_peephole_list_idioms,
        "cse": torch._C._jit_pass_cse,
    }

    def compile(self, source, entry):
        return getattr(torch.jit.CompilationUnit(source), entry)

    def graph(self, fn):
        return fn.graph

    def parse_ir(self, text):
        # PyTorch's parser takes a node without outputs without the ` = `
        import re

        return torch._C.parse_ir(re.sub(r"(?m)^[ \t]*= ", "  ", text))

    def run_pass(self, graph, name, options):
        self.PASSES[name](graph, **options)
        graph.lint()

    def filecheck(self, statement, graph):
        from torch.testing import FileCheck

        exec(statement, {"FileCheck": FileCheck, "graph": str(graph)})

    def set_rank(self, graph, index, rank):
        v = list(graph.inputs())[index]
        v.setType(v.type().with_sizes([None] * rank))

    def call(self, fn, args):
        return fn(*args)

    def find_node(self, graph, kind, *, recurse=False):
        # PyTorch's findNode searches nested blocks (in order, each node before its blocks)
        node = graph.findNode(kind)
        if node is None:
            raise LookupError(f"no {kind} in the graph")
        return node

    def input_values(self, node):
        from scripted import NOT_CONSTANT

        return [
            NOT_CONSTANT if v.node().kind() != "prim::Constant" else v.toIValue()
            for v in node.inputs()
        ]

    def block_nodes(self, graph_or_block):
        return list(graph_or_block.nodes())

    def kind(self, node):
        return node.kind()

    def blocks(self, node):
        return list(node.blocks())

    def num_outputs(self, node):
        return node.outputsSize()

    def constant_inputs(self, node):
        return [v.toIValue() is not None for v in node.inputs()]


def record_scripted(cases) -> dict:
    from scripted import play

    out = {}
    for case in cases:
        try:
            out[case.name] = {"steps": play(case, TorchWorld())}
        except Exception as exc:
            out[case.name] = {"error": f"{type(exc).__name__}: {first_line(exc)}"}
    return out


def record_peephole() -> dict:
    from cases_peephole import CASES

    return record_scripted(CASES)


def record_remove_mutation() -> dict:
    from cases_remove_mutation import CASES

    return record_scripted(CASES)


def record_constant_pooling() -> dict:
    from cases_constant_pooling import CASES

    return record_scripted(CASES)


def record_inliner() -> dict:
    from cases_inliner import CASES

    return record_scripted(CASES)


def record_constant_propagation() -> dict:
    from cases_constant_propagation import CASES

    return record_scripted(CASES)


def record_loop_unrolling() -> dict:
    from cases_loop_unrolling import CASES

    return record_scripted(CASES)


def record_alias_analysis() -> dict:
    from aliasing import play_pytorch
    from cases_alias_analysis import CASES

    out = {}
    for case in CASES:
        try:
            out[case.name] = {"answers": play_pytorch(case, torch)}
        except Exception as exc:
            out[case.name] = {"error": f"{type(exc).__name__}: {first_line(exc)}"}
    return out


SUITES = {
    "irparser": record_irparser,
    "schema_parser": record_schema_parser,
    "filecheck": record_filecheck,
    "peephole": record_peephole,
    "remove_mutation": record_remove_mutation,
    "alias_analysis": record_alias_analysis,
    "constant_pooling": record_constant_pooling,
    "inliner": record_inliner,
    "constant_propagation": record_constant_propagation,
    "loop_unrolling": record_loop_unrolling,
}


def main(names: list[str]) -> None:
    assert torch.__version__.startswith("2.13"), f"PyTorch 2.13 expected, not {torch.__version__}"
    RECORDED.mkdir(exist_ok=True)
    for name in names or list(SUITES):
        results = SUITES[name]()
        with open(RECORDED / f"{name}.json", "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"{name}: {len(results)} cases recorded")


if __name__ == "__main__":
    main(sys.argv[1:])
