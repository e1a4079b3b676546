"""Compare two eval reports metric by metric: what got better, what got worse."""

from __future__ import annotations

from dataclasses import dataclass

from rulebook2game.evals.report import EvalReport, GameRecord, Overall

HIGHER_IS_BETTER = {
    "compiles": True,
    "check_passes": True,
    "oracle_agreement": True,
    "golden": True,
    "coverage": True,
    "mutant_kill_rate": True,
    "repairs": False,
    "model_calls": False,
    "tokens": False,
    "cost_usd": False,
}
"""Every compared metric and its direction."""


NOT_MEASURED = "not measured"
"""The verdict of a metric the new report did not measure."""


@dataclass(frozen=True)
class Change:
    """One metric of one game (or ``overall``) in both reports."""

    game: str
    metric: str
    old: float | None
    new: float | None

    @property
    def verdict(self) -> str:
        """``better``, ``worse``, ``same``, ``new`` or ``not measured``.

        ``not measured``: the new report has no number for it (mutants not run, no agent
        runs, the game left out). That is not a regression: nothing was found worse.
        """
        if self.old is None and self.new is None:
            return "same"
        if self.old is None:
            return "new"
        if self.new is None:
            return NOT_MEASURED
        if abs(self.new - self.old) < 1e-9:
            return "same"
        up = self.new > self.old
        return "better" if up == HIGHER_IS_BETTER[self.metric] else "worse"


def game_metrics(g: GameRecord) -> dict[str, float | None]:
    """The compared numbers of one game (rates in 0..1)."""
    return {
        "compiles": float(g.compiles),
        "check_passes": float(g.check_passes),
        "oracle_agreement": g.oracle.agreement.rate if g.oracle else None,
        "golden": g.golden.rate,
        "coverage": g.coverage.sentences.rate if g.coverage else None,
        "mutant_kill_rate": g.mutants.killed.rate if g.mutants else None,
        "repairs": float(g.runs.repairs) if g.runs else None,
        "model_calls": float(g.runs.model_calls) if g.runs else None,
        "tokens": float(g.runs.tokens) if g.runs else None,
        "cost_usd": g.runs.cost_usd if g.runs else None,
    }


def overall_metrics(o: Overall) -> dict[str, float | None]:
    """The compared numbers of the totals."""
    runs = o.model_calls > 0 or o.tokens > 0
    return {
        "compiles": o.compiles.rate,
        "check_passes": o.check_passes.rate,
        "oracle_agreement": o.oracle_agreement.rate,
        "golden": o.golden.rate,
        "coverage": o.coverage.rate,
        "mutant_kill_rate": o.mutants.rate if o.mutants else None,
        "repairs": float(o.repairs) if runs else None,
        "model_calls": float(o.model_calls) if runs else None,
        "tokens": float(o.tokens) if runs else None,
        "cost_usd": o.cost_usd,
    }


def compare_reports(old: EvalReport, new: EvalReport) -> list[Change]:
    """Every metric of every game in either report, then the overall totals."""
    olds = {g.game: game_metrics(g) for g in old.games}
    news = {g.game: game_metrics(g) for g in new.games}
    empty: dict[str, float | None] = dict.fromkeys(HIGHER_IS_BETTER)
    changes = [
        Change(game, metric, olds.get(game, empty)[metric], news.get(game, empty)[metric])
        for game in sorted(set(olds) | set(news))
        for metric in HIGHER_IS_BETTER
    ]
    o, n = overall_metrics(old.overall), overall_metrics(new.overall)
    changes += [Change("overall", m, o[m], n[m]) for m in HIGHER_IS_BETTER]
    return [c for c in changes if not (c.old is None and c.new is None)]


def regressions(changes: list[Change]) -> list[Change]:
    """The changes that got worse (a metric the new run did not measure is not one)."""
    return [c for c in changes if c.verdict == "worse"]


def not_measured(changes: list[Change]) -> list[Change]:
    """The metrics the old report has and the new one did not measure."""
    return [c for c in changes if c.verdict == NOT_MEASURED]
