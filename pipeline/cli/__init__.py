"""The ``rulebook2game`` command line.

One module per command; each exposes ``register(app)``. Commands only parse
options, call the library and render; errors become exit codes here and
nowhere else (see :func:`rulebook2game.cli._common.fail_cleanly`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer
import typer.core

from rulebook2game._version import __version__
from rulebook2game.cli import bench as _bench
from rulebook2game.cli import check as _check
from rulebook2game.cli import diff as _diff
from rulebook2game.cli import eval as _eval
from rulebook2game.cli import extract as _extract
from rulebook2game.cli import ingest as _ingest
from rulebook2game.cli import mutants as _mutants
from rulebook2game.cli import play as _play
from rulebook2game.cli import regress as _regress
from rulebook2game.cli import second_opinion as _second_opinion
from rulebook2game.cli import serve as _serve
from rulebook2game.cli import tool as _tool
from rulebook2game.cli import traces as _traces
from rulebook2game.cli._common import flowed

app = typer.Typer(
    name="rulebook2game",
    help="Turn a board-game rulebook into a rules-enforced, natively compiled game engine.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

_REGISTRATIONS: tuple[Callable[[typer.Typer], None], ...] = (
    # In the order of the pipeline: read, translate, check, review, measure.
    _extract.register,
    _ingest.register,
    _tool.register,
    _second_opinion.register,
    _check.register,
    _diff.register,
    _regress.register,
    _traces.register,
    _mutants.register,
    _eval.register,
    _bench.register,
    # Use the game.
    _play.register,
    _serve.register,
)
for _register in _REGISTRATIONS:
    _register(app)
for _info in app.registered_commands:
    _doc = _info.help or inspect.getdoc(_info.callback) or ""
    _info.help = flowed(_doc)

_typer_option_type = typer.core.TyperOption.display_type_rich


def _option_type(self: typer.core.TyperOption, ctx: Any) -> str | None:
    """The value placeholder of an option in ``--help``; a plain flag takes no value."""
    return None if self.is_flag else _typer_option_type(self, ctx)


# Typer prints `<bool>` beside flags such as `--mutants`, as if they took a value.
typer.core.TyperOption.display_type_rich = _option_type  # type: ignore[method-assign]


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"rulebook2game {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version_callback, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Turn a board-game rulebook into a rules-enforced, natively compiled game engine."""


def main() -> None:
    """Entry point of the console script."""
    app()
