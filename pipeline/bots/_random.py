"""``RandomBot``: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import Any

from rulebook2game.engine import CHANCE, Engine
from rulebook2game.game import Game


class RandomBot:
    """Plays a uniformly random legal action; at a chance node, an outcome by its odds.

    Args:
        seed: seed of the bot's own random generator (same seed, same choices).
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def step(self, engine_or_game: Engine[Any] | Game, state: Any) -> str:
        """The canonical text of the chosen action."""
        if isinstance(engine_or_game, Game):
            if state.is_chance_node():
                ids, odds = zip(*state.chance_outcomes(), strict=True)
                return engine_or_game.action_to_string(self._rng.choices(ids, odds)[0])
            return engine_or_game.action_to_string(self._rng.choice(state.legal_actions()))
        engine = engine_or_game
        if engine.current_player(state) == CHANCE:
            texts, weights = zip(*engine.chance_outcomes(state), strict=True)
            return str(self._rng.choices(texts, weights)[0])
        return self._rng.choice(engine.legal_actions(state))

    def choose(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> str:
        """The table's bot interface (``rulebook2game.play``): :meth:`step` for ``seat``."""
        return self.step(engine, state)
