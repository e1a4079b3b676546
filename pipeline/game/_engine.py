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
        """``native:<game>``."""
        return f"native:{self.game.name}"

    @property
    def players(self) -> int:
        """Number of players."""
        return self.game.num_players

    def initial(self) -> State:
        """A new initial state."""
        return self.game.new_initial_state()

    def current_player(self, state: State) -> int:
        """Player to move (-1 chance, -4 over)."""
        return state.current_player()

    def legal_actions(self, state: State) -> list[str]:
        """Sorted canonical texts of the legal actions."""
        return state.legal_action_texts()

    def chance_outcomes(self, state: State) -> list[tuple[str, float]]:
        """(text, probability) pairs at a chance node."""
        texts = self.game.action_texts
        return sorted((texts[i], p) for i, p in state.chance_outcomes())

    def apply(self, state: State, action: str) -> State:
        """A new state after ``action`` (``state`` unchanged)."""
        try:
            action_id = self.game.action_id(action)
        except BadInputError:
            raise IllegalActionError(action, state.legal_action_texts()) from None
        return state.child(action_id)

    def is_terminal(self, state: State) -> bool:
        """Whether the game is over."""
        return state.is_terminal()

    def returns(self, state: State) -> list[float]:
        """Per-player returns."""
        return state.returns()

    def serialize(self, state: State) -> str:
        """rl's text form of the state."""
        return state.serialize()

    def deserialize(self, text: str) -> State:
        """A state from :meth:`serialize`'s text."""
        return self.game.deserialize(text)

    def render(self, state: State) -> str:
        """The whole state as the game prints it."""
        return state.render()

    def log_lines(self, state: State) -> list[str]:
        """The lines the pages logged while applying the action that led to ``state``."""
        return state.log_lines()

    def observation_string(self, state: State, player: int) -> str:
        """What ``player`` sees, as text."""
        return state.observation_string(player)

    def observation_tensor(self, state: State, player: int) -> list[float]:
        """What ``player`` sees, as floats."""
        return state.observation_tensor(player)

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of every observation tensor."""
        return self.game.observation_tensor_shape

    def clone(self, state: State) -> State:
        """An independent copy."""
        return state.clone()
