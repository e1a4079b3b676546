"""``rulebook2game eval``: how good are the translations, and how good are the checks?

Per game and overall: compiles, check passes, oracle agreement over N trajectories,
golden traces passing, rulebook-sentence coverage, mutant kill rate (``--mutants``)
and, where the game has agent runs, repair rounds, model calls, tokens and cost.
Suites are TOML files in ``evals/`` (:mod:`rulebook2game.evals.suite`); a run writes
``evals/reports/<date>-<suite>.json`` and ``.md`` (:mod:`rulebook2game.evals.report`),
and two reports compare metric by metric (:mod:`rulebook2game.evals.compare`).

Mutant kill rate hook
---------------------
The mutant runner lives in ``rulebook2game.evals.mutants`` (``pipeline/evals/mutants.py``),
next to the checks it measures. ``eval --mutants`` calls, per game::

    run_mutants(game_dir: Path, *, seed: int, max_mutants: int | None) -> result

where ``result`` has ``total`` and ``killed`` (ints: mutants run, mutants the checks
caught) and may have ``survivors`` (descriptions of the mutants that went unnoticed).
When the module is absent, the kill rate is reported as not measured.
"""

from rulebook2game.evals.compare import Change, compare_reports
from rulebook2game.evals.report import EvalReport, GameRecord, load_eval_report
from rulebook2game.evals.run import run_suite
from rulebook2game.evals.suite import Settings, Suite, adhoc_suite, load_suite

__all__ = [
    "Change",
    "EvalReport",
    "GameRecord",
    "Settings",
    "Suite",
    "adhoc_suite",
    "compare_reports",
    "load_eval_report",
    "load_suite",
    "run_suite",
]
