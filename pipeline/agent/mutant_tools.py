"""The mutant side of the agent's tools: ``run_mutants`` and ``review_mutant``.

Mutants (:mod:`rulebook2game.evals.mutants`) are how a translator tests its own
evidence: each is a small wrong edit of the pages, and a survivor is a rule that no
scenario, trace or check pins down. Reviews go to ``mutants.toml`` of the game
directory (:mod:`rulebook2game.evals.equivalents`).
"""

from __future__ import annotations

import json
from typing import Any

from rulebook2game.agent.errors import ToolRetry
from rulebook2game.evals.equivalents import ReviewEntry, add_review
from rulebook2game.evals.mutants import run_mutants, select_mutants
from rulebook2game.workspace import Workspace

SHOWN = 20
"""Survivors listed in the tool result (reports/mutants.md has them all)."""


def _last_survivors(ws: Workspace) -> frozenset[str]:
    path = ws.reports_dir / "mutants.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        outcomes = data["outcomes"]
    except (OSError, ValueError, KeyError, TypeError):
        raise ToolRetry("no_mutant_run") from None
    return frozenset(
        o["id"] for o in outcomes if o["status"] == "survived" and not o.get("equivalent")
    )


def run_page_mutants(ws: Workspace, max_mutants: int, survivors: bool) -> dict[str, Any]:
    """Run the pages' mutants (a seeded sample of ``max_mutants``; 0: all); the result's fields."""
    only = _last_survivors(ws) if survivors else None
    run = run_mutants(ws.root, max_mutants=max_mutants or None, only=only)
    return {
        "killed": run.killed,
        "total": run.total,
        "rate": "-" if run.rate is None else f"{100 * run.rate:.0f}%",
        "survivors": [
            {"id": o.id, "where": o.where, "description": o.description}
            for o in run.survivors[:SHOWN]
        ],
        "equivalent": len(run.equivalents),
        "not_compiled": run.not_compiled,
        "seconds": round(run.seconds),
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
