"""Engines that play random games natively, and their random choices reproduced in Python.

An engine with :class:`NativePlayouts` (the rl engine) plays seeded uniform-random
games inside its worker, one round trip per batch.

The native loop (``r2g_playouts`` in ``targets/rl/runtime/r2g_runtime.rl``) seeds a
linear congruential generator once per batch and, at every step, picks an action as
:meth:`NativeRng.pick` does (random draws among the actions that can follow the
point where the game is suspended, until one is legal; one draw among the listed
moves when the game lists them; draws among the pages' candidate moves when the game
lists candidates). When a batch dies (an abort or a
hang of generated code) its records are lost; replaying the same choices step by
step through the engine protocol finds the exact action sequence that triggers
the fault.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from rulebook2game.targets.base import PlayoutRng as NativeRng

__all__ = [
    "DEFAULT_MAX_STEPS",
    "MoveLists",
    "NativeChooser",
    "NativePlayouts",
    "NativeRng",
    "derived_seed",
    "native_candidates",
    "native_chooser",
    "native_order",
]

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


@runtime_checkable
class MoveLists(Protocol):
    """An engine whose game may list its own legal moves (the rl engine: ``r2g_moves``)."""

    lists_moves: bool
    """Whether the game lists its moves (the native loop then draws among the list)."""
    action_texts: tuple[str, ...]
    """Every action's canonical text, by table index."""

    def legal_indices(self, state: Any) -> tuple[int, ...]:
        """The legal actions by table index (from the list when the game lists them)."""
        ...

    def listed_indices(self, state: Any) -> tuple[int, ...]:
        """The legal actions by table index in the order the pages list them (table
        order when the game does not list its moves): the native loop's draw order."""
        ...

    lists_candidates: bool
    """Whether the game lists candidate moves (the native loop then draws among them)."""

    def candidate_indices(self, state: Any) -> tuple[int, ...] | None:
        """The candidate moves by table index, in the pages' order (``None`` when the
        game lists none, or at a terminal state)."""
        ...

    def table_legal_indices(self, state: Any) -> tuple[int, ...]:
        """The legal actions found by testing every table entry."""
        ...


class NativeChooser(Protocol):
    """The native loop's choice at one step (:func:`native_chooser`)."""

    def __call__(self, legal: list[str], candidates: Sequence[int] | None = None) -> str: ...


def derived_seed(seed: int, purpose: str, index: int) -> int:
    """A native seed for batch ``index`` of ``purpose`` in a run seeded ``seed``."""
    return random.Random(f"{seed}:{purpose}:{index}").getrandbits(62)


def native_order(engine: object, state: Any, legal: Sequence[str]) -> list[str]:
    """``legal`` (the legal actions of ``state``, or its chance outcomes) in the order
    the native loop draws from: the order the pages list them in a game that lists its
    moves (:class:`MoveLists`), action-table order otherwise."""
    texts: tuple[str, ...] = getattr(engine, "action_texts", ())
    if isinstance(engine, MoveLists) and engine.lists_moves:
        position = {texts[i]: k for k, i in enumerate(engine.listed_indices(state))}
        return sorted(legal, key=lambda text: position.get(text, len(position)))
    order = {text: i for i, text in enumerate(texts)}
    return sorted(legal, key=order.__getitem__)


def native_candidates(engine: object, state: Any) -> tuple[int, ...] | None:
    """The candidate moves the native loop draws among at ``state`` (table indices, in
    the pages' order) when the game lists candidates (``r2g_move_candidates``), else
    ``None``."""
    if isinstance(engine, MoveLists) and engine.lists_candidates:
        return engine.candidate_indices(state)
    return None


def native_chooser(engine: NativePlayouts, seed: int) -> NativeChooser:
    """The native loop's choices for a batch seeded ``seed``, one call per step.

    Each call gets the legal actions (chance outcomes at a chance node) in the order
    the native loop draws from (:func:`native_order`) and, for a game that lists
    candidate moves, the state's candidates (:func:`native_candidates`), and returns
    the one the native loop takes there.
    """
    texts = engine.action_texts
    points: tuple[int, ...] = getattr(engine, "action_points", ())
    listed = bool(getattr(engine, "lists_moves", False))
    order = {text: i for i, text in enumerate(texts)}
    rng = NativeRng(seed)

    def choose(legal: list[str], candidates: Sequence[int] | None = None) -> str:
        indices = [order[text] for text in legal]
        index = rng.pick(len(texts), indices, points, listed=listed, candidates=candidates)
        if index is None:
            raise ValueError("no legal action to choose from")
        return texts[index]

    return choose
