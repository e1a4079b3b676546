"""``rulebook2game extract RULES.pdf -o rulebook.json``: sections and a sentence ledger.

A ``.vmod`` Vassal module or a ``.vlog``/``.vsav`` saved game goes to the Vassal reader
instead (its inventory or events, as JSON); anything else is read as a PDF.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.errors import BadInputError
from rulebook2game.extract import Rulebook, extract_rulebook, write_rulebook

VASSAL_SUFFIXES = frozenset({".vmod", ".vlog", ".vsav"})


def extract(
    source: Annotated[
        Path, typer.Argument(help="The rulebook PDF (or a Vassal .vmod, .vlog or .vsav file).")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the JSON.")],
    password: Annotated[
        str | None, typer.Option(help="Password of an encrypted PDF.", show_default=False)
    ] = None,
    module: Annotated[
        Path | None,
        typer.Option(help="For a Vassal .vlog/.vsav: the module that names its pieces."),
    ] = None,
) -> None:
    """Extract a rulebook PDF into sections, blocks and a sentence ledger (JSON).

    Reading order comes from positions on the page, never from drawing order. Pages that
    look unreliable are listed as low-confidence in the output.
    """
    with fail_cleanly():
        _check_output(source, output)
        if module is not None:
            _check_output(module, output)
        if source.suffix.lower() in VASSAL_SUFFIXES:
            summary = _extract_vassal(source, output, module)
            console.print(summary, highlight=False, markup=False, emoji=False)
            return
        if module is not None:
            raise BadInputError("--module applies to Vassal .vlog/.vsav files only")
        start = time.perf_counter()
        rulebook = _extract_with_progress(source, password)
        write_rulebook(rulebook, output)
        elapsed = time.perf_counter() - start
        console.print(
            _summary(rulebook, output, elapsed),
            highlight=False,
            markup=False,
            emoji=False,
            soft_wrap=True,
        )


def _extract_vassal(source: Path, output: Path, module: Path | None) -> str:
    from rulebook2game.vassal import extract_vassal  # only Vassal files need the reader

    return extract_vassal(source, output, module)


def _check_output(source: Path, output: Path) -> None:
    """Refuse an output that cannot be written, before spending time on the PDF."""
    if output.is_dir():
        raise BadInputError(f"--output {output} is a directory; give a file name")
    if not output.parent.is_dir():
        raise BadInputError(f"--output {output}: directory {output.parent} does not exist")
    if source.exists() and output.exists() and output.resolve() == source.resolve():
        raise BadInputError(f"--output must not be the input file {source}")


def _extract_with_progress(source: Path, password: str | None) -> Rulebook:
    columns = (
        TextColumn("reading pages"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[dim]{task.fields[name]}"),
    )
    # Not a terminal (a pipe, a CI log): no bar, and no blank line left where it was.
    live = err_console.is_terminal
    with Progress(*columns, console=err_console, transient=True, disable=not live) as bar:
        task = bar.add_task("extract", total=None, name=source.name)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return extract_rulebook(source, password=password, progress=advance)


def _summary(rulebook: Rulebook, output: Path, seconds: float) -> str:
    pages = rulebook.metadata.pages
    flagged = [f.page for f in rulebook.low_confidence]
    where = f" (p. {', '.join(map(str, flagged[:8]))}{'...' if len(flagged) > 8 else ''})"
    return (
        f"{rulebook.metadata.source}: {pages} pages, {len(rulebook.sections)} sections, "
        f"{len(rulebook.sentences)} sentences ({_roles(rulebook)}), "
        f"{len(flagged)} low-confidence pages"
        f"{where if flagged else ''}, {1000 * seconds / max(1, pages):.0f} ms/page -> {output}"
    )


def _roles(rulebook: Rulebook) -> str:
    counts: Counter[str] = Counter(s.role for s in rulebook.sentences)
    order = ("rule", "example", "framing", "figure")
    return ", ".join(f"{counts[r]} {r}" for r in order if counts[r])


def register(app: typer.Typer) -> None:
    """Add ``extract`` to the command line."""
    app.command(name="extract")(extract)
