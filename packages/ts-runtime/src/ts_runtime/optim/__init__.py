"""`ts_runtime.optim`: SGD, Adam and AdamW, as `torch.optim`.

    opt = optim.Adam(model.parameters(), lr=1e-3)
    for x, y in batches:
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()

The updates follow PyTorch's formulas operation for operation (see each
class), so a run with the same initial weights and data follows PyTorch's.
"""

from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]
