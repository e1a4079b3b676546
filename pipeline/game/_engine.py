"""A loaded :class:`~rulebook2game.game.Game` behind the engine contract.

Bots, the terminal and browser tables and OpenSpiel export are written against
:class:`~rulebook2game.engine.ObservingEngine`; this adapter lets them use the fast
in-process build. States are :class:`~rulebook2game.game.State` objects treated as
values: ``apply`` returns a new state and leaves its argument unchanged.
"""

from __future__ import annotations

from rulebook2game.engine import IllegalActionError
from rulebook2game.errors import BadInputError
from rulebook2game.game._game import Game, State


class InProcessEngine:
    """An :class:`~rulebook2game.engine.ObservingEngine` over a loaded game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        """The loaded game (for id-level access)."""

    @property
    def name(self) -> str:
        return f"native:{self.game.name}"

    @property
    def players(self) -> int:
        return self.game.num_players

    def initial(self) -> State:
        return self.game.new_initial_state()

    def current_player(self, state: State) -> int:
        return state.current_player()

    def legal_actions(self, state: State) -> list[str]:
        return state.legal_action_texts()

    def chance_outcomes(self, state: State) -> list[tuple[str, float]]:
        texts = self.game.action_texts
        return sorted((texts[i], p) for i, p in state.chance_outcomes())

    def apply(self, state: State, action: str) -> State:
        try:
            action_id = self.game.action_id(action)
        except BadInputError:
            raise IllegalActionError(action, state.legal_action_texts()) from None
        return state.child(action_id)

    def is_terminal(self, state: State) -> bool:
        return state.is_terminal()

    def returns(self, state: State) -> list[float]:
        return state.returns()

    def serialize(self, state: State) -> str:
        return state.serialize()

    def deserialize(self, text: str) -> State:
        return self.game.deserialize(text)

    def render(self, state: State) -> str:
        return state.render()

    def observation_string(self, state: State, player: int) -> str:
        return state.observation_string(player)

    def observation_tensor(self, state: State, player: int) -> list[float]:
        return state.observation_tensor(player)

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        return self.game.observation_tensor_shape

    def clone(self, state: State) -> State:
        return state.clone()
