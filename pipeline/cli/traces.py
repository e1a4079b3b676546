"""``rulebook2game traces GAME_DIR``: choose golden traces for coverage, or show what they cover."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from rulebook2game.cli._common import console, fail_cleanly
from rulebook2game.errors import BadInputError
from rulebook2game.oracle import load_oracle
from rulebook2game.trace import write_text_atomic
from rulebook2game.traces.coverage import game_coverage
from rulebook2game.traces.search import (
    SELECTION_FILE,
    Choice,
    Reserve,
    choose,
    file_candidates,
    oracle_walks,
    rule_mutants,
    selection_record,
)
from rulebook2game.traces.select import Candidate
from rulebook2game.workspace import open_workspace


def _show(choice: Choice) -> None:
    for p in choice.selection.picks:
        why = sorted(f for f in p.new if not f.startswith("mutant: "))
        kills = len(p.new) - len(why)
        trace = p.candidate.trace
        console.print(
            f"  keep {escape(p.candidate.name):<24} {len(trace.steps):>5} steps"
            f"  first to cover: {escape(', '.join(why)) or '-'}"
            + (f" (+{kills} mutants)" if kills else ""),
            soft_wrap=True,
        )
    if choice.selection.uncovered:
        left = sorted(choice.selection.uncovered)
        console.print(f"  [yellow]left uncovered by the cap:[/] {escape(', '.join(left[:12]))}")
    if choice.kills:
        compiled = sum(k.compiled for k in choice.kills.values())
        unkilled = choice.mutants_unkilled
        console.print(
            f"  mutants: {compiled - len(unkilled)}/{compiled} killed by some candidate's replay"
            + (f"; none kills {escape(', '.join(unkilled[:8]))}" if unkilled else ""),
            soft_wrap=True,
        )


def traces_command(
    game_dir: Annotated[Path, typer.Argument(help="The game directory.")],
    select: Annotated[
        bool, typer.Option("--select", help="Choose a small covering set (else: show coverage).")
    ] = False,
    sources: Annotated[
        list[Path] | None,
        typer.Option("--from", help="Candidate trace files or folders (played games, scenarios)."),
    ] = None,
    walks: Annotated[
        int, typer.Option(help="Walks of the reference engine (game.toml's oracle).")
    ] = 3000,
    max_traces: Annotated[int, typer.Option("--max", help="Most traces kept.")] = 12,
    mutants: Annotated[
        bool, typer.Option(help="Also cover every mutant of the pages a candidate kills (slow).")
    ] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Mutants compiled at once.")] = 1,
    hunt: Annotated[
        int,
        typer.Option(
            min=0, help="With --mutants: other walks replayed per mutant no candidate kills."
        ),
    ] = 600,
    write: Annotated[
        bool, typer.Option("--write", help="Replace traces/*.jsonl with the kept traces.")
    ] = False,
) -> None:
    """Choose golden traces that cover every ending, action and (with --mutants) page mutant.

    Candidates come from --from (games you played, scenario traces) or, when the game
    names a reference engine, from seeded walks of it. Without --select, print what
    the current golden traces cover and what no trace covers.
    """
    with fail_cleanly():
        ws = open_workspace(game_dir)
        config = ws.config()
        if not select:
            for line in game_coverage(game_dir).lines():
                console.print(f"{escape(config.name)}: {escape(line)}", soft_wrap=True)
            return
        if walks < 0 or max_traces < 1 or jobs < 1:
            raise BadInputError("--walks must be >= 0, --max and --jobs >= 1")
        candidates: list[Candidate] = []
        reserve: Reserve | None = None
        if sources:
            missing = [str(p) for p in sources if not p.exists()]
            if missing:
                raise BadInputError(f"{missing[0]}: no such file or folder")
            candidates += file_candidates(sources)
        elif config.oracle is not None:
            engine = load_oracle(config.oracle)
            limit = config.max_game_length or 10_000
            walked, reserve = oracle_walks(engine, game=config.name, walks=walks, max_steps=limit)
            candidates += walked
        if not candidates:
            raise BadInputError(
                f"{game_dir}: no candidates (give --from, or an oracle in game.toml)"
            )
        choice = choose(
            candidates,
            game_dir=game_dir if mutants else None,
            mutants=rule_mutants(game_dir) if mutants else (),
            max_traces=max_traces,
            cache=ws.root / "build" / "trace-adequacy.json",
            workers=jobs,
            reserve=reserve,
            hunt_limit=hunt,
        )
        console.print(
            f"{escape(config.name)}: {len(choice.selection.picks)} of {len(candidates)} candidates"
        )
        _show(choice)
        if write:
            folder = ws.traces_dir
            kept = {f"{p.candidate.name}.jsonl": p.candidate.trace for p in choice.selection.picks}
            texts = {name: trace.to_jsonl() for name, trace in kept.items()}
            source = config.oracle if config.oracle and not sources else "files"
            record = selection_record(
                choice, game=config.name, source=source, walks=None if sources else walks
            )
            for name, text in texts.items():
                write_text_atomic(folder / name, text)
            write_text_atomic(folder / SELECTION_FILE, record)
            for old in sorted(folder.glob("*.jsonl")):
                if old.name not in texts:
                    old.unlink()
            console.print(
                f"wrote {len(texts)} traces and {SELECTION_FILE} to {escape(str(folder))}"
            )


def register(app: typer.Typer) -> None:
    """Add ``traces`` to the command line."""
    app.command("traces")(traces_command)
