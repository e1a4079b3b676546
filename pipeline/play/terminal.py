"""The table in a terminal: rich output, plain ``input()`` for reading (works in tmux).

Each turn of a person shows what their seat may see, the legal actions numbered and
by canonical text, and a prompt. What can be typed: a number, an action or a unique
prefix of one, ``undo``, ``log``, ``save FILE``, ``help``, ``quit`` (or Ctrl-D). A
mistyped line is answered with one line and the game goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.columns import Columns
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from rulebook2game.engine import CHANCE
from rulebook2game.errors import BadInputError, EngineFault
from rulebook2game.play.resolve import PlayError, resolve_action
from rulebook2game.play.table import Move, Table
from rulebook2game.trace import write_trace

HELP = (
    "type a number or an action (a unique prefix will do); "
    "undo · log · save FILE · help · quit (or Ctrl-D)"
)

Reader = Callable[[str], str]


class TerminalTable:
    """A :class:`Table` played through a console."""

    def __init__(self, table: Table, console: Console, read: Reader = input) -> None:
        self.table = table
        self.console = console
        self.read = read
        self.viewer = min(table.humans) if table.humans else 0
        """The seat whose view is shown when no person is to move."""

    def run(self) -> None:
        """Play until the person quits (``quit`` or end of input)."""
        self.console.print(Text(HELP, style="dim"))
        self._show_moves(self.table.moves)
        shown: tuple[int, object] | None = None
        while True:
            self._show_moves(self.table.advance())
            now = (len(self.table.moves), self.table.state)
            if shown is None or shown[0] != now[0] or shown[1] is not now[1]:
                self._show_position()
                shown = now
            seat = self.table.to_move
            prompt = "game over> " if self.table.over else f"seat {seat}> "
            try:
                line = self.read(prompt)
            except EOFError:
                self.console.print()
                return
            if not self._handle(line.strip()):
                return

    def _handle(self, line: str) -> bool:
        """Carry out one typed line; ``False`` to stop."""
        word, _, rest = line.partition(" ")
        try:
            if word in ("quit", "exit", "q"):
                return False
            if word == "help" or word == "?":
                self.console.print(Text(HELP))
            elif word == "undo":
                taken = self.table.undo()
                self.console.print(Text(f"took back {len(taken)} step(s)", style="yellow"))
            elif word == "log":
                self._show_log()
            elif word == "save":
                self._save(rest.strip())
            elif self.table.over:
                raise PlayError("the game is over: undo, save FILE or quit")
            else:
                action = resolve_action(line, self.table.legal())
                self._show_moves([self.table.play(action)])
        except BadInputError as exc:
            self.console.print(Text(f"! {exc}", style="red"), soft_wrap=True)
        except EngineFault as exc:
            # The game's own code failed on this move (a finding about the pages); the
            # table is unchanged and another move may work.
            self.console.print(Text(f"! the game failed: {exc}", style="red"), soft_wrap=True)
        return True

    def _save(self, name: str) -> None:
        if not name:
            raise PlayError("save FILE: name the file to write")
        path = Path(name).expanduser()
        write_trace(self.table.to_trace(), path)
        saved = Text(f"saved {len(self.table.moves)} steps to {path}", style="green")
        self.console.print(saved, soft_wrap=True)

    def _show_moves(self, moves: list[Move]) -> None:
        # One person reads the log as their seat; people sharing a screen see all of it.
        reader = self.viewer if len(self.table.humans) == 1 else None
        hidden_run: list[Move] = []
        for move in [*moves, None]:
            if move is not None and move.player == CHANCE and not self.table.seen(move, reader):
                hidden_run.append(move)
                continue
            if hidden_run:
                first, last = hidden_run[0].t, hidden_run[-1].t
                steps = f"{first}-{last}. chance: {len(hidden_run)} hidden steps"
                text = f"{first:>3}. chance: (hidden)" if first == last else steps
                self.console.print(Text(text, style="magenta"))
                hidden_run = []
            if move is not None:
                style = "magenta" if move.by == "chance" else "cyan"
                text = f"{move.t:>3}. {move.describe(self.table.seen(move, reader))}"
                self.console.print(Text(text, style=style))

    def _show_log(self) -> None:
        if not self.table.moves:
            self.console.print(Text("no moves yet", style="dim"))
        self._show_moves(self.table.moves)

    def _show_position(self) -> None:
        table = self.table
        seat = self.viewer if table.over else table.to_move
        title = f"{table.game} · seat {seat}'s view"
        self.console.print(Panel(Text(table.view(seat).rstrip()), title=title, expand=False))
        if table.over:
            returns = table.returns() or []
            shown = "  ".join(f"seat {i}: {r:+g}" for i, r in enumerate(returns))
            self.console.print(Text(f"game over · returns  {shown}", style="bold green"))
            return
        legal = table.legal()
        items = [Text(f"{i:>2}. {a}") for i, a in enumerate(legal, start=1)]
        self.console.print(Text(f"seat {table.to_move} to move · legal actions:", style="bold"))
        self.console.print(Columns(items, padding=(0, 3)))
