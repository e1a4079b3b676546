"""Random playouts per second: the native rl loop, the Python-driven engine, OpenSpiel.

Three ways to play uniformly random games of the same game, each for about the same
time budget:

- **rl native**: the optimized (``-O2``) build's own playout loop, many games per
  round trip to the worker; CPU time of the worker around the native call.
- **rl python**: the same build driven step by step through ``RlEngine`` (one worker
  round trip per action), as checks and oracles use it; wall-clock time, since the
  work is split between two processes and dominated by the round trips.
- **openspiel c++**: ``pyspiel.evaluate_bots`` with uniform random bots, the game
  named by ``oracle = "openspiel:NAME"`` in ``game.toml``; CPU time of this process.

Then, side by side, stepping one action per Python call, as people and learners do
(only for a game whose current pages passed ``check``, or with ``trust``):

- **rl in-process python**: :func:`rulebook2game.load`'s ``State.apply_action`` on
  ``rng.choice(state.legal_actions())`` (chance outcomes by their odds when the pages
  weight them, else they are equally likely).
- **rl in-process batched**: :class:`rulebook2game.game.GameBatch` of
  :data:`BATCH_SIZE` games, one native call per step of all of them, actions chosen in
  Python (chance outcomes by their odds, as above); finished games start again.
- **openspiel python**: the same loop over ``pyspiel`` states of the oracle's game
  (chance outcomes drawn by their odds).

The native loop and OpenSpiel's C++ loop take turns, :data:`ROUNDS` rounds of an equal
share of the budget each, so that both see the same load; the report keeps the ratio
of every round beside the ratio of the totals. In each round both run on one CPU (this
process and the engine's worker pinned to it), and the rounds go round the CPUs this
process may use: two cores of one machine can differ by a third in speed (a virtual
machine's, a hybrid processor's), and a ratio of loops on different cores measured the
cores as much as the loops (measured: 6.0x to 11.9x per round unpinned on a 2-core
machine whose cores ran Hearts at 230k and 150k playouts/s).

The native loops and the in-process rows are timed in CPU seconds so that a busy
machine (other jobs on the same cores) does not skew their ratios. Ratios compare each
row to OpenSpiel's C++ loop (the goal for the native loop is 10x), and the in-process
rows to OpenSpiel's Python stepping (steps per second).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from rulebook2game.check.run import ALL_STAGES, run_check
from rulebook2game.check.stages import DEFAULT_FUZZ, DEFAULT_ORACLE
from rulebook2game.engine import Engine, random_step
from rulebook2game.errors import CompileError, OracleError, Rulebook2GameError, WorkspaceError
from rulebook2game.game import NO_ACTION, Game, check_status, load
from rulebook2game.oracle.game_binding import game_oracle_spec, register_python_engine
from rulebook2game.targets import get_target
from rulebook2game.targets.base import compile_and_start
from rulebook2game.workspace import Workspace


class _Stats(Protocol):
    count: int
    steps: int
    cpu_seconds: float


class NativeBench(Engine[Any], Protocol):
    """An engine that plays seeded random games in its own native loop (``playout_stats``)."""

    def playout_stats(
        self, seed: int, count: int, max_steps: int = ..., *, timeout: float | None = None
    ) -> _Stats:
        """Totals of ``count`` native random games."""
        ...


GOAL_RATIO = 10.0
"""The native loop should be at least this many times faster than OpenSpiel's C++ loop."""
ROUNDS = 6
"""The native loop and OpenSpiel's C++ loop take turns this many times, each for its share
of the time budget, so that a burst of load on a shared machine falls on both rows."""
DEFAULT_MAX_STEPS = 10_000
_MIN_BATCH_SECONDS = 0.05


class BenchRow(BaseModel):
    """One way of playing random games, and how fast it went."""

    model_config = ConfigDict(frozen=True)

    engine: str
    playouts: int
    seconds: float
    clock: str = "cpu"
    """``cpu`` (process CPU time) or ``wall`` (wall-clock time)."""
    steps: int | None = None
    """Total actions played (None when the engine does not say)."""

    @property
    def per_second(self) -> float:
        """Playouts per second."""
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    @property
    def steps_per_second(self) -> float | None:
        """Actions per second."""
        if self.steps is None or self.seconds <= 0:
            return None
        return self.steps / self.seconds

    @property
    def mean_length(self) -> float | None:
        """Actions per playout."""
        return self.steps / self.playouts if self.steps is not None and self.playouts else None


