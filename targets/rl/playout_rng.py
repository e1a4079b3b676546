"""The native playout loop's random choices, reproduced in Python.

``r2g_playouts`` (``runtime/r2g_runtime.rl``) seeds one linear congruential generator per batch
(with ``seed & (2**63 - 1)``) and, at every step, picks an action (in the loop's own
body; ``r2g_pick`` for a game that lists its moves):

1. the candidates are the action-table indices whose resumption point is the point the
   game is suspended at (``points``, one per table entry, from the build; with no
   points, or at a point of no entries, the whole table), in table order: ``m`` of
   them;
2. up to ``m // 4 + 8`` times, draw ``c = candidates[below(m)]`` and take it if it is
   legal (rejection sampling: every legal action is equally likely);
3. if every draw missed, take ``legal[below(len(legal))]`` with the legal action
   indices in table order;
4. with nothing legal the game is stuck and the generator is left as it was.

A game that lists its own legal moves (``r2g_moves``, the worker says so in its
greeting: ``lists_moves``) skips 1-3: the loop takes ``listed[below(len(listed))]``
with the indices in the order the pages list them (the engine reports that order:
``RlEngine.listed_indices``), one draw per step.

A game that lists candidate moves (``r2g_move_candidates``, or slots:
``r2g_candidate_slots``/``r2g_candidate_at``; greeting: ``lists_candidates``) replaces
the candidates of 1 with its own list, in the pages' order (``RlEngine.candidate_indices``;
slots in slot order, an empty one -1, never legal): 2-4 then draw among them, and the
legal actions of 3 are the legal candidates in that order. The native loop computes only
the slots it draws; the draws are the same as over the whole list.

``next()`` is the high 32 bits of the 64-bit state after ``state = state *
6364136223846793005 + 1442695040888963407`` (Knuth's MMIX constants); ``below(n)`` is
``(next() * n) >> 32``. Given the legal action indices
of each state (``RlEngine.legal_indices``, or the legal actions mapped through
``action_texts``), a :class:`PlayoutRng` makes the same choices: the point of a state
that has legal actions is the point of any of them, and legal actions at several points
mean a *mixed point* (``resume_points.py``: a point of every action, left out of the
map, where the loop tests the whole table). So a batch whose worker died can
be replayed step by step to find the game and the action that killed it, and the
optimized loop can be played in lockstep against the checked build.
"""

from __future__ import annotations

from collections.abc import Sequence

MASK64 = (1 << 64) - 1
SEED_MASK = (1 << 63) - 1
_MULTIPLIER = 6364136223846793005
_INCREMENT = 1442695040888963407
MAX_POINTS = 64
"""``R2G_POINTS`` of the runtime: with a point at or beyond it, the whole table is tested."""


class PlayoutRng:
    """The native loop's generator and action choice, seeded like a batch."""

    def __init__(self, seed: int) -> None:
        self.state = seed & SEED_MASK

    def next(self) -> int:
        """The next 32-bit output: the high half of the advanced state."""
        self.state = (self.state * _MULTIPLIER + _INCREMENT) & MASK64
        return self.state >> 32

    def below(self, n: int) -> int:
        """A number in ``[0, n)`` (``0 < n < 2**31``)."""
        return (self.next() * n) >> 32

    def pick(
        self,
        size: int,
        legal: Sequence[int],
        points: Sequence[int] = (),
        *,
        listed: bool = False,
        candidates: Sequence[int] | None = None,
    ) -> int | None:
        """The action index the loop takes, given the table size and the legal indices.

        ``legal`` holds table indices; ``points`` is the resumption point of every
        table entry (empty: every entry is a candidate); ``listed``: the game lists its
        moves, so the loop draws once among them, and ``legal`` must be in the order the
        pages list them; ``candidates``: the game lists candidate moves, these (in the
        pages' order), and the loop draws among them. ``None`` when nothing is legal.

        """
        if size == 0 or not legal:
            return None
        if listed:
            return legal[self.below(len(legal))]
        allowed = set(legal)
        if candidates is not None:
            drawn = list(candidates)
            ordered = [c for c in drawn if c in allowed]
            if not ordered:
                return None
        else:
            drawn = self._candidates(size, legal, points)
            ordered = sorted(allowed)
        for _ in range(len(drawn) // 4 + 8):
            candidate = drawn[self.below(len(drawn))]
            if candidate in allowed:
                return candidate
        return ordered[self.below(len(ordered))]

    def _candidates(self, size: int, legal: Sequence[int], points: Sequence[int]) -> list[int]:
        if len(points) != size or not all(0 <= p < MAX_POINTS for p in points):
            return list(range(size))
        point = points[legal[0]]
        if any(points[i] != point for i in legal):
            return list(range(size))  # a mixed point: the whole table
        return [i for i in range(size) if points[i] == point]
