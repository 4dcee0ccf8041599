# Functions from PyTorch's TorchScript tests, test/jit/test_tensor_methods.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
import torch


# TestTensorMethods.test_getitem
def test_getitem__tensor_getitem(inp: torch.Tensor):
    indices = torch.tensor([0, 2], dtype=torch.long)
    return inp.__getitem__(indices)
