"""Bots: players that choose an action on their own.

A bot is anything with ``choose(engine, state, seat, rng) -> str`` returning one of
``engine.legal_actions(state)``. A bot must decide from what its seat may see
(:func:`~rulebook2game.play.seat_view.seat_view`) and the public legal actions; it
gets the engine so it can search.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from rulebook2game.engine import Engine
from rulebook2game.errors import BadInputError


@runtime_checkable
class Bot(Protocol):
    """A player that chooses actions by itself."""

    def choose(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> str:
        """One of ``engine.legal_actions(state)`` for ``seat`` (the player to move)."""
        ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    def choose(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> str:
        """A uniformly random legal action."""
        return rng.choice(engine.legal_actions(state))


def _search_bot() -> Bot:
    # Searches the in-process build: only for pages that passed check (see SearchBot).
    from rulebook2game.bots import SearchBot

    return SearchBot()


def _ismcts_bot() -> Bot:
    # OpenSpiel's ISMCTS on the registered game: also only for checked pages.
    from rulebook2game.bots import ISMCTSBot

    return ISMCTSBot()


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "search": _search_bot,
    "ismcts": _ismcts_bot,
}
"""Bot kinds by the name the command line and the web app use."""


def make_bot(kind: str) -> Bot:
    """A new bot of kind ``kind``; an unknown kind is bad input."""
    factory = BOTS.get(kind)
    if factory is None:
        raise BadInputError(f"unknown bot {kind!r}; known: {', '.join(sorted(BOTS))}")
    return factory()
