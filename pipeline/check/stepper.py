"""Observe a state and step from it, asking the engine as little as possible.

Lockstep comparison asks the oracle, at every state, for its options and then
applies one of them. Through the plain engine protocol that renders the options
twice (once to list them, once inside ``apply`` to find the chosen one). For
OpenSpiel engines, which expose ``action_map`` (canonical text -> action id), the
map of the observation is reused to step with ``state.child(id)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulebook2game.check.invariants import Observation, observe
from rulebook2game.engine import CHANCE, TERMINAL, Engine, IllegalActionError
from rulebook2game.errors import Rulebook2GameError


class EngineStepper:
    """Any engine, through the protocol."""

    def __init__(self, engine: Engine[Any]) -> None:
        self.engine = engine

    def observe(self, state: Any) -> tuple[Observation, Any]:
        """The state's observation and a token for :meth:`apply`."""
        return observe(self.engine, state), None

    def apply(self, state: Any, action: str, token: Any) -> Any:
        """The state after ``action`` (``token`` from :meth:`observe` of ``state``)."""
        return self.engine.apply(state, action)


class OpenSpielStepper(EngineStepper):
    """An OpenSpiel engine: one adapter pass per state."""

    def observe(self, state: Any) -> tuple[Observation, Any]:
        if state.is_terminal():
            returns = tuple(float(r) for r in state.returns())
            return Observation(TERMINAL, True, (), (), returns), {}
        ids: dict[str, int] = self.engine.action_map(state)  # type: ignore[attr-defined]
        player = int(state.current_player())
        if player == CHANCE:
            probability = {a: float(p) for a, p in state.chance_outcomes()}
            chance = tuple(sorted((text, probability[i]) for text, i in ids.items()))
            return Observation(player, False, (), chance, ()), ids
        return Observation(player, False, tuple(sorted(ids)), (), ()), ids

    def apply(self, state: Any, action: str, token: Any) -> Any:
        action_id = token.get(action)
        if action_id is None:
            raise IllegalActionError(action, sorted(token))
        return state.child(action_id)


def stepper_for(engine: Engine[Any]) -> EngineStepper:
    """The fastest stepper that is exact for ``engine``."""
    if engine.name.startswith("openspiel:") and hasattr(engine, "action_map"):
        return OpenSpielStepper(engine)
    return EngineStepper(engine)


def states_along(engine: Engine[Any], state: Any, actions: Sequence[str]) -> list[Any]:
    """The states after each of ``actions`` in turn from ``state``, up to the first
    action the engine refuses or fails on (exactly as applying them one at a time).

    An engine with ``apply_all`` (a compiled game: one worker round trip for the whole
    sequence) is asked once; after a fault the sequence is replayed one action at a
    time, so the states before the failing action are still returned.
    """
    batch = getattr(engine, "apply_all", None)
    if batch is not None and actions:
        try:
            return list(batch(state, actions))
        except Rulebook2GameError:
            pass
    states = []
    for action in actions:
        try:
            state = engine.apply(state, action)
        except (IllegalActionError, Rulebook2GameError):
            break
        states.append(state)
    return states
