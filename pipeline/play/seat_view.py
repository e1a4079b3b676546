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


def hides_something(engine: Engine[Any], state: Any) -> bool:
    """Whether some seat may not see all of ``state`` (the game has hidden information).

    An engine that declares it (``has_hidden_information``, a flag or a method) is taken
    at its word. Otherwise a seat misses something when its observation differs from the
    whole state's rendering; an engine without observations hides nothing.
    """
    declared = getattr(engine, "has_hidden_information", None)
    if declared is not None:
        return bool(declared() if callable(declared) else declared)
    observe = getattr(engine, "observation_string", None)
    if not callable(observe):
        return False
    whole = engine.render(state)
    return any(str(observe(state, p)) != whole for p in range(engine.players))


def move_seen_by(player: int, action: str, seat: int | None, hidden: bool) -> str | None:
    """What ``seat`` may read of a move of ``player``: the action, or ``None`` (hidden).

    In a game without hidden information every move is public. In one with hidden
    information (:func:`hides_something`) a seat reads its own actions only: chance
    outcomes (a deal) and other seats' actions (a pass of cards) may be secret, and the
    engine's view of the seat shows whatever of them is public. ``seat=None`` is the
    reviewer, who sees everything.
    """
    if not hidden or seat is None or player == seat:
        return action
    return None
