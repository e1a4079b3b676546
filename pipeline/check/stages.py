"""The fuzz and oracle stages of ``rulebook2game check``.

Each takes the check's shared context (see :mod:`rulebook2game.check.run`) and returns
its :class:`~rulebook2game.check.report.StageResult` row and its findings, located on
the pages. Options read from the context (all optional):

===================  =======  ====================================================
option               default  meaning
===================  =======  ====================================================
``fuzz``             1000     random playouts (0 skips the stage)
``oracle``           200      lockstep trajectories against the oracle (0 skips)
``shrink``           true     shrink counterexamples to minimal ones
``stop_at_first``    false    end a stage at its first finding (mutant runs)
``batch_timeout``    5.0      seconds a batch of native playouts may take
===================  =======  ====================================================
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any, Protocol

from rulebook2game.check import findings as fk
from rulebook2game.check.findings import Finding, PageIndex
from rulebook2game.check.fuzz import FuzzConfig, FuzzResult, run_fuzz
from rulebook2game.check.invariants import invariants_for
from rulebook2game.check.native import DEFAULT_MAX_STEPS
from rulebook2game.check.oracle import OracleConfig, run_oracle
from rulebook2game.check.report import Coverage, StageResult
from rulebook2game.engine import Engine
from rulebook2game.errors import EngineFault, Rulebook2GameError
from rulebook2game.oracle import load_oracle
from rulebook2game.workspace import GameConfig, Workspace

DEFAULT_FUZZ = 1000
DEFAULT_ORACLE = 200
DEFAULT_BATCH_TIMEOUT = 5.0

StageReturn = tuple[StageResult, tuple[Finding, ...]]


class StageContext(Protocol):
    """What these stages need from the check's context."""

    workspace: Workspace
    config: GameConfig
    seed: int
    options: dict[str, Any]
    engine: Engine[Any] | None
    compile_failed: bool
    coverage: Coverage | None

    @property
    def index(self) -> PageIndex:
        """Pages and the sections they cite."""
        ...


_row = StageResult.since


def _skip(ctx: StageContext, name: str, started: float, count: int) -> StageResult | None:
    if ctx.engine is None:
        why = "no engine (compile failed)" if ctx.compile_failed else "no engine"
        return _row(name, "skipped", started, why)
    if count <= 0:
        return _row(name, "skipped", started, f"disabled ({name} 0)")
    return None


def max_steps(config: GameConfig) -> int:
    """The bound on a game's length: ``max_game_length`` or a generous default."""
    return config.max_game_length or DEFAULT_MAX_STEPS


def fuzz(ctx: StageContext) -> StageReturn:
    """Seeded random playouts; see :mod:`rulebook2game.check.fuzz`."""
    started = time.perf_counter()
    count = int(ctx.options.get("fuzz", DEFAULT_FUZZ))
    skipped = _skip(ctx, "fuzz", started, count)
    if skipped is not None or ctx.engine is None:
        return skipped or _row("fuzz", "skipped", started, "no engine"), ()
    try:
        interface = ctx.workspace.interface()
        invariants = invariants_for(ctx.engine.players, interface, ctx.config.invariants)
    except Rulebook2GameError as exc:
        return _row("fuzz", "error", started, str(exc)), ()
    config = FuzzConfig(
        playouts=count,
        seed=ctx.seed,
        max_steps=max_steps(ctx.config),
        batch_timeout=float(ctx.options.get("batch_timeout", DEFAULT_BATCH_TIMEOUT)),
        shrink=bool(ctx.options.get("shrink", True)),
        stop_at_first=bool(ctx.options.get("stop_at_first", False)),
        game=ctx.config.name,
        truncation_is_finding=not ctx.config.unbounded,
    )
    result = run_fuzz(ctx.engine, config, invariants, interface)
    ctx.coverage = _coverage(ctx, result, interface.actions if interface else ())
    found = tuple(ctx.index.locate(f) for f in result.findings)
    summary = f"{result.games} playouts, {result.steps} steps, {len(found)} finding(s)"
    if result.truncated and ctx.config.unbounded:
        summary += f", {result.truncated} cut at {config.max_steps} steps (unbounded game)"
    status = "failed" if found else "ok"
    declared = len(interface.invariants if interface else ()) + len(ctx.config.invariants)
    stats = {**result.stats(), "invariants": len(invariants), "invariants_declared": declared}
    return _row("fuzz", status, started, summary, **stats), found


def _coverage(ctx: StageContext, result: FuzzResult, declared: Any) -> Coverage:
    taken = Counter(result.taken)
    actions = {spec.name: taken.get(spec.name, 0) for spec in declared}
    actions.update({name: n for name, n in taken.items() if name not in actions})
    pages: Counter[str] = Counter()
    for name, n in actions.items():
        for ref in ctx.index.pages_declaring(name):
            pages[ref.page] += n
    for page in ctx.index.pages:
        pages.setdefault(page, 0)
    return Coverage(actions=dict(actions), pages=dict(sorted(pages.items())))


def lockstep_config(ctx: StageContext, runs: int) -> OracleConfig:
    """The walks of a lockstep stage (reference engine, or another translation)."""
    return OracleConfig(
        runs=runs,
        seed=ctx.seed,
        max_steps=max_steps(ctx.config),
        shrink=bool(ctx.options.get("shrink", True)),
        stop_at_first=bool(ctx.options.get("stop_at_first", False)),
        game=ctx.config.name,
    )


def players_mismatch(
    ctx: StageContext, reference: Engine[Any], label: str, stage: str
) -> Finding | None:
    """A finding when the pages and the engine they are walked against differ in players."""
    assert ctx.engine is not None
    if reference.players == ctx.engine.players:
        return None
    message = f"{ctx.engine.players} players, {label} has {reference.players}"
    finding = Finding(fk.ORACLE_PLAYER, stage, message, functions=("get_num_players",))
    return ctx.index.locate(finding)


def oracle(ctx: StageContext) -> StageReturn:
    """Lockstep comparison with the reference engine named in ``game.toml``."""
    started = time.perf_counter()
    runs = int(ctx.options.get("oracle", ctx.options.get("oracle_runs", DEFAULT_ORACLE)))
    skipped = _skip(ctx, "oracle", started, runs)
    if skipped is not None or ctx.engine is None:
        return skipped or _row("oracle", "skipped", started, "no engine"), ()
    binding = str(ctx.options.get("oracle_binding") or ctx.config.oracle or "")
    if not binding:
        return _row("oracle", "skipped", started, "no oracle in game.toml"), ()
    try:
        reference = load_oracle(binding, ctx.workspace.root)
    except Rulebook2GameError as exc:
        return _row("oracle", "error", started, str(exc)), ()
    mismatch = players_mismatch(ctx, reference, "the oracle", "oracle")
    if mismatch is not None:
        return _row("oracle", "failed", started, mismatch.message), (mismatch,)
    try:
        result = run_oracle(reference, ctx.engine, lockstep_config(ctx, runs))
    except EngineFault as exc:  # a fault while shrinking or recording
        return _row("oracle", "error", started, f"engine fault: {exc}"), ()
    found = tuple(ctx.index.locate(f) for f in result.findings)
    summary = (
        f"{result.trajectories} trajectories vs {binding}, {result.steps} steps, "
        f"{len(found)} finding(s)"
    )
    status = "failed" if found else "ok"
    return _row("oracle", status, started, summary, **result.stats()), found
