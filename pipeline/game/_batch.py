"""Many games of one kind stepped together: one native call advances all of them.

For learners: give one action id per game, get back who moves next, the legal ids and
(optionally) the observation tensor of the player to move, for every game at once.
"""

from __future__ import annotations

import ctypes
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulebook2game.engine import CHANCE, TERMINAL, chance_probabilities

if TYPE_CHECKING:
    from rulebook2game.game._game import Game, State

NO_ACTION = -1
"""An action id meaning "leave this game as it is" (after a reset, for instance)."""


class GameBatch:
    """``size`` games of ``game``, all starting at the initial state.

    Args:
        game: the loaded game.
        size: how many games.
        tensors: also write each game's observation tensor (of the player to move; of
            player 0 at chance and terminal states) after every step.
    """

    def __init__(self, game: Game, size: int, *, tensors: bool = False) -> None:
        native = game._native
        self._game = game
        self._native = native
        self.size = size
        self._stride = native.size + 2
        self._games = native.call("r2g_new_games", size)
        self._chosen = native.call("r2g_int_buffer", size)
        self._out = native.call("r2g_int_buffer", size * self._stride)
        self._width = native.tensor_size if tensors else 0
        self._width_arg = ctypes.c_longlong(self._width)
        self._tensors = native.call("r2g_float_buffer", max(1, size * self._width))
        self._chosen_array = (ctypes.c_longlong * size).from_address(
            ctypes.addressof(self._chosen._data.contents)
        )
        self._data = self._out._data
        self._args = tuple(
            ctypes.byref(x)
            for x in (self._games, self._chosen, self._out, self._tensors, self._width_arg)
        )
        self._weight_calls = native.weight_calls(game._odds)
        self._weight = ctypes.c_longlong()
        self._weight_ref = ctypes.byref(self._weight)
        self.step([NO_ACTION] * size)

    def step(self, actions: Sequence[int]) -> None:
        """Apply ``actions[k]`` to game ``k`` (``NO_ACTION`` leaves it), all in one call.

        An illegal action leaves its game unchanged; :meth:`illegal` tells which.
        """
        self._chosen_array[:] = list(actions)
        self._native.step_many(*self._args)

    def current_player(self, k: int) -> int:
        """Who moves in game ``k`` (``-1`` chance, ``-4`` over)."""
        return int(self._data[k * self._stride + 1])

    def is_terminal(self, k: int) -> bool:
        """Whether game ``k`` is over."""
        return self.current_player(k) == TERMINAL

    def is_chance_node(self, k: int) -> bool:
        """Whether chance moves next in game ``k``."""
        return self.current_player(k) == CHANCE

    def illegal(self, k: int) -> bool:
        """Whether the last action given to game ``k`` was refused."""
        return int(self._data[k * self._stride]) < 0

    def legal_actions(self, k: int) -> list[int]:
        """The legal action ids of game ``k`` (ascending)."""
        base = k * self._stride
        n = int(self._data[base])
        return list(self._data[base + 2 : base + 2 + n]) if n > 0 else []

    def chance_outcomes(self, k: int) -> list[tuple[int, float]]:
        """At a chance node of game ``k``: (action id, probability), by the pages' odds
        (:attr:`Game.has_weighted_chance`) or equally likely; else empty."""
        if self.current_player(k) != CHANCE:
            return []
        legal = self.legal_actions(k)
        if not self._weight_calls:
            return [(i, 1.0 / len(legal)) for i in legal]
        texts = [self._game.action_texts[i] for i in legal]
        return list(zip(legal, chance_probabilities(texts, self._weights(k, legal)), strict=True))

    def _weights(self, k: int, legal: list[int]) -> list[int]:
        """The pages' weight of each outcome in ``legal`` at game ``k``, read where the
        game lies in the batch (a view of the vector's element): no copy of the game."""
        g = ctypes.byref(self._games._data[k])
        calls, result, out = self._weight_calls, self._weight_ref, []
        for i in legal:
            call = calls.get(i)
            if call is None:
                out.append(1)
            else:
                call[0](result, g, *call[1])
                out.append(self._weight.value)
        return out

    def random_action(self, k: int, rng: random.Random) -> int:
        """A random action for game ``k``: at a chance node an outcome drawn by its
        probability (:meth:`chance_outcomes`), otherwise a uniformly random legal
        action; ``NO_ACTION`` when the game is over."""
        player = self.current_player(k)
        if player == TERMINAL:
            return NO_ACTION
        legal = self.legal_actions(k)
        if player == CHANCE and self._weight_calls:
            weights = self._weights(k, legal)
            if min(weights) <= 0:  # the pages' fault: chance_probabilities says which
                chance_probabilities([self._game.action_texts[i] for i in legal], weights)
            return int(rng.choices(legal, weights)[0])
        return int(legal[rng.randrange(len(legal))])

    def random_actions(self, rng: random.Random) -> list[int]:
        """:meth:`random_action` for every game, in order: the actions for :meth:`step`."""
        return [self.random_action(k, rng) for k in range(self.size)]

    def observation_tensor(self, k: int) -> list[float]:
        """Game ``k``'s tensor from the last step (needs ``tensors=True``)."""
        start = k * self._width
        return list(self._tensors._data[start : start + self._width])

    def reset(self, k: int) -> None:
        """Start game ``k`` again (call :meth:`step` with ``NO_ACTION`` to refresh it)."""
        self._native.call("r2g_reset_game", self._games, k)

    def state(self, k: int) -> State:
        """A copy of game ``k`` as a :class:`State` (its history is not kept)."""
        g = self._native.call("r2g_game_at", self._games, k)
        return self._game._state(g, [])

    def returns(self, k: int) -> list[float]:
        """Game ``k``'s returns."""
        return self.state(k).returns()
