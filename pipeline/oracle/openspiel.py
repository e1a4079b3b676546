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
        ids = state.legal_actions()
        for action_id, text in zip(
            ids, self._adapter.canonical_texts(state, player, ids), strict=True
        ):
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
        pairs = state.chance_outcomes()
        texts = self._adapter.canonical_texts(state, CHANCE, [a for a, _ in pairs])
        outcomes = [(text, float(p)) for text, (_, p) in zip(texts, pairs, strict=True)]
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

    def observation_string(self, state: State, player: int) -> str:
        """OpenSpiel's observation string, or its information-state string for games
        (hearts) that provide only that."""
        kind = self._game.get_type()
        try:
            if kind.provides_observation_string:
                return str(state.observation_string(player))
            return str(state.information_state_string(player))
        except pyspiel.SpielError as exc:
            raise OracleError(f"{self.name}: observation of {player}: {_first_line(exc)}") from exc

    def observation_tensor(self, state: State, player: int) -> list[float]:
        """OpenSpiel's observation tensor (or information-state tensor), flattened."""
        kind = self._game.get_type()
        try:
            if kind.provides_observation_tensor:
                return [float(x) for x in state.observation_tensor(player)]
            return [float(x) for x in state.information_state_tensor(player)]
        except pyspiel.SpielError as exc:
            raise OracleError(f"{self.name}: observation of {player}: {_first_line(exc)}") from exc

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The flat length of :meth:`observation_tensor`."""
        if self._game.get_type().provides_observation_tensor:
            shape = self._game.observation_tensor_shape()
        else:
            shape = self._game.information_state_tensor_shape()
        size = 1
        for n in shape:
            size *= int(n)
        return (size,)

    def information_state(self, state: State, player: int) -> str:
        """OpenSpiel's information-state string when the game has one (perfect recall:
        two states with equal strings are indistinguishable to ``player``), else its
        observation string."""
        kind = self._game.get_type()
        if kind.provides_information_state_string:
            return str(state.information_state_string(player))
        return self.observation_string(state, player)

    def clone(self, state: State) -> State:
        return state.clone()
