"""The mutant side of the agent's tools: ``run_mutants`` and ``review_mutant``.

Mutants (:mod:`rulebook2game.evals.mutants`) are how a translator tests its own
evidence: each is a small wrong edit of the pages, and a survivor is a rule that no
scenario, trace or check pins down. Reviews go to ``mutants.toml`` of the game
directory (:mod:`rulebook2game.evals.equivalents`).
"""

from __future__ import annotations

from typing import Any

from rulebook2game.agent.errors import ToolRetry
from rulebook2game.evals.equivalents import ReviewEntry, add_review
from rulebook2game.evals.mutants import (
    KILLED,
    SURVIVED,
    WORKERS,
    MutantRun,
    StaleMutantRun,
    read_mutant_run,
    rerun_survivors,
    run_mutants,
    select_mutants,
)
from rulebook2game.workspace import Workspace

SHOWN = 20
"""Survivors listed in the tool result (reports/mutants.md has them all)."""


def run_page_mutants(
    ws: Workspace, max_mutants: int, survivors: bool, jobs: int = 0
) -> dict[str, Any]:
    """Run the pages' mutants (a seeded sample of ``max_mutants``; 0: all); the result's fields.

    ``survivors``: re-run every survivor of the last run (whatever its sample) and fold the
    outcomes into it; the counts stay the whole run's and ``rerun`` says what changed.
    ``jobs``: mutants checked at once (0: the default, one per core).
    """
    workers = jobs or WORKERS
    if survivors:
        try:
            read_mutant_run(ws.reports_dir)
        except StaleMutantRun:
            raise ToolRetry("no_mutant_run") from None
        try:
            run = rerun_survivors(ws.root, workers=workers)
        except StaleMutantRun as exc:
            raise ToolRetry("stale_mutant_run", error=str(exc)) from None
    else:
        run = run_mutants(ws.root, max_mutants=max_mutants or None, workers=workers)
    return mutants_result(run)


def mutants_result(run: MutantRun) -> dict[str, Any]:
    """The fields of the ``mutants`` tool result: the whole run's counts, the first
    :data:`SHOWN` survivors, and what a re-run of the survivors changed."""
    again = run.rerun_outcomes
    return {
        "killed": run.killed,
        "total": run.total,
        "rate": "-" if run.rate is None else f"{100 * run.rate:.0f}%",
        "surviving": len(run.survivors),
        "survivors": [
            {"id": o.id, "where": o.where, "description": o.description}
            for o in run.survivors[:SHOWN]
        ],
        "equivalent": len(run.equivalents),
        "not_compiled": run.not_compiled,
        "seconds": round(run.seconds),
        "sampled": len(run.outcomes),
        "enumerated": run.enumerated,
        "rerun": {
            "run": len(again) - sum(o.page in run.added for o in again),
            "added": sum(o.page in run.added for o in again),
            "added_pages": list(run.added),
            "dropped": run.dropped,
            "killed": sum(o.status == KILLED for o in again),
            "surviving": sum(o.status == SURVIVED and o.equivalent is None for o in again),
            "equivalent": sum(o.equivalent is not None for o in again),
        }
        if run.rerun or run.dropped
        else None,
    }


def review_mutant(ws: Workspace, mutant_id: str, why: str) -> dict[str, Any]:
    """Record mutant ``mutant_id`` as equivalent in ``mutants.toml``; the result's fields."""
    mutants, _ = select_mutants(ws.root, None, 0)
    found = [m for m in mutants if m.id == mutant_id.strip()]
    if not found:
        raise ToolRetry("no_such_mutant", id=mutant_id)
    m = found[0]
    entry = ReviewEntry(
        page=m.page, before=m.before, change=m.description, column=m.column or None, why=why
    )
    add_review(ws.root, entry)
    return {"id": m.id, "where": m.where, "description": m.description}
