"""The native playout loop's random choices, reproduced in Python.

``r2g_playouts`` (``runtime/r2g_runtime.rl``) seeds one splitmix64 generator per batch
(with ``seed & (2**63 - 1)``) and, at every step, picks an action with
``r2g_pick``:

1. up to ``size // 4 + 8`` times, draw ``c = below(size)`` over the whole action table
   and take it if it is legal (rejection sampling: every legal action is equally
   likely);
2. if every draw missed, take ``legal[below(len(legal))]`` with the legal action
   indices in table order (none legal: the game is stuck).

``below(n)`` is ``((next() & 0xffffffff) * n) >> 32``. Given the legal action indices
of each state (``RlEngine.legal_actions`` mapped through ``action_texts``), a
:class:`PlayoutRng` makes the same choices, so a batch whose worker died can be
replayed step by step to find the game and the action that killed it.
"""

from __future__ import annotations

from collections.abc import Sequence

MASK64 = (1 << 64) - 1
SEED_MASK = (1 << 63) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB


class PlayoutRng:
    """splitmix64 and the action choice of the native loop, seeded like a batch."""

    def __init__(self, seed: int) -> None:
        self.state = seed & SEED_MASK

    def next(self) -> int:
        """The next 64-bit output (as an unsigned number)."""
        self.state = (self.state + _GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * _MUL1) & MASK64
        z = ((z ^ (z >> 27)) * _MUL2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``[0, n)`` (``0 < n < 2**31``)."""
        return ((self.next() & 0xFFFFFFFF) * n) >> 32

    def pick(self, size: int, legal: Sequence[int]) -> int | None:
        """The action index the loop takes, given the table size and the legal indices.

        ``legal`` must be in table order (ascending); ``None`` when nothing is legal.
        """
        if size == 0:
            return None
        allowed = set(legal)
        for _ in range(size // 4 + 8):
            candidate = self.below(size)
            if candidate in allowed:
                return candidate
        if not legal:
            return None
        return legal[self.below(len(legal))]
