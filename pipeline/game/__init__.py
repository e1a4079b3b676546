"""Play a checked game from Python, in-process, on its optimized native build.

    >>> import rulebook2game
    >>> game = rulebook2game.load("corpora/connect_four")   # refuses unchecked pages
    >>> state = game.new_initial_state()
    >>> state.apply_action(state.legal_actions()[0])        # ids ...
    >>> state.apply("drop(col=3)")                          # ... or canonical texts

``load`` refuses a game whose current pages have not passed ``rulebook2game check``
(generated code is untrusted until then); ``load(..., trust=True)`` opts in.
:class:`GameBatch` steps many games per call; :class:`InProcessEngine` puts a loaded
game behind the engine contract for bots and tables.
"""

from rulebook2game.game._batch import NO_ACTION, GameBatch
from rulebook2game.game._engine import InProcessEngine
from rulebook2game.game._game import Game, State
from rulebook2game.game._load import load
from rulebook2game.game._trust import CheckStatus, check_status

__all__ = [
    "NO_ACTION",
    "CheckStatus",
    "Game",
    "GameBatch",
    "InProcessEngine",
    "State",
    "check_status",
    "load",
]
