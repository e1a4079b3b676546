"""``ISMCTSBot``: OpenSpiel's information-set MCTS on a game registered with OpenSpiel.

The search is OpenSpiel's own (``open_spiel.python.algorithms.ismcts``, the Python
port of its C++ ISMCTS; the C++ bot cannot be used on a game registered from Python:
OpenSpiel 2.0.2's Python-game trampoline does not forward ``ResampleFromInfostate``,
and the C++ bot aborts). The game is registered through
:func:`rulebook2game.export.openspiel.register`, and the bot's seat is the only
source of what it knows:

- tree nodes are keyed by the player to move and that player's observation (what the
  engine lets that seat see; its tensor, which is cheaper to make than the text and
  tells the same states apart), so one node holds every state its player cannot tell
  apart;
- every simulation starts from a state drawn again from what the seat may see (the
  runtime's determinization, :meth:`rulebook2game.game.State.resampled`), never
  from the true hidden state;
- leaves are valued by OpenSpiel's random-rollout evaluator (its Python one, which
  also gives the uniform priors the search asks for).

What the play history reveals beyond the current observation (a player who did not
follow suit has none of that suit) is not used by the determinization yet: the drawn
states agree with what the seat sees now, not with everything it saw.

ISMCTS is for games with hidden information; in a game of perfect information the bot
searches with :class:`~rulebook2game.bots.SearchBot` (plain MCTS: there is one state
per information set).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from rulebook2game.bots._random import RandomBot
from rulebook2game.bots._search import SearchBot
from rulebook2game.engine import Engine
from rulebook2game.export.openspiel import R2GState, register
from rulebook2game.game import Game, State


@dataclass(frozen=True)
class ISMCTSStats:
    """What the last search did."""

    simulations: int
    seconds: float
    searched: bool
    """False when the bot fell back to a random move (nothing to search, or hidden
    values the runtime cannot draw again)."""


class ISMCTSBot:
    """Information-set MCTS through OpenSpiel (see the module docstring).

    Args:
        simulations: simulations per move (each from a freshly drawn state).
        uct_c: exploration constant of UCT.
        rollouts: random rollouts per leaf evaluation.
        seed: seed of the search's random generators.
        trust: register (load) the game even if its pages have not passed ``check``.
    """

    name = "ismcts"

    def __init__(
        self,
        *,
        simulations: int = 400,
        uct_c: float = 2.0,
        rollouts: int = 1,
        seed: int = 0,
        trust: bool = False,
    ) -> None:
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.trust = trust
        self._seed = seed
        self._draws = np.random.RandomState(seed)
        self._fallback = RandomBot(seed)
        self._perfect = SearchBot(simulations=simulations, seed=seed, trust=trust)
        self._bots: dict[str, tuple[Any, Any]] = {}
        self.last: ISMCTSStats | None = None
        """Statistics of the last :meth:`step`."""

    def step(self, engine_or_game: Engine[Any] | Game, state: Any) -> str:
        """The canonical text of the action chosen for the player to move."""
        game, root = self._perfect._root(engine_or_game, state)
        if not game.has_hidden_information:
            return self._perfect.step(game, root)
        seat = root.current_player()
        legal = root.legal_actions()
        if root.is_chance_node() or len(legal) == 1 or root.resampled(seat, 0) is None:
            self.last = ISMCTSStats(0, 0.0, False)
            return self._fallback.step(game, root)
        spiel_game, bot = self._bot(game)

        started = time.perf_counter()
        action = int(bot.step(R2GState(spiel_game, root.clone())))
        self.last = ISMCTSStats(self.simulations, time.perf_counter() - started, True)
        return game.action_to_string(action)

    def choose(self, engine: Engine[Any], state: Any, seat: int, rng: Any) -> str:
        """The table's bot interface (``rulebook2game.play``): :meth:`step` for ``seat``."""
        return self.step(engine, state)

    def _bot(self, game: Game) -> tuple[Any, Any]:
        key = str(game.directory)
        if key not in self._bots:
            spiel_game = pyspiel.load_game(register(game.directory, trust=self.trust))
            bot = _ObservationKeyed(
                spiel_game,
                mcts.RandomRolloutEvaluator(self.rollouts, self._draws),
                self.uct_c,
                self.simulations,
                random_state=self._draws,
                final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                use_observation_string=True,
                allow_inconsistent_action_sets=True,
            )
            bot.set_resampler(self._resample)
            self._bots[key] = (spiel_game, bot)
        return self._bots[key]

    def _resample(self, spiel_state: Any, player: int) -> Any:
        """A state ``player`` cannot tell from ``spiel_state``, hidden values drawn again."""

        ours: State = spiel_state.r2g
        drawn = ours.resampled(player, int(self._draws.randint(0, 2**62)))
        if drawn is None:  # checked at the root; a later state cannot gain such a value
            raise AssertionError("hidden values that cannot be drawn again")
        return R2GState(spiel_state.get_game(), drawn)


class _ObservationKeyed(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS with nodes keyed by the observation tensor."""

    def get_state_key(self, state: Any) -> tuple[int, bytes]:
        player = state.current_player()
        tensor = np.asarray(state.r2g.observation_tensor(player), dtype=np.float32)
        return player, tensor.tobytes()
