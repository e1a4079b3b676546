"""Where a list of actions leads: the position ``show_position`` and scenarios look at.

Plays the actions from the start through any engine and records the position
reached: its rendering, who moves, the legal actions or the chance outcomes, and
the returns at the end. An action that cannot be played stops the walk there, and
the view says which one and why, showing the position it was tried in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulebook2game.check.scenarios import apply_set
from rulebook2game.engine import CHANCE, Engine, IllegalActionError
from rulebook2game.errors import EngineFault, Rulebook2GameError


@dataclass(frozen=True)
class PositionView:
    """The position after ``played`` actions."""

    played: int
    requested: int
    rendered: str = ""
    player: int | None = None
    """Seat to move, ``-1`` for chance, ``None`` at the end of the game."""
    legal: tuple[str, ...] = ()
    chance: tuple[tuple[str, float], ...] = ()
    terminal: bool = False
    returns: tuple[float, ...] | None = None
    problem: str = ""
    """Why the walk stopped early (an action not legal here, a crash of the engine)."""
    serialized: str = ""
    """The engine's serialized state (what a scenario's ``[setup] state`` holds)."""


def view_position(
    engine: Engine[Any],
    actions: Sequence[str],
    start: str | None = None,
    changes: Mapping[str, Any] | None = None,
) -> PositionView:
    """Play ``actions`` from the start (or the serialized state ``start``), set the
    fields of ``changes`` in the position reached (as a scenario's ``[setup] set``), and
    describe it.

    Raises:
        BadInputError: a change that does not apply (see
            :func:`~rulebook2game.check.scenarios.apply_set`); the rest is in the view.
    """
    state: Any = None
    played = 0
    problem = ""
    try:
        state = engine.initial() if start is None else engine.deserialize(start)
        for played, action in enumerate(actions):
            if engine.is_terminal(state):
                problem = f"action {played} ({action}): the game is already over"
                break
            if engine.current_player(state) == CHANCE:
                offered = [a for a, _ in engine.chance_outcomes(state)]
            else:
                offered = engine.legal_actions(state)
            if action not in offered:
                problem = f"action {played} ({action}) is not legal here"
                break
            state = engine.apply(state, action)
        else:
            played = len(actions)
    except (Rulebook2GameError, IllegalActionError) as exc:
        problem = f"the engine failed at action {played}: {exc}"
        return PositionView(played=played, requested=len(actions), problem=problem)
    if changes and problem:
        problem += "; `set` was not applied"
    elif changes:
        state = apply_set(engine, state, changes)
    try:
        return _describe(engine, state, played, len(actions), problem)
    except (Rulebook2GameError, IllegalActionError) as exc:
        problem = f"the engine failed at action {played}: {exc}"
        return PositionView(played=played, requested=len(actions), problem=problem)


def _describe(
    engine: Engine[Any], state: Any, played: int, requested: int, problem: str
) -> PositionView:
    rendered = engine.render(state)
    text = engine.serialize(state)
    if engine.is_terminal(state):
        returns = tuple(engine.returns(state))
        return PositionView(played, requested, rendered, None, (), (), True, returns, problem, text)
    player = engine.current_player(state)
    if player == CHANCE:
        chance = tuple(engine.chance_outcomes(state))
        return PositionView(
            played, requested, rendered, player, (), chance, problem=problem, serialized=text
        )
    legal = tuple(engine.legal_actions(state))
    return PositionView(
        played, requested, rendered, player, legal, problem=problem, serialized=text
    )


MAX_POSITIONS = 10
"""Findings per check run that get their position rendered (one replay each)."""


def at_difference(engine: Engine[Any], actions: Sequence[str]) -> str:
    """The rendered position after ``actions`` (empty when the engine cannot get there)."""
    try:
        state = engine.initial()
        for action in actions:
            state = engine.apply(state, action)
        return engine.render(state)
    except (EngineFault, IllegalActionError, ValueError):
        return ""
