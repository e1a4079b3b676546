"""Bots that play any game through the engine contract or the in-process API.

Every bot has ``step(engine_or_game, state) -> str``: the canonical text of the action
it chooses for the player to move. ``engine_or_game`` is an
:class:`~rulebook2game.engine.Engine` (with its own states) or a loaded
:class:`~rulebook2game.game.Game` (with :class:`~rulebook2game.game.State` states).

- :class:`RandomBot`: a uniformly random legal action (chance: by the outcome odds).
- :class:`SearchBot`: Monte Carlo tree search for any number of players, chance and
  hidden information; with hidden information it searches states drawn again from
  what its seat may see, never the true hidden state.
- :class:`ISMCTSBot`: OpenSpiel's information-set MCTS on the game registered with
  OpenSpiel, nodes keyed by what each seat sees, states drawn again the same way.
"""

from rulebook2game.bots._ismcts import ISMCTSBot, ISMCTSStats
from rulebook2game.bots._random import RandomBot
from rulebook2game.bots._search import SearchBot, SearchStats

__all__ = ["ISMCTSBot", "ISMCTSStats", "RandomBot", "SearchBot", "SearchStats"]
