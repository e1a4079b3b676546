"""OpenSpiel as a reference engine, seen through canonical action text.

:class:`OpenSpielEngine` satisfies :class:`rulebook2game.engine.Engine` over
``pyspiel`` states: legal actions and chance outcomes are rendered by the game's
:class:`~rulebook2game.oracle.adapter.Adapter` and sorted, ``apply`` works on a clone,
and every ``pyspiel.SpielError`` becomes an :class:`OracleError` here, at the boundary.
A serialized state is the OpenSpiel action-id history (``"2 0 5"``), replayed on load.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from rulebook2game.engine import CHANCE, IllegalActionError
from rulebook2game.errors import OracleError
from rulebook2game.oracle.adapter import Adapter

State = Any
"""A ``pyspiel.State`` (pyspiel ships no type information)."""


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def load_game(spec: str) -> Any:
    """``pyspiel.load_game(spec)`` with OpenSpiel's errors translated.

    ``spec`` is a short name, optionally with parameters: ``pig(winscore=50)``.
    """
    name = spec.split("(", 1)[0].strip()
    if name not in pyspiel.registered_names():
        raise OracleError(f"openspiel: unknown game {name!r}")
    try:
        return pyspiel.load_game(spec)
    except pyspiel.SpielError as exc:
        raise OracleError(f"openspiel:{spec}: {_first_line(exc)}") from exc


class OpenSpielEngine:
    """An OpenSpiel game behind the engine contract."""

    def __init__(self, spec: str, adapter: Adapter) -> None:
        self._spec = spec
        self._game = load_game(spec)
        self._adapter = adapter
        self._players: int = self._game.num_players()

    @property
    def name(self) -> str:
        return f"openspiel:{self._spec}"

    @property
    def players(self) -> int:
        return self._players

    @property
    def game(self) -> Any:
        """The underlying ``pyspiel.Game`` (for speed measurements with OpenSpiel's bots)."""
        return self._game

    def initial(self) -> State:
        return self._game.new_initial_state()

    def current_player(self, state: State) -> int:
        return int(state.current_player())

    def action_map(self, state: State) -> dict[str, int]:
        """Canonical text -> OpenSpiel action id, for every action legal in ``state``."""
        if state.is_terminal():
            return {}
        player = state.current_player()
        out: dict[str, int] = {}
        for action_id in state.legal_actions():
            text = self._adapter.to_canonical(state, player, action_id)
            if text in out:
                raise OracleError(
                    f"{self.name}: actions {out[text]} and {action_id} both read {text}"
                )
            out[text] = action_id
        return out

    def legal_actions(self, state: State) -> list[str]:
        """Sorted canonical texts; at a chance node, the possible outcomes."""
        return sorted(self.action_map(state))

    def chance_outcomes(self, state: State) -> list[tuple[str, float]]:
        if state.is_terminal() or not state.is_chance_node():
            return []
        outcomes = [
            (self._adapter.to_canonical(state, CHANCE, a), float(p))
            for a, p in state.chance_outcomes()
        ]
        return sorted(outcomes)

    def apply(self, state: State, action: str) -> State:
        legal = self.action_map(state)
        action_id = legal.get(action)
        if action_id is None:
            raise IllegalActionError(action, sorted(legal))
        child = state.clone()
        try:
            child.apply_action(action_id)
        except pyspiel.SpielError as exc:
            raise OracleError(f"{self.name}: {action}: {_first_line(exc)}") from exc
        return child

    def is_terminal(self, state: State) -> bool:
        return bool(state.is_terminal())

    def returns(self, state: State) -> list[float]:
        return [float(r) for r in state.returns()]

    def serialize(self, state: State) -> str:
        return " ".join(str(a) for a in state.history())

    def deserialize(self, text: str) -> State:
        state = self.initial()
        for token in text.split():
            try:
                action_id = int(token)
            except ValueError:
                raise OracleError(f"{self.name}: bad serialized state token {token!r}") from None
            if state.is_terminal() or action_id not in state.legal_actions():
                raise OracleError(f"{self.name}: serialized action {action_id} is not legal")
            state.apply_action(action_id)
        return state

    def render(self, state: State) -> str:
        return str(state)
