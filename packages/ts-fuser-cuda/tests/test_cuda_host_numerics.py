"""Every CUDA lowering, run on the host, against the interpreter.

The kernels of all cases (`cuda_cases.py`) are generated into one
compilation unit, compiled once by g++ with the host shim, and launched
through the same binding a GPU launch uses (`kernel.bind`: parameters,
vectorized entry when aligned, grid-stride grids, the status word of
kernels that can fail), on `HostDriver`'s small grids, so every grid-stride
loop goes round several times. Results must match the interpreter's exactly,
or within the ulps a case allows for the math library.
"""

from __future__ import annotations

import numpy as np
import pytest
from cuda_cases import CASES
from cuda_testing import assert_same, interpreted
from ts_fuser_cuda.testing import KernelBatch

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NaNs the interpreter makes


@pytest.fixture(scope="module")
def compiled(host_driver):
    batch = KernelBatch("tsjit_case")
    for case in CASES.values():
        batch.add(case.name, case.ir, *case.values)
    return batch.compile(host_driver)


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowering_matches_interpreter_on_the_host(name, compiled, record_property):
    case = CASES[name]
    got = compiled.run(name)
    record_property("cuda_count:lowering cases run on the host", 1)
    if case.falls_back:
        assert got is None
        return
    want = interpreted(case.ir, *case.values)
    if case.relative:
        # gelu's 1 + erf(x) (or 1 + tanh(x)) cancels for negative x: a one-ulp difference in the
        # library function is a large relative one in the result, but stays within an ulp of 1
        # times |x| / 2
        a = case.values[0]
        eps = np.finfo(a.dtype).eps
        with np.errstate(invalid="ignore"):
            close = np.abs(got[0] - want[0]) <= 4 * eps * np.abs(a)
        assert (close | (got[0] == want[0]) | (np.isnan(got[0]) & np.isnan(want[0]))).all()
        return
    assert_same(got, want, ulps=case.ulps)
