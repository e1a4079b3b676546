"""Play a game: seats, bots, what a seat may see, a table that keeps the log.

:class:`~rulebook2game.play.table.Table` is one game in progress (states, the move
log, undo, save and load as a trace); the terminal front end
(:mod:`~rulebook2game.play.terminal`) and the web app (:mod:`rulebook2game.serve`)
are both views of it. Bots follow the small :class:`~rulebook2game.play.bots.Bot`
protocol; what a seat is shown comes from :func:`~rulebook2game.play.seat_view.seat_view`.
"""

from rulebook2game.play.bots import BOTS, Bot, RandomBot, make_bot
from rulebook2game.play.seat_view import seat_view
from rulebook2game.play.table import Move, Table

__all__ = ["BOTS", "Bot", "Move", "RandomBot", "Table", "make_bot", "seat_view"]