class CheckTiming(BaseModel):
    """How long the full default ``check`` of a game took, stage by stage."""

    model_config = ConfigDict(frozen=True)

    seconds: float
    stages: dict[str, float] = Field(default_factory=dict)
    """Wall-clock seconds of every stage that ran, in running order."""
    ok: bool = True

    @property
    def slowest(self) -> tuple[str, float]:
        """The stage that took longest, and its seconds."""
        if not self.stages:
            return ("-", 0.0)
        name = max(self.stages, key=self.stages.__getitem__)
        return (name, self.stages[name])


class BenchReport(BaseModel):
    """The rows of one ``bench`` run and their ratios."""

    game: str
    budget_seconds: float
    target: str = "rl"
    """The game's target (``game.toml``): rows are shown under its name."""
    rows: list[BenchRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    check: CheckTiming | None = None
    """The full default check's times, when the bench was asked for them."""
    round_ratios: list[float] = Field(default_factory=list)
    """The native loop over OpenSpiel's C++ loop in each round they took turns."""
    round_cpus: list[int] = Field(default_factory=list)
    """The CPU both loops ran on in each round (empty where processes cannot be pinned)."""

    def row(self, engine: str) -> BenchRow | None:
        """The row of ``engine``, if it ran."""
        return next((r for r in self.rows if r.engine == engine), None)

    def ratio(self, engine: str, baseline: str) -> float | None:
        """``engine``'s playouts per second over ``baseline``'s."""
        a, b = self.row(engine), self.row(baseline)
        if a is None or b is None or b.per_second == 0:
            return None
        return a.per_second / b.per_second

    def as_json(self) -> dict[str, object]:
        """The report with per-row rates and the ratios spelled out."""
        data = self.model_dump(mode="json")
        for row, out in zip(self.rows, data["rows"], strict=True):
            out["label"] = self.label(row.engine)
            out["per_second"] = round(row.per_second, 1)
            out["mean_length"] = row.mean_length
            steps = row.steps_per_second
            out["steps_per_second"] = None if steps is None else round(steps, 1)
        data["ratios"] = {
            f"{a} / {b}": self.ratio(a, b)
            for a, b in ((NATIVE, OPENSPIEL), (PYTHON, OPENSPIEL), (NATIVE, PYTHON))
            if self.ratio(a, b) is not None
        }
        data["step_ratios"] = {
            f"{a} / {b}": self.step_ratio(a, b)
            for a, b in ((IN_PROCESS, PYSPIEL_PYTHON), (BATCHED, PYSPIEL_PYTHON))
            if self.step_ratio(a, b) is not None
        }
        return data

    def step_ratio(self, engine: str, baseline: str) -> float | None:
        """``engine``'s actions per second over ``baseline``'s."""
        a, b = self.row(engine), self.row(baseline)
        if a is None or b is None:
            return None
        x, y = a.steps_per_second, b.steps_per_second
        return x / y if x is not None and y else None

    def label(self, engine: str) -> str:
        """How row ``engine`` is shown (see :func:`row_label`)."""
        return row_label(engine, self.target)

    def round_range(self) -> str:
        """The lowest and highest per-round ratio (``9.4-10.8x``), or ``-``."""
        if not self.round_ratios:
            return "-"
        return f"{min(self.round_ratios):.1f}-{max(self.round_ratios):.1f}x"


def row_label(engine: str, target: str) -> str:
    """How row ``engine`` of a ``target`` game is shown: the rows of our own build carry
    the target's name (``rulepage native (-O2)``); the engine keys stay the same for
    every target."""
    if engine.startswith("rl ") and target != "rl":
        return f"{target} {engine[3:]}"
    return engine


NATIVE = "rl native (-O2)"
PYTHON = "rl python-driven"
OPENSPIEL = "openspiel c++ bots"
IN_PROCESS = "rl in-process python"
BATCHED = "rl in-process batched"
PYSPIEL_PYTHON = "openspiel python"
BATCH_SIZE = 256


def bench_native(engine: NativeBench, seconds: float, seed: int, max_steps: int) -> BenchRow:
    """The native loop: batches grow until one takes a noticeable time, then repeat."""
    count, games, steps, spent = 64, 0, 0, 0.0
    batch_seed = seed
    while spent < seconds:
        stats = engine.playout_stats(batch_seed, count, max_steps, timeout=max(60.0, 4 * seconds))
        games, steps = games + stats.count, steps + stats.steps
        spent += stats.cpu_seconds
        batch_seed += 1
        if stats.cpu_seconds < _MIN_BATCH_SECONDS:
            count *= 4
        elif stats.cpu_seconds < seconds / 4:
            count *= 2
    return BenchRow(engine=NATIVE, playouts=games, seconds=spent, steps=steps)


def _merged(rows: list[BenchRow]) -> BenchRow:
    """One row of the totals of ``rows`` (the rounds of one engine)."""
    steps = [r.steps for r in rows]
    return BenchRow(
        engine=rows[0].engine,
        playouts=sum(r.playouts for r in rows),
        seconds=sum(r.seconds for r in rows),
        clock=rows[0].clock,
        steps=None if None in steps else sum(s or 0 for s in steps),
    )


def usable_cpus() -> list[int]:
    """The CPUs this process may run on, in order (empty where the OS cannot pin)."""
    getter = getattr(os, "sched_getaffinity", None)
    if getter is None or not hasattr(os, "sched_setaffinity"):
        return []
    return sorted(getter(0))


@contextmanager
def pinned(cpu: int | None, engine: object) -> Iterator[None]:
    """This process and ``engine``'s worker (``worker_pid``, if it has one) on ``cpu``
    alone while the block runs, then back on the CPUs they had (nothing for None)."""
    if cpu is None:
        yield
        return
    pids = [0]
    worker = getattr(engine, "worker_pid", None)
    if isinstance(worker, int):
        pids.append(worker)
    before = {pid: os.sched_getaffinity(pid) for pid in pids}
    for pid in pids:
        os.sched_setaffinity(pid, {cpu})
    try:
        yield
    finally:
        for pid, cpus in before.items():
            with suppress(ProcessLookupError):  # the worker ended meanwhile
                os.sched_setaffinity(pid, cpus)


def bench_side_by_side(
    engine: NativeBench,
    name: str,
    seconds: float,
    seed: int,
    max_steps: int,
    rounds: int = ROUNDS,
    cpus: list[int] | None = None,
) -> tuple[BenchRow, BenchRow, list[float], list[int]]:
    """The native loop and OpenSpiel's C++ loop in turns (``rounds`` each, ``seconds`` in
    all per engine), both on one CPU in each round, round r on ``cpus[r % len(cpus)]``
    (default: every CPU this process may use): their rows, the ratio of each round and
    its CPU (empty where the OS cannot pin)."""
    cpus = usable_cpus() if cpus is None else cpus
    share = seconds / rounds
    native: list[BenchRow] = []
    spiel: list[BenchRow] = []
    used: list[int] = []
    for r in range(rounds):
        cpu = cpus[r % len(cpus)] if cpus else None
        with pinned(cpu, engine):
            native.append(bench_native(engine, share, seed + 1000 * r, max_steps))
            spiel.append(bench_openspiel(name, share, seed + 100_000 * r))
        if cpu is not None:
            used.append(cpu)
    ratios = [round(a.per_second / b.per_second, 3) for a, b in zip(native, spiel, strict=True)]
    return _merged(native), _merged(spiel), ratios, used


def bench_python(engine: Engine[Any], seconds: float, seed: int, max_steps: int) -> BenchRow:
    """One worker round trip per action, random choices made in Python."""
    rng = random.Random(seed)
    games, steps = 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or games == 0:
        state = engine.initial()
        for _ in range(max_steps):
            if engine.is_terminal(state):
                break
            state = engine.apply(state, random_step(engine, state, rng))
            steps += 1
        games += 1
    return BenchRow(
        engine=PYTHON,
        playouts=games,
        seconds=time.perf_counter() - started,
        clock="wall",
        steps=steps,
    )


def openspiel_name(oracle: str) -> str:
    """``openspiel:connect_four`` -> ``connect_four`` (parameters kept: ``pig(winscore=20)``)."""
    kind, _, name = oracle.partition(":")
    if kind != "openspiel" or not name:
        raise OracleError(f"oracle {oracle!r} is not an OpenSpiel game (openspiel:NAME)")
    return name


def require_openspiel_game(name: str) -> None:
    """Fail with one line unless OpenSpiel knows ``name`` (parameters aside).

    ``pyspiel.load_game`` of an unknown name prints every game's name to stderr.
    """
    import pyspiel

    base = name.partition("(")[0]
    if base not in pyspiel.registered_names():
        raise OracleError(f"OpenSpiel has no game {base!r}")


def bench_openspiel(name: str, seconds: float, seed: int) -> BenchRow:
    """OpenSpiel's C++ game loop with uniform random bots (``pyspiel.evaluate_bots``)."""
    import pyspiel

    require_openspiel_game(name)
    try:
        game = pyspiel.load_game(name)
    except pyspiel.SpielError as exc:
        first = (str(exc).splitlines() or ["unknown error"])[0]
        raise OracleError(f"OpenSpiel cannot load {name!r}: {first}") from exc
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    games = 0
    started = time.process_time()
    while time.process_time() - started < seconds or games == 0:
        for _ in range(32):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + games)
            games += 1
    return BenchRow(engine=OPENSPIEL, playouts=games, seconds=time.process_time() - started)


