"""Measure one game: compile, checks, oracle agreement, golden traces, coverage, mutants, runs.

- *compiles* and *check passes*: one :func:`rulebook2game.check.run.run_check` with the
  suite's fuzz and oracle budgets and seed (every stage this version has).
- *golden traces*: traces the check's replay stage passed / traces in ``traces/``.
- *oracle agreement*: ``trajectories`` lockstep walks
  (:func:`rulebook2game.check.oracle.walk`) of the compiled engine against the oracle
  of ``game.toml``; walk ``run`` draws with ``random.Random(f"{seed}:oracle:{run}")``,
  moves from the oracle on even runs and from the engine on odd runs. A walk agrees
  when it reaches the end of the game without any difference.
- *coverage*: rule sentences (see :mod:`rulebook2game.diff.rules`) cited by some page,
  a section citation covering all of its sentences and subsections.
- *mutant kill rate*: see :mod:`rulebook2game.evals` (``--mutants``).
- *runs*: see :mod:`rulebook2game.evals.runs`.
"""

from __future__ import annotations

import random
import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulebook2game.check.evidence import assess, verdict
from rulebook2game.check.oracle import walk
from rulebook2game.check.report import CheckReport
from rulebook2game.check.run import run_check, stages_for
from rulebook2game.check.sentences import coverage as sentence_coverage
from rulebook2game.check.sentences import out_of_scope, scenario_cites
from rulebook2game.check.stages import max_steps
from rulebook2game.diff.engines import compile_game
from rulebook2game.diff.pages import page_cites
from rulebook2game.diff.rules import load_rule_text
from rulebook2game.engine import Engine
from rulebook2game.errors import Rulebook2GameError
from rulebook2game.evals.mutants import MutantOutcome, run_mutants
from rulebook2game.evals.report import (
    CoverageRecord,
    Disagreement,
    GameRecord,
    MutantRecord,
    OracleRecord,
    Ratio,
    RunsRecord,
)
from rulebook2game.evals.runs import run_stats
from rulebook2game.evals.suite import Settings
from rulebook2game.jobs import Runner
from rulebook2game.regress import available_stages
from rulebook2game.workspace import Workspace, open_workspace


def evaluate_game(
    path: Path,
    settings: Settings,
    runner: Runner | None = None,
    on_mutant: Callable[[MutantOutcome], None] | None = None,
) -> GameRecord:
    """Every metric of the game directory ``path`` (mutants run on ``runner`` if given).

    ``on_mutant`` hears of each mutant as it is decided (progress).
    """
    started = time.perf_counter()
    ws = open_workspace(path)
    config = ws.config()
    # a second translation named in game.toml is walked too, as check and regress walk it
    stages = stages_for(config) if config.second_opinion else available_stages()
    check = run_check(
        ws,
        stages,
        seed=settings.seed,
        options={"fuzz": settings.fuzz, "oracle": 0 if settings.oracle_blind else settings.oracle},
    )
    compiled = check.stage("compile")
    compiles = compiled is not None and compiled.status == "ok"
    oracle = None
    if compiles and config.oracle and settings.trajectories:
        oracle = oracle_agreement(ws, config.oracle, settings, max_steps(config))
    return GameRecord(
        game=config.name,
        path=str(path),
        compiles=compiles,
        compile=compiled.summary if compiled else "",
        check_passes=check.ok,
        assurance=assess(check).assurance,
        verdict=verdict(check),
        stages={s.name: f"{s.status}: {s.summary}" for s in check.stages},
        findings=[f"{f.kind} ({f.stage}): {f.message}" for f in check.findings],
        golden=golden_ratio(ws, check),
        oracle=oracle,
        coverage=coverage(ws),
        mutants=mutant_score(path, settings, runner, on_mutant) if settings.mutants else None,
        runs=_runs(ws),
        commands=commands(path, settings),
        seconds=round(time.perf_counter() - started, 3),
    )


