# Functions from PyTorch's TorchScript tests, test/jit/test_remove_mutation.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are those of the file that the lifted code uses.



# TestRemoveMutation.test_list_indexing_removal
def test_list_indexing_removal__successful():
    x = [1, 2, 3]
    x[0] = 4
    x[-1] = 0
    return x


# TestRemoveMutation.test_list_indexing_removal
def test_list_indexing_removal__successful_():
    x = [1, 2, 3]
    x[0] = 4
    x[-1] = 0
    return x


# TestRemoveMutation.test_list_indexing_removal
def test_list_indexing_removal__successful__():
    x = [1]
    x[-1] = 3
    return x
