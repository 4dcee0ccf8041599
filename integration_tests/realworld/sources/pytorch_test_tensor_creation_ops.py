# Functions from PyTorch's TorchScript tests, test/jit/test_tensor_creation_ops.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
import torch


# TestTensorCreationOps.test_randperm_default_dtype
def test_randperm_default_dtype__randperm(x: int):
    perm = torch.randperm(x)
    # Have to perform assertion here because TorchScript returns dtypes
    # as integers, which are not comparable against eager torch.dtype.
    assert perm.dtype == torch.int64


# TestTensorCreationOps.test_randperm_specifed_dtype
def test_randperm_specifed_dtype__randperm(x: int):
    perm = torch.randperm(x, dtype=torch.float)
    # Have to perform assertion here because TorchScript returns dtypes
    # as integers, which are not comparable against eager torch.dtype.
    assert perm.dtype == torch.float


# TestTensorCreationOps.test_triu_indices_default_dtype
def test_triu_indices_default_dtype__triu_indices(rows: int, cols: int):
    indices = torch.triu_indices(rows, cols)
    # Have to perform assertion here because TorchScript returns dtypes
    # as integers, which are not comparable against eager torch.dtype.
    assert indices.dtype == torch.int64


# TestTensorCreationOps.test_triu_indices_specified_dtype
def test_triu_indices_specified_dtype__triu_indices(rows: int, cols: int):
    indices = torch.triu_indices(rows, cols, dtype=torch.int32)
    # Have to perform assertion here because TorchScript returns dtypes
    # as integers, which are not comparable against eager torch.dtype.
    assert indices.dtype == torch.int32


# TestTensorCreationOps.test_tril_indices_default_dtype
def test_tril_indices_default_dtype__tril_indices(rows: int, cols: int):
    indices = torch.tril_indices(rows, cols)
    # Have to perform assertion here because TorchScript returns dtypes
    # as integers, which are not comparable against eager torch.dtype.
    assert indices.dtype == torch.int64


# TestTensorCreationOps.test_tril_indices_specified_dtype
def test_tril_indices_specified_dtype__tril_indices(rows: int, cols: int):
    indices = torch.tril_indices(rows, cols, dtype=torch.int32)
    # Have to perform assertion here because TorchScript returns dtypes
    # as integers, which are not comparable against eager torch.dtype.
    assert indices.dtype == torch.int32
