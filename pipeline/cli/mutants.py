"""``rulebook2game mutants GAME_DIR``: how well the game's own evidence catches wrong rules.

Each mutant is one small wrong edit of a page (a flipped comparison, a constant off by
one, a dropped precondition, a wider argument range, the wrong seat to move at the
end). The checks (replay of the golden traces, scenarios, fuzz, the oracle) run on
each; a mutant they do not catch is a rule the evidence does not pin down. Either add
evidence that catches it (a scenario from the rulebook, a golden trace), or, when the
edit cannot change anything observable, review it as equivalent with ``--equivalent``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from rulebook2game.cli._common import console, fail_cleanly
from rulebook2game.cli._progress import MutantProgress
from rulebook2game.errors import BadInputError
from rulebook2game.evals.equivalents import ReviewEntry, add_review
from rulebook2game.evals.mutants import (
    WORKERS,
    MutantRun,
    Profile,
    plan_rerun,
    read_mutant_run,
    rerun_survivors,
    run_mutants,
    select_mutants,
)
from rulebook2game.workspace import open_workspace


def _review(game_dir: Path, mutant_id: str, why: str, seed: int) -> None:
    mutants, _ = select_mutants(game_dir, None, seed)
    found = [m for m in mutants if m.id == mutant_id]
    if not found:
        raise BadInputError(f"no mutant {mutant_id!r} of these pages (ids as the report shows)")
    if not why.strip():
        raise BadInputError("--why must say why no reachable state tells the mutant apart")
    m = found[0]
    path = add_review(
        game_dir, ReviewEntry(page=m.page, before=m.before, change=m.description, why=why)
    )
    console.print(f"reviewed {escape(m.where)} {escape(m.description)} as equivalent in {path}")


def _summary(run: MutantRun) -> None:
    if run.rerun or run.dropped:
        again = run.rerun_outcomes
        killed = sum(o.status == "killed" for o in again)
        new = sum(o.page in run.added for o in again)
        also = f" and ran the {new} mutants new since (on {', '.join(run.added)})"
        gone = f", left out {run.dropped} no longer mutants of the pages"
        console.print(
            f"re-ran the {len(again) - new} survivors of the last run"
            f"{escape(also) if run.added else ''}{gone if run.dropped else ''}: "
            f"{killed} killed now; the whole run:",
            soft_wrap=True,
        )
    rate = "-" if run.rate is None else f"{100 * run.rate:.1f}%"
    console.print(
        f"{escape(run.game)}: {run.killed}/{run.total} mutants killed ({rate}); "
        f"{len(run.survivors)} surviving, {len(run.equivalents)} reviewed as equivalent, "
        f"{run.not_compiled} not compiled{' (listed in mutants.md)' if run.not_compiled else ''}, "
        f"{len(run.errors)} errors; {run.seconds:.0f} s",
        soft_wrap=True,
    )
    for o in run.survivors:
        console.print(
            f"  survivor {escape(o.id)} at {escape(o.where)}: {escape(o.description)}",
            soft_wrap=True,
        )
        for line in o.diff.splitlines()[2:]:
            console.print(f"    {escape(line)}", soft_wrap=True, highlight=False)
    for o in run.errors:
        console.print(f"  error {escape(o.id)}: {escape(o.finding or '')}", soft_wrap=True)


def mutants_command(
    game_dir: Annotated[Path, typer.Argument(help="The game directory.")],
    max_mutants: Annotated[
        int, typer.Option("--max", min=0, help="A seeded sample of this many mutants (0: all).")
    ] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the sample and of every check.")] = 0,
    fuzz: Annotated[int, typer.Option(min=0, help="Fuzz playouts per mutant.")] = Profile.fuzz,
    oracle: Annotated[
        int, typer.Option("--oracle-runs", min=0, help="Oracle trajectories per mutant.")
    ] = Profile.oracle,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Mutants at once (default: cores).")
    ] = None,
    survivors: Annotated[
        bool, typer.Option("--survivors", help="Run only the last run's unexplained survivors.")
    ] = False,
    equivalent: Annotated[
        str | None,
        typer.Option(
            "--equivalent",
            metavar="ID",
            help="Review mutant ID as equivalent in mutants.toml (with --why); runs nothing.",
        ),
    ] = None,
    why: Annotated[
        str, typer.Option(help="With --equivalent: why nothing observable differs.")
    ] = "",
) -> None:
    """Check every mutant of the pages; list the survivors (exit 1 if any).

    Reviewed-equivalent mutants (mutants.toml) are not run again; --survivors re-runs only
    every survivor of the last run, after you added evidence, and updates that run's
    reports/mutants.json and .md (their counts stay the whole run's).
    """
    with fail_cleanly():
        if equivalent is not None:
            _review(game_dir, equivalent, why, seed)
            return
        profile = Profile(fuzz=fuzz, oracle=oracle, seed=seed)
        if survivors:
            last = read_mutant_run(open_workspace(game_dir).reports_dir)
            plan = plan_rerun(game_dir, last)
            progress = MutantProgress(None, seed, total=plan.size)
            run = rerun_survivors(
                game_dir,
                profile=profile,
                on_mutant=lambda o: progress(game_dir, o),
                workers=jobs or WORKERS,
                plan=plan,
            )
        else:
            limit = max_mutants or None
            progress = MutantProgress(limit, seed)
            run = run_mutants(
                game_dir,
                seed=seed,
                max_mutants=limit,
                profile=profile,
                on_mutant=lambda o: progress(game_dir, o),
                workers=jobs or WORKERS,
            )
        _summary(run)
        reports = open_workspace(game_dir).reports_dir
        console.print(f"wrote {escape(str(reports / 'mutants.md'))} and mutants.json")
        if run.survivors or run.errors:
            raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add ``mutants`` to the command line."""
    app.command("mutants")(mutants_command)
