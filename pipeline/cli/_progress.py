"""Progress of a mutant run on stderr: done/total per game, kills, each survivor, time."""

from __future__ import annotations

import time
from pathlib import Path

from rich.markup import escape

from rulebook2game.cli._common import err_console
from rulebook2game.evals.mutants import STATUSES, MutantOutcome, select_mutants


class MutantProgress:
    """One stderr line per game every few mutants: done/total, kills, survivors, time."""

    def __init__(self, max_mutants: int | None, seed: int, total: int | None = None) -> None:
        self.max_mutants, self.seed, self.total = max_mutants, seed, total
        self.games: dict[Path, dict[str, int]] = {}
        self.started: dict[Path, float] = {}

    def __call__(self, game: Path, outcome: MutantOutcome) -> None:
        if game not in self.games:
            chosen = self.total
            if chosen is None:
                _, every = select_mutants(game, self.max_mutants, self.seed)
                chosen = min(every, self.max_mutants) if self.max_mutants else every
            self.games[game] = {"total": chosen, "done": 0}
            self.started[game] = time.perf_counter()
        counts = self.games[game]
        counts["done"] += 1
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
        done, total = counts["done"], counts["total"]
        if outcome.status == "survived":
            err_console.print(
                f"[dim]{escape(game.name)}: survivor {escape(outcome.id)} at "
                f"{escape(outcome.where)} {escape(outcome.operator)}: "
                f"{escape(outcome.description)}[/]",
                highlight=False,
            )
        if done % max(1, total // 10) == 0 or done == total:
            took = time.perf_counter() - self.started[game]
            rest = ", ".join(f"{k.replace('_', ' ')} {counts[k]}" for k in STATUSES if k in counts)
            err_console.print(
                f"[dim]{escape(game.name)}: mutants {done}/{total} ({rest}) {took:.0f} s[/]",
                highlight=False,
            )