def bench_in_process(game: Game, seconds: float, seed: int, max_steps: int) -> BenchRow:
    """Per-step Python stepping of the in-process build (CPU time)."""
    rng = random.Random(seed)
    games = steps = 0
    started = time.process_time()
    weighted = game.has_weighted_chance  # else chance outcomes are equally likely
    while time.process_time() - started < seconds or games == 0:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal() and n < max_steps:
            if weighted and state.is_chance_node():
                ids, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, odds)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        games, steps = games + 1, steps + n
    spent = time.process_time() - started
    return BenchRow(engine=IN_PROCESS, playouts=games, seconds=spent, steps=steps)


def bench_batched(game: Game, seconds: float, seed: int, max_steps: int) -> BenchRow:
    """:data:`BATCH_SIZE` games stepped per native call, actions chosen in Python."""
    rng = random.Random(seed)
    batch = game.batch(BATCH_SIZE)
    lengths = [0] * BATCH_SIZE
    games = steps = 0
    started = time.process_time()
    weighted = game.has_weighted_chance  # else chance outcomes are equally likely
    while time.process_time() - started < seconds or games == 0:
        actions = []
        for k in range(BATCH_SIZE):
            if batch.is_terminal(k) or lengths[k] >= max_steps:
                batch.reset(k)
                games, lengths[k] = games + 1, 0
                actions.append(NO_ACTION)
                continue
            if weighted and batch.is_chance_node(k):
                actions.append(batch.random_action(k, rng))
            else:
                legal = batch.legal_actions(k)
                actions.append(legal[rng.randrange(len(legal))])
            lengths[k] += 1
            steps += 1
        batch.step(actions)
    spent = time.process_time() - started
    return BenchRow(engine=BATCHED, playouts=games, seconds=spent, steps=steps)


