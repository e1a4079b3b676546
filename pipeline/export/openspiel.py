"""A checked game as an OpenSpiel game: ``register(GAME_DIR)`` then
``pyspiel.load_game("r2g_<name>")``.

The game is registered through OpenSpiel's Python-game API (``pyspiel.register_game``
with a ``GameType`` and ``GameInfo``); its states delegate to the in-process build
(:mod:`rulebook2game.game`), so OpenSpiel's algorithms (MCTS, random simulation
tests, ...) run on the checked rules. Action ids are the game's own ids (indices of
:attr:`~rulebook2game.game.Game.action_texts`), for chance outcomes too. Observations
are the engine's (``observation_string`` / ``observation_tensor``); information-state
strings are not provided.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from rulebook2game.game import Game, State, load
from rulebook2game.game._facts import game_facts

PREFIX = "r2g_"


def register(game_dir: str | Path, *, trust: bool = False, short_name: str | None = None) -> str:
    """Register a game directory with OpenSpiel; returns its short name.

    ``pyspiel.load_game(name)`` works afterwards in this process. Registering the same
    name again is a no-op. ``trust`` is passed to :func:`rulebook2game.load` (which
    refuses games that have not passed ``check``).
    """
    game = load(game_dir, trust=trust)
    name = short_name or f"{PREFIX}{game.name}"
    if name in pyspiel.registered_names():
        return name
    game_type, info = _describe(game, name)

    class _Registered(_R2GGame):
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, info, game, params)

    pyspiel.register_game(game_type, _Registered)
    return name


def _describe(game: Game, name: str) -> tuple[Any, Any]:
    facts = game_facts(game)
    kind = pyspiel.GameType
    # Zero-sum as measured on random games (GameFacts); anything else is general-sum.
    zero_sum = facts.return_sum == 0.0
    utility = kind.Utility.ZERO_SUM if zero_sum else kind.Utility.GENERAL_SUM
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{game.name} (rulebook2game)",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=(
            kind.ChanceMode.EXPLICIT_STOCHASTIC if facts.chance else kind.ChanceMode.DETERMINISTIC
        ),
        information=(
            kind.Information.IMPERFECT_INFORMATION
            if facts.hidden
            else kind.Information.PERFECT_INFORMATION
        ),
        utility=utility,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=game.num_players,
        min_num_players=game.num_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions,
        max_chance_outcomes=game.num_distinct_actions if facts.chance else 0,
        num_players=game.num_players,
        min_utility=facts.min_return,
        max_utility=facts.max_return,
        utility_sum=0.0 if zero_sum else None,
        max_game_length=facts.max_length,
    )
    return game_type, info


class _R2GGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel face of a loaded game."""

    def __init__(self, game_type: Any, info: Any, game: Game, params: Any) -> None:
        super().__init__(game_type, info, params or {})
        self.r2g = game

    def new_initial_state(self) -> R2GState:
        """The state before the first action."""
        return R2GState(self, self.r2g.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> R2GObserver:
        """The engine's own observation (text and tensor)."""
        return R2GObserver(self.r2g, params)


class R2GState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state that delegates to an in-process :class:`~rulebook2game.game.State`."""

    def __init__(self, game: _R2GGame, state: State) -> None:
        super().__init__(game)
        self.r2g = state

    def current_player(self) -> int:
        """Player to move; OpenSpiel's CHANCE (-1) and TERMINAL (-4) are the engine's."""
        return self.r2g.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.r2g.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome id, probability): the pages' odds, or equally likely."""
        return self.r2g.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.r2g.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.r2g.action_to_string(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.r2g.is_terminal()

    def returns(self) -> list[float]:
        """Per-player returns (0 before the end, as OpenSpiel expects for terminal rewards)."""
        if not self.r2g.is_terminal():
            return [0.0] * self.r2g._game.num_players
        return self.r2g.returns()

    def __str__(self) -> str:
        return self.r2g.render()

    def __deepcopy__(self, memo: dict[int, Any]) -> R2GState:
        copy = R2GState(self.get_game(), self.r2g.clone())
        return copy

    def clone(self) -> R2GState:
        """An independent copy."""
        return self.__deepcopy__({})


class R2GObserver:
    """OpenSpiel's observer interface over the engine's observations."""

    def __init__(self, game: Game, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(game.observation_tensor_shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: R2GState, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` sees of ``state``."""
        self.tensor[:] = state.r2g.observation_tensor(player)

    def string_from(self, state: R2GState, player: int) -> str:
        """What ``player`` sees of ``state``, as text."""
        return state.r2g.observation_string(player)
