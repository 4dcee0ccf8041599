"""Record PyTorch's gradients for the autodiff tests: `integration_tests/autodiff/recorded.json`.

    python tools/record_autodiff.py          (needs torch 2.13)

For every corpus case with floating tensor inputs (`integration_tests/autodiff/harness.py`)
and every iteration: the inputs, and PyTorch's outputs, gradients and double-backward
products in float64; and for the bug-class programs (`bug_classes.py`) the same over
their iterations. `test_autodiff_corpus.py` and `test_autodiff_bug_classes.py` check tsjit
against this file without PyTorch; the oracle tests recompute it live.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "integration_tests"))

from autodiff import bug_classes, harness  # noqa: E402
from corpus_values import encode_array  # noqa: E402


def _encode(values):
    if values is None:
        return None
    return [None if v is None else encode_array(np.asarray(v)) for v in values]


def _encode_result(result: dict) -> dict:
    return {k: _encode(v) for k, v in result.items()}


def _encode_inputs(arrays):
    return [a if isinstance(a, tuple) else encode_array(a) for a in arrays]


def record_corpus(torch) -> dict:
    out = {}
    for tid, row, case in harness.targets():
        program = harness.build(torch, row)
        clone = False
        iterations = []
        for it in range(1, harness.ITERATIONS + 1):
            arrays = harness.input_arrays(row, case, it)
            try:
                result = harness.run(torch, program, row, arrays, (tid, it), clone=clone)
            except RuntimeError:
                if clone:
                    raise
                clone = True  # the program writes an input in place: leaves are copied
                program = harness.build(torch, row)
                result = harness.run(torch, program, row, arrays, (tid, it), clone=True)
            iterations.append(
                {"inputs": _encode_inputs(arrays), "expected": _encode_result(result)}
            )
        out[tid] = {"clone": clone, "iterations": iterations}
    return out


def record_bug_classes(torch) -> dict:
    out = {}
    for name, case in bug_classes.CASES.items():
        iterations = []
        for it, arrays in enumerate(case.arrays(), start=1):
            result = bug_classes.run(torch, case, arrays, (name, it))
            iterations.append(
                {
                    "inputs": [encode_array(a) for a in arrays],
                    "expected": _encode_result(result),
                }
            )
        out[name] = iterations
    return out


def main() -> int:
    import torch

    torch.manual_seed(0)
    data = {
        "torch": torch.__version__,
        "corpus": record_corpus(torch),
        "bug_classes": record_bug_classes(torch),
    }
    path = ROOT / "integration_tests" / "autodiff" / "recorded.json"
    path.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