def bench_pyspiel_python(name: str, seconds: float, seed: int, max_steps: int) -> BenchRow:
    """The same per-step loop over OpenSpiel's Python API (CPU time)."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    games = steps = 0
    started = time.process_time()
    while time.process_time() - started < seconds or games == 0:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal() and n < max_steps:
            if state.is_chance_node():
                ids, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, odds)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        games, steps = games + 1, steps + n
    spent = time.process_time() - started
    return BenchRow(engine=PYSPIEL_PYTHON, playouts=games, seconds=spent, steps=steps)


def _python_rows(
    ws: Workspace,
    oracle: str | None,
    seconds: float,
    seed: int,
    limit: int,
    trust: bool,
) -> tuple[list[Callable[[], BenchRow]], str | None]:
    """The in-process rows to run, or why they are left out."""
    if not trust and not check_status(ws).passed:
        return [], "in-process rows left out: the pages have not passed check (--trust)"
    try:
        game = load(ws.root, trust=True)
    except Rulebook2GameError as exc:  # a target without an in-process library (gdl)
        return [], f"in-process rows left out: {exc}"
    runs: list[Callable[[], BenchRow]] = [
        lambda: bench_in_process(game, seconds, seed, limit),
        lambda: bench_batched(game, seconds, seed, limit),
    ]
    if oracle is not None:
        runs.append(lambda: bench_pyspiel_python(oracle, seconds, seed, limit))
    return runs, None


def bench_workspace(
    ws: Workspace,
    seconds: float = 3.0,
    seed: int = 0,
    max_steps: int | None = None,
    on_row: Callable[[BenchRow], None] | None = None,
    trust: bool = False,
) -> BenchReport:
    """Benchmark ``ws``'s game, ``seconds`` each way (compiles the -O2 build first).

    The in-process rows run only when the current pages passed ``check``, or ``trust``.
    """
    config = ws.config()
    get_target(config.target)  # an unknown target fails here, before anything runs
    oracle_name = openspiel_name(config.oracle) if config.oracle is not None else None
    own = game_oracle_spec(ws.root)
    if oracle_name is not None and own is not None:
        register_python_engine(ws.root, own)  # the game's own engine, if it brings one
        oracle_name = own.bench or own.engine
    if oracle_name is not None:
        require_openspiel_game(oracle_name)  # before spending seconds on the other engines
    limit = max_steps or config.max_game_length or DEFAULT_MAX_STEPS
    report = BenchReport(game=config.name, budget_seconds=seconds, target=config.target)
    with compile_and_start(ws, optimized=True) as made:
        engine = made.engine
        if engine is None:
            raise CompileError(made.error or "no engine")
        if not hasattr(engine, "playout_stats"):
            raise WorkspaceError(f"target {config.target!r} has no native playout loop")
        native: NativeBench = engine  # type: ignore[assignment]
        note = getattr(engine, "native_note", None)
        if isinstance(note, str):
            report.notes.append(note)  # what the native row measures, when it is not rl
        theirs: list[BenchRow] = []
        if oracle_name is None:
            report.notes.append("no oracle in game.toml: OpenSpiel not measured")
            ours = bench_native(native, seconds, seed, limit)
        else:
            ours, spiel, report.round_ratios, report.round_cpus = bench_side_by_side(
                native, oracle_name, seconds, seed, limit
            )
            theirs.append(spiel)
        # shown in this order: our loops, then OpenSpiel's
        for row in [ours, bench_python(engine, seconds, seed, limit), *theirs]:
            report.rows.append(row)
            if on_row is not None:
                on_row(row)
    python_runs, why = _python_rows(ws, oracle_name, seconds, seed, limit, trust)
    if why is not None:
        report.notes.append(why)
    for run in python_runs:
        report.rows.append(run())
        if on_row is not None:
            on_row(report.rows[-1])
    _add_verdict(report)
    return report


def _add_verdict(report: BenchReport) -> None:
    ratio = report.ratio(NATIVE, OPENSPIEL)
    if ratio is None:
        return
    rounds = f" (rounds in turn: {report.round_range()}" if report.round_ratios else ""
    if rounds and report.round_cpus:
        cpus = sorted(set(report.round_cpus))
        rounds += f", on CPU{'s' if len(cpus) > 1 else ''} {', '.join(map(str, cpus))}"
    rounds += ")" if rounds else ""
    if ratio >= GOAL_RATIO:
        report.notes.append(
            f"native loop is {ratio:.1f}x OpenSpiel C++{rounds} (goal {GOAL_RATIO:g}x): met"
        )
    else:
        report.notes.append(
            f"native loop is {ratio:.1f}x OpenSpiel C++{rounds}, below the {GOAL_RATIO:g}x goal"
        )


def time_check(ws: Workspace, seed: int = 0, request_timeout: float = 3.0) -> CheckTiming:
    """Run the full default ``check`` of ``ws`` (as the command does) and time its stages."""
    options: dict[str, object] = {
        "fuzz": DEFAULT_FUZZ,
        "oracle": DEFAULT_ORACLE,
        "request_timeout": request_timeout,
    }
    report = run_check(ws, ALL_STAGES, seed=seed, options=options)
    stages = {stage.name: stage.seconds for stage in report.stages}
    return CheckTiming(seconds=round(report.seconds, 3), stages=stages, ok=report.ok)
