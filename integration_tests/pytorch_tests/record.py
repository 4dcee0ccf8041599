"""Record PyTorch 2.13's results of the harvested cases (run where torch is installed).

python integration_tests/pytorch_tests/record.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

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


SUITES = {
    "irparser": record_irparser,
    "schema_parser": record_schema_parser,
    "filecheck": record_filecheck,
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
