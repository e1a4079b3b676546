"""Engines that play random games natively, and their random choices reproduced in Python.

An engine with :class:`NativePlayouts` (the rl engine) plays seeded uniform-random
games inside its worker, one round trip per batch.

The native loop (``r2g_playouts`` in ``targets/rl/runtime/r2g_runtime.rl``) seeds a
splitmix64 generator once per batch and, at every step, picks
``legal[below(len(legal))]`` with the legal actions in action-table order. When a
batch dies (an abort or a hang of generated code) its records are lost; replaying
the same choices step by step through the engine protocol finds the exact action
sequence that triggers the fault.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB


class NativeRng:
    """splitmix64 as the rl runtime computes it (wrapping 64-bit integers)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output (unsigned)."""
        self.state = (self.state + GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * MUL1) & MASK64
        z = ((z ^ (z >> 27)) * MUL2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``[0, n)``, as the runtime's ``below``."""
        return (self.next() & 0x7FFFFFFFFFFFFFFF) % n


DEFAULT_MAX_STEPS = 10_000


@runtime_checkable
class NativePlayouts(Protocol):
    """An engine that plays seeded uniform-random games itself (the rl engine does)."""

    action_texts: tuple[str, ...]
    """Every action's canonical text, in the order the native loop enumerates them."""

    def playouts(
        self,
        seed: int,
        count: int,
        max_steps: int = DEFAULT_MAX_STEPS,
        *,
        record: bool = False,
        timeout: float | None = None,
    ) -> Sequence[Any]:
        """``count`` games from ``seed``; each has length, status, returns and actions."""
        ...


def derived_seed(seed: int, purpose: str, index: int) -> int:
    """A native seed for batch ``index`` of ``purpose`` in a run seeded ``seed``."""
    return random.Random(f"{seed}:{purpose}:{index}").getrandbits(62)
