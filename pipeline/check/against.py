"""``check --against OTHER_GAME_DIR``: two translations of one game walked in lockstep.

The other game directory (any target) is compiled and started, then used as the
reference of the oracle comparison (:func:`rulebook2game.check.oracle.run_oracle`): the
same seeded trajectories, the first difference of each kind, its counterexample shrunk
to the shortest action sequence legal in both. Each finding names the pages and cited
rules of this side and, in its message and ``extra``, those of the other side. This
is the second opinion for games that have no reference engine.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from pathlib import Path

from rulebook2game.check.findings import Finding, PageIndex
from rulebook2game.check.oracle import run_oracle
from rulebook2game.check.report import StageResult
from rulebook2game.check.stages import (
    DEFAULT_ORACLE,
    StageContext,
    lockstep_config,
    players_mismatch,
)
from rulebook2game.errors import EngineFault, Rulebook2GameError
from rulebook2game.targets.base import compile_and_start
from rulebook2game.workspace import Workspace, open_workspace

STAGE = "against"


_row = partial(StageResult.since, STAGE)


def _other_side(finding: Finding, index: PageIndex, label: str) -> Finding:
    """``finding`` (located on this side) with the other side's pages and rules added."""
    theirs = index.locate(replace(finding, pages=(), sections=(), location=None))
    pages = [str(p) for p in theirs.pages]
    cited = [{"id": s.id, "title": s.title, "text": s.text} for s in theirs.sections]
    expected = f"{finding.expected} (so says {label})"
    extra = {**finding.extra, "other": label, "other_pages": pages, "other_sections": cited}
    return replace(finding, expected=expected, extra=extra)


def _second_opinion(ctx: StageContext) -> str | None:
    """The second translation ``game.toml`` names, as a path (``None`` without one)."""
    name = ctx.config.second_opinion
    return str(ctx.workspace.root / name) if name else None


def against(ctx: StageContext) -> tuple[StageResult, tuple[Finding, ...]]:
    """Walk this game's engine and the engine of ``options["against"]`` in lockstep."""
    started = time.perf_counter()
    given = ctx.options.get(STAGE)
    other_dir = given or _second_opinion(ctx)
    if not other_dir:
        return _row("skipped", started, "no other translation (--against)"), ()
    if ctx.engine is None:
        return _row("skipped", started, "no engine"), ()
    try:
        other_ws: Workspace = open_workspace(Path(str(other_dir)))
    except Rulebook2GameError as exc:
        return _row("error", started, str(exc)), ()
    # named in game.toml: called by that name (`second`), as the translator knows it
    label = str(given or ctx.config.second_opinion)
    if not given and not other_ws.pages():
        # prepared by `second-opinion`, not translated yet: nothing to compare, no failure
        note = (
            f"{label}/ is not translated yet (no pages): a separate agent translates it "
            f"by following {label}/AGENTS.md, then the checks compare both"
        )
        return _row("skipped", started, note, not_written=True), ()
    runs = int(ctx.options.get("oracle", DEFAULT_ORACLE))
    with compile_and_start(other_ws) as other:
        if other.engine is None:
            return _row("error", started, f"{label} has no engine: {other.error}"), ()
        mismatch = players_mismatch(ctx, other.engine, label, STAGE)
        if mismatch is not None:
            return _row("failed", started, mismatch.message), (mismatch,)
        try:
            result = run_oracle(other.engine, ctx.engine, lockstep_config(ctx, runs))
        except EngineFault as exc:
            return _row("error", started, f"engine fault: {exc}"), ()
    rulebook = other_ws.rulebook_json if other_ws.rulebook_json.is_file() else None
    theirs = PageIndex.load(other_ws.pages_dir, rulebook)
    found = tuple(
        _other_side(ctx.index.locate(replace(f, stage=STAGE)), theirs, label)
        for f in result.findings
    )
    summary = (
        f"{result.trajectories} trajectories vs {label}, {result.steps} steps, "
        f"{len(found)} difference(s)"
    )
    return _row("failed" if found else "ok", started, summary, **result.stats()), found