def commands(path: Path, settings: Settings) -> list[str]:
    """Commands that reproduce a game's numbers."""
    seed = str(settings.seed)
    again = ["rulebook2game", "eval", str(path), "--seed", seed]
    again += ["--trajectories", str(settings.trajectories)]
    budgets = ["--fuzz", str(settings.fuzz), "--oracle-runs", str(settings.oracle)]
    mutants = ["--mutants", "--max-mutants", str(settings.max_mutants)]
    again += [*budgets, *(mutants if settings.mutants else [])]
    again += ["--oracle-blind"] if settings.oracle_blind else []
    if settings.oracle_blind:
        budgets = [*budgets[:3], "0"]
    check = ["rulebook2game", "check", str(path), "--seed", seed, *budgets]
    return [shlex.join(again), shlex.join(check)]


def golden_ratio(ws: Workspace, check: CheckReport) -> Ratio:
    """Golden traces the replay stage passed / traces in ``traces/`` (0 when it did not run)."""
    total = len(ws.traces())
    replay = check.stage("replay")
    if replay is None or replay.status in ("skipped", "error"):
        return Ratio(num=0, den=total)
    return Ratio(num=int(replay.stats.get("passed", 0)), den=total)


def oracle_agreement(
    ws: Workspace, binding: str, settings: Settings, steps_bound: int
) -> OracleRecord | None:
    """Lockstep walks against the oracle (see the module docstring)."""
    from rulebook2game.oracle import load_oracle

    try:
        reference: Engine[Any] = load_oracle(binding, ws.root)
    except Rulebook2GameError:
        return None
    with compile_game(ws.root) as built:
        if built.engine is None or built.engine.players != reference.players:
            return OracleRecord(binding=binding, agreement=Ratio(den=settings.trajectories))
        agreeing, steps, disagreements = 0, 0, []
        for run in range(settings.trajectories):
            rng = random.Random(f"{settings.seed}:oracle:{run}")
            trajectory = walk(reference, built.engine, rng, steps_bound, run % 2 == 1)
            steps += len(trajectory.actions)
            found = trajectory.mismatch
            if found is None:
                agreeing += 1
                continue
            message = found.message or f"{found.what} differs"
            disagreements.append(
                Disagreement(
                    run=run, step=len(trajectory.actions), what=found.what, message=message
                )
            )
    return OracleRecord(
        binding=binding,
        agreement=Ratio(num=agreeing, den=settings.trajectories),
        steps=steps,
        disagreements=disagreements,
    )


def coverage(ws: Workspace) -> CoverageRecord | None:
    """Rule sentences cited by some page / all rule sentences, counted as ``check`` counts
    them (:func:`rulebook2game.check.sentences.coverage`: examples are the scenarios' to
    cover, framing and figures are no rules)."""
    try:
        rules = load_rule_text(ws.root)
    except Rulebook2GameError:
        return None
    cites = [c for page in ws.pages() for c in page_cites(page.read_text(encoding="utf-8"))]
    apart = out_of_scope(ws.root, rules)
    counted = sentence_coverage(rules, cites, scenario_cites(ws.root), apart)
    return CoverageRecord(
        source=rules.source,
        sentences=Ratio(num=counted.rules_cited, den=counted.rules),
        uncited=list(counted.uncited),
        dangling=sorted({c for c in cites if not rules.resolve(c)}),
        uncovered_examples=list(counted.uncovered_examples),
        out_of_scope=dict(counted.out_of_scope),
    )


def mutant_score(
    path: Path,
    settings: Settings,
    runner: Runner | None = None,
    on_mutant: Callable[[MutantOutcome], None] | None = None,
) -> MutantRecord:
    """Kill rate of the pages' mutants (:func:`rulebook2game.evals.mutants.run_mutants`)."""
    limit = settings.max_mutants or None
    result = run_mutants(
        path, seed=settings.seed, max_mutants=limit, runner=runner, on_mutant=on_mutant
    )
    survivors = [f"{s.where} {s.operator}: {s.description}" for s in result.survivors]
    return MutantRecord(
        killed=Ratio(num=result.killed, den=result.total),
        survivors=survivors,
        equivalent=len(result.equivalents),
        seconds=result.seconds,
    )


def _runs(ws: Workspace) -> RunsRecord | None:
    stats = run_stats(ws.runs_dir)
    if stats is None:
        return None
    return RunsRecord(**vars(stats))
