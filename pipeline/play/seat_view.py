"""What one seat may see of a state.

An engine that knows hidden information offers ``observation_string(state, player)``
(the text a player is allowed to see); every other engine shows the whole state
through ``render``, which is right for games of perfect information.
"""

from __future__ import annotations

from typing import Any

from rulebook2game.engine import Engine


def seat_view(engine: Engine[Any], state: Any, seat: int) -> str:
    """The state as ``seat`` may see it.

    Uses ``engine.observation_string(state, seat)`` when the engine has it, and
    ``engine.render(state)`` otherwise.
    """
    observe = getattr(engine, "observation_string", None)
    if callable(observe):
        return str(observe(state, seat))
    return engine.render(state)


def has_hidden_view(engine: Engine[Any]) -> bool:
    """Whether the engine gives each seat its own view (``observation_string``)."""
    return callable(getattr(engine, "observation_string", None))


def move_seen_by(player: int, action: str, seat: int | None, hidden: bool) -> str | None:
    """What ``seat`` may read of a move of ``player``: the action, or ``None`` (hidden).

    In a game without hidden information every move is public. In one with hidden
    information (:func:`has_hidden_view`) a seat reads its own actions only: chance
    outcomes (a deal) and other seats' actions (a pass of cards) may be secret, and the
    engine's view of the seat shows whatever of them is public. ``seat=None`` is the
    reviewer, who sees everything.
    """
    if not hidden or seat is None or player == seat:
        return action
    return None
