"""Mutated archives for the safety campaigns: flipped bytes, truncation, inflated sizes.

`campaign(seed_archives, n, load, fixup)` makes `n` mutants of the seeds and
loads each, recording what happened: loaded, or which exception type. A
mutant that raises anything but the allowed errors, takes longer than
`time_limit` seconds or allocates more than twice its size plus 50 MB
(traced by `tracemalloc`) is a failure.
"""

from __future__ import annotations

import collections
import io
import random
import signal
import struct
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

BIG_VALUES = [
    2**31 - 1,
    2**31,
    2**32 - 1,
    2**32,
    2**40,
    2**62,
    2**63 - 1,
    2**64 - 1,
    50_000_000_000,
    0xFFFF_FFFF_FFFF,
]


class Hang(Exception):
    """A load that did not finish in time."""


@dataclass
class Outcome:
    loaded: int = 0
    errors: collections.Counter = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)
    worst_ratio: float = 0.0  # peak traced bytes / (2 * size + 50 MB)
    slowest: float = 0.0

    def summary(self) -> str:
        common = ", ".join(f"{k}: {v}" for k, v in self.errors.most_common(6))
        return (
            f"{self.loaded} loaded, {sum(self.errors.values())} refused ({common}); "
            f"{len(self.failures)} failures; worst peak {self.worst_ratio:.3f} of the bound; "
            f"slowest {self.slowest:.2f}s"
        )


def flip_bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8) if rng.random() < 0.7 else rng.randrange(1, 256)
    return bytes(out)


def truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data))]


def splice(rng: random.Random, data: bytes) -> bytes:
    i = rng.randrange(len(data))
    if rng.random() < 0.5:
        return data[:i] + data[i + rng.randint(1, 64) :]
    return data[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 16))) + data[i:]


def inflate_integers(rng: random.Random, data: bytes, region: tuple[int, int]) -> bytes:
    """Overwrite a few little- or big-endian integers inside `region` with huge values."""
    out = bytearray(data)
    start, end = region
    for _ in range(rng.randint(1, 3)):
        width = rng.choice([4, 8])
        if end - start <= width:
            break
        i = rng.randrange(start, end - width)
        value = rng.choice(BIG_VALUES) % (1 << (8 * width))
        order = rng.choice("<>")
        out[i : i + width] = struct.pack(order + ("I" if width == 4 else "Q"), value)
    return bytes(out)


def campaign(
    seeds: Sequence[bytes],
    n: int,
    load: Callable[[bytes], Any],
    allowed: tuple[type[BaseException], ...],
    *,
    structured: Callable[[random.Random, bytes], bytes] | None = None,
    header_region: Callable[[bytes], tuple[int, int]] | None = None,
    seed: int = 0,
    time_limit: float = 20.0,
) -> Outcome:
    """Load `n` mutants of `seeds`; `structured` makes mutants that keep checksums valid."""
    rng = random.Random(seed)
    outcome = Outcome()
    mutators: list[Callable[[random.Random, bytes], bytes]] = [flip_bytes, truncate, splice]
    if header_region is not None:
        mutators.append(lambda r, d: inflate_integers(r, d, header_region(d)))
    if structured is not None:
        mutators += [structured, structured]

    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, on_alarm)
    tracemalloc.start()
    try:
        for i in range(n):
            original = seeds[i % len(seeds)]
            mutate = mutators[rng.randrange(len(mutators))]
            data = mutate(rng, original)
            if not data:
                data = original[:1]
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            started = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, time_limit)
            try:
                load(data)
                outcome.loaded += 1
            except Hang:
                outcome.failures.append(f"mutant {i} ({mutate.__name__}) did not finish in time")
            except allowed as exc:
                outcome.errors[type(exc).__name__] += 1
            except BaseException as exc:  # the point of the campaign: anything else is a bug
                outcome.failures.append(
                    f"mutant {i} ({getattr(mutate, '__name__', 'mutate')}): "
                    f"{type(exc).__name__}: {str(exc)[:300]}"
                )
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            elapsed = time.perf_counter() - started
            outcome.slowest = max(outcome.slowest, elapsed)
            peak = tracemalloc.get_traced_memory()[1] - base
            ratio = peak / (2 * len(data) + 50_000_000)
            outcome.worst_ratio = max(outcome.worst_ratio, ratio)
            if ratio >= 1:
                outcome.failures.append(f"mutant {i}: peak {peak} bytes for {len(data)} bytes")
    finally:
        tracemalloc.stop()
        signal.signal(signal.SIGALRM, previous)
    return outcome


def from_bytes(load: Callable[..., Any]) -> Callable[[bytes], Any]:
    return lambda data: load(io.BytesIO(data))
