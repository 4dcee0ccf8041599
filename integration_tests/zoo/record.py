"""Write `recorded.json`: PyTorch's results for the small zoo models.

    cd integration_tests && python -m zoo.record

For each model, with the seeded weights and batch of `harness.py`: the
evaluation-mode output, the training-step loss and gradient fingerprints,
and (for the models trained in the tests) the losses of ten SGD and ten
Adam steps. The oracle session checks that this file still matches PyTorch.
"""

from __future__ import annotations

import json
from pathlib import Path

from .harness import (
    Library,
    fingerprint,
    float64_steps,
    make_batch,
    make_weights,
    numpy_of,
    template,
    train,
    training_step,
)
from .models import SPECS

RECORDED = Path(__file__).with_name("recorded.json")
TRAINED = ("lenet", "lstm_lm")


def _round(x: float) -> float:
    return float(f"{x:.9g}")


def record_model(torch, name: str) -> dict:
    lib = Library(torch)
    weights = make_weights(template(name, "small"), name)
    x, target = make_batch(name, "small")
    model = lib.model(name, "small", weights)
    model.eval()
    out = numpy_of(model(lib.tensor(x)))
    loss, grads = training_step(
        lib, lib.model(name, "small", weights), name, lib.tensor(x), lib.tensor(target)
    )
    entry = {
        "output_shape": list(out.shape),
        "output": [_round(v) for v in out.reshape(-1).tolist()],
        "loss": _round(float(loss.item())),
        "grads": {k: [_round(v) for v in fingerprint(name, k, g)] for k, g in grads.items()},
    }
    model64 = lib.model(name, "small", weights).double()
    entry["float64_steps"] = [
        {"loss": step_loss, "grads": {k: fingerprint(name, k, g) for k, g in step_grads.items()}}
        for step_loss, step_grads in float64_steps(lib, model64, name, x, target)
    ]
    if name in TRAINED:
        entry["train"] = {
            kind: [
                _round(v)
                for v in train(
                    lib,
                    lib.model(name, "small", weights),
                    name,
                    kind,
                    lib.tensor(x),
                    lib.tensor(target),
                )
            ]
            for kind in ("sgd", "adam")
        }
    return entry


def main() -> None:
    import torch

    torch.manual_seed(0)
    models = {n: record_model(torch, n) for n in SPECS}
    # one line per model: small enough to review as a diff
    lines = [f" {json.dumps(n)}: {json.dumps(entry)}" for n, entry in models.items()]
    text = (
        f'{{"torch_version": {json.dumps(torch.__version__)}, "models": {{\n'
        + ",\n".join(lines)
        + "\n}}\n"
    )
    json.loads(text)
    RECORDED.write_text(text)
    print(f"wrote {RECORDED}")


if __name__ == "__main__":
    main()
