"""Shared pieces of the command line: consoles and the error boundary."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console, ConsoleDimensions
from rich.markup import escape

from rulebook2game.errors import Rulebook2GameError

PIPE_WIDTH = 4000
"""Line width when standard output is not a terminal: wide enough that nothing wraps."""


class _OutputConsole(Console):
    """A console that wraps at the terminal's width, and not at all in a pipe or a log.

    Rich assumes 80 columns when it writes to a pipe: table headers were cut ("comp…")
    and long diff lines were folded into continuation lines that look like removals.
    ``COLUMNS`` in the environment still wins.
    """

    @property
    def size(self) -> ConsoleDimensions:
        dims = super().size
        if self.is_terminal or "COLUMNS" in os.environ:
            return dims
        return ConsoleDimensions(PIPE_WIDTH, dims.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]


console: Console = _OutputConsole()
"""Standard output: results and reports."""

err_console = Console(stderr=True)
"""Standard error: progress and failures."""


@contextmanager
def fail_cleanly() -> Iterator[None]:
    """Turn a package error into one line on stderr and its exit code.

    Anything that is not a :class:`Rulebook2GameError` is a bug of ours and keeps
    its traceback.
    """
    try:
        yield
    except Rulebook2GameError as exc:
        # The message names the user's paths and values: print it as plain text, so
        # that ``[/x]`` or ``:x:`` in a file name is neither markup nor an emoji.
        err_console.print(
            f"[bold red]error:[/] {escape(str(exc))}", highlight=False, emoji=False, soft_wrap=True
        )
        raise typer.Exit(code=exc.exit_code) from None
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted[/]")
        sys.exit(130)


def flowed(text: str) -> str:
    """Help text with each paragraph on one line, so the terminal wraps it at its width.

    Docstrings are wrapped at the source's line length; printed as they are, their
    breaks fall mid-phrase ("Pages that / look unreliable"). Blank lines still separate
    paragraphs.
    """
    paragraphs = re.split(r"\n\s*\n", text.strip())
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)
