"""How the erf polynomials of `ts_fuser_cpu.mathlib` were fitted (needs mpmath; not run by tests).

    python packages/ts-fuser-cpu/scripts/fit_erf.py

Least-squares fits on Chebyshev nodes against 40-digit values, then the
worst relative error of the double-precision polynomial on a dense grid:

- erf(x) / x as a polynomial of degree 8 in x^2 on [0, 1] (error ~1.1e-12);
- erfc(x) * exp(x^2) as a polynomial of degree 14 in t = (x - 2.5) / 1.5 on
  [1, 4] (error ~2.4e-10, far below float32's 6e-8 after erf = 1 - e^(-x^2) Q).
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath as mp
import numpy as np

mp.mp.dps = 40


def fit(
    f: Callable[[mp.mpf], mp.mpf],
    a: float,
    b: float,
    degree: int,
    variable: Callable[[float], float],
    nodes: int = 400,
) -> tuple[np.ndarray, float]:
    k = np.arange(nodes)
    xs = (a + b) / 2 + (b - a) / 2 * np.cos(np.pi * (k + 0.5) / nodes)
    ts = np.array([variable(x) for x in xs])
    ys = np.array([float(f(mp.mpf(x))) for x in xs])
    coeffs, *_ = np.linalg.lstsq(np.vander(ts, degree + 1, increasing=True), ys, rcond=None)
    worst = 0.0
    for x in np.linspace(a, b, 3001):
        t = variable(x)
        p = 0.0
        for c in coeffs[::-1]:
            p = p * t + c
        ref = float(f(mp.mpf(x)))
        worst = max(worst, abs((p - ref) / ref))
    return coeffs, worst


def main() -> None:
    small, e1 = fit(lambda x: mp.erf(x) / x, 1e-6, 1.0, 8, lambda x: x * x)
    mid, e2 = fit(lambda x: mp.erfc(x) * mp.exp(x * x), 1.0, 4.0, 14, lambda x: (x - 2.5) / 1.5)
    print(f"erf(x)/x on [0, 1], in x^2: relative error {e1:.2e}")
    print([repr(float(c)) for c in small])
    print(f"erfc(x) exp(x^2) on [1, 4], in (x - 2.5) / 1.5: relative error {e2:.2e}")
    print([repr(float(c)) for c in mid])


if __name__ == "__main__":
    main()
