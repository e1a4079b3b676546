"""Walks steered toward page lines that no check executed, and the ``lines`` stage.

Uniform random walks rarely reach the far ends of a long game (a move limit, a
turn-501 draw) or a rule that needs a quiet position. After the checks have run, the
``lines`` stage measures on the coverage build which page lines they executed
(:mod:`rulebook2game.check.lines`), then walks the coverage build with policies that
go where uniform walks do not:

- ``no_ending``: never take an action that ends the game while another is legal (a
  one-step look-ahead), so walks run to the game's length limits;
- ``rare``: take the action name taken least often so far (then any of its
  arguments), so rarely chosen kinds of move get played;
- ``quiet``: take the action that changes the state's text least (a non-capturing
  move rather than a capture, a small bet rather than all-in);
- the same policies from every scenario's set-up position (``[setup] state``), and
  from the states where a walk first ran lines no walk had run (a few, kept as they
  come: walks go on from the edge of what was reached).

A policy keeps its turn while its walks execute new lines; the stage stops when every
line ran or the budget (``steer`` walks, ``steer_seconds``) is spent; the option
``steer_policies`` picks some of the policies (all by default). A steered walk
that crashes the engine is a finding, replayed on the checked build. The lines still
not executed are one finding (``unexecuted``), per page with the sentences they cite:
evidence missing, not a wrong rule, so it does not fail the check.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook2game.check import findings as fk
from rulebook2game.check.findings import Finding, PageRef
from rulebook2game.check.lines import (
    LineProbe,
    PageLine,
    cites_of,
    executed_by_checks,
    invariant_lines,
    line_ranges,
    start_line_probe,
)
from rulebook2game.check.report import StageResult
from rulebook2game.check.stages import DEFAULT_BATCH_TIMEOUT, DEFAULT_FUZZ, StageContext, max_steps
from rulebook2game.engine import CHANCE, Engine, IllegalActionError
from rulebook2game.errors import EngineFault, Rulebook2GameError

UNEXECUTED = fk.UNEXECUTED
DEFAULT_STEER_WALKS = 60
DEFAULT_STEER_SECONDS = 20.0
LOOKAHEAD = 8
"""Actions a look-ahead policy tries per step (a sample of the legal ones)."""
MAX_FRONTIERS = 4
"""States kept as new starts: where a walk first ran lines no walk had run."""
IDLE_ROUNDS = 2
"""Steering stops when every policy (from every start) has walked this many times in a
row without executing a new line."""
SHOWN_LINES = 12
"""Pages listed in the finding's message before "... and N more"."""

StageReturn = tuple[StageResult, tuple[Finding, ...]]
Policy = Callable[[Engine[Any], Any, list[str], random.Random, Counter[str]], str]


def _uniform(engine: Engine[Any], state: Any, legal: list[str], rng: random.Random, _: Any) -> str:
    return legal[rng.randrange(len(legal))]


def _sample(legal: list[str], rng: random.Random) -> list[str]:
    return legal if len(legal) <= LOOKAHEAD else rng.sample(legal, LOOKAHEAD)


def _no_ending(
    engine: Engine[Any], state: Any, legal: list[str], rng: random.Random, _: Any
) -> str:
    options = _sample(legal, rng)
    rng.shuffle(options)
    for action in options:
        if not engine.is_terminal(engine.apply(state, action)):
            return action
    return options[0]


def _rare(
    engine: Engine[Any], state: Any, legal: list[str], rng: random.Random, taken: Counter[str]
) -> str:
    names = {fk.action_name(a) for a in legal}
    fewest = min(taken[n] for n in names)
    rarest = [a for a in legal if taken[fk.action_name(a)] == fewest]
    return rarest[rng.randrange(len(rarest))]


def _quiet(engine: Engine[Any], state: Any, legal: list[str], rng: random.Random, _: Any) -> str:
    before = engine.serialize(state)
    options = _sample(legal, rng)

    def change(action: str) -> tuple[int, float]:
        after = engine.serialize(engine.apply(state, action))
        differ = sum(a != b for a, b in zip(before, after, strict=False))
        return differ + abs(len(before) - len(after)), rng.random()

    return min(options, key=change)


POLICIES: dict[str, Policy] = {
    "no_ending": _no_ending,
    "rare": _rare,
    "quiet": _quiet,
    "uniform": _uniform,
}


@dataclass
class SteerResult:
    """What the steered walks did."""

    walks: int = 0
    steps: int = 0
    new_lines: Counter[str] = field(default_factory=Counter)
    """Lines first executed, per policy (``rare@setup:NAME`` for a walk from a setup)."""
    frontiers: int = 0
    """States where a walk first ran new lines, from which later walks started."""
    crashes: list[tuple[tuple[str, ...], str, str]] = field(default_factory=list)
    """(actions, start state text or "", message) of walks that faulted."""


def walk(
    engine: Engine[Any],
    policy: Policy,
    rng: random.Random,
    taken: Counter[str],
    limit: int,
    start: Any = None,
) -> tuple[list[str], str | None]:
    """One walk under ``policy``: its actions, and the fault message if it crashed."""
    actions: list[str] = []
    try:
        state = engine.initial() if start is None else start
        while not engine.is_terminal(state) and len(actions) < limit:
            if engine.current_player(state) == CHANCE:
                outcomes = engine.chance_outcomes(state)
                pick = rng.random() * sum(p for _, p in outcomes)
                action = outcomes[-1][0]
                for text, p in outcomes:
                    pick -= p
                    if pick <= 0:
                        action = text
                        break
            else:
                legal = engine.legal_actions(state)
                if not legal:
                    break
                action = policy(engine, state, legal, rng, taken)
            taken[fk.action_name(action)] += 1
            actions.append(action)
            state = engine.apply(state, action)
        if engine.is_terminal(state):
            engine.returns(state)
        else:  # a walk cut short: returns of a live game (see lines._ask)
            with contextlib.suppress(EngineFault):
                engine.returns(state)
    except (EngineFault, IllegalActionError) as exc:
        return actions, str(exc)
    return actions, None


def steer(
    probe: LineProbe,
    ran: set[PageLine],
    *,
    seed: int,
    limit: int,
    walks: int,
    seconds: float,
    setups: Sequence[tuple[str, str]] = (),
    policies: Sequence[str] = tuple(POLICIES),
) -> SteerResult:
    """Walk the coverage build toward the lines not in ``ran`` (which grows)."""
    engine = probe.engine
    result = SteerResult()
    rng = random.Random(seed)
    taken: Counter[str] = Counter()
    starts: list[tuple[str, str]] = [("", ""), *setups]
    plans = [(name, where) for where in starts for name in policies if name in POLICIES]
    deadline = time.perf_counter() + seconds
    missing = probe.executable - ran
    queue = list(plans)
    idle = 0
    while queue and missing and result.walks < walks and time.perf_counter() < deadline:
        if idle >= IDLE_ROUNDS * len(plans):
            break
        name, (label, state_text) = queue.pop(0)
        start = None
        if state_text:
            try:
                start = engine.deserialize(state_text)
            except (Rulebook2GameError, ValueError):
                continue
        probe.take()
        actions, fault = walk(engine, POLICIES[name], rng, taken, limit, start)
        result.walks += 1
        result.steps += len(actions)
        new = (probe.take() & probe.executable) - ran
        if fault is not None:
            result.crashes.append((tuple(actions), state_text, fault))
        ran |= new
        missing -= new
        key = f"{name}@{label}" if label else name
        result.new_lines[key] += len(new)
        idle = 0 if new else idle + 1
        if new:
            queue.insert(0, (name, (label, state_text)))
        else:
            queue.append((name, (label, state_text)))
        found = _frontier(probe, state_text, actions, new) if new and fault is None else None
        if found is not None and result.frontiers < MAX_FRONTIERS and missing:
            result.frontiers += 1
            where = (f"frontier{result.frontiers}", found)
            fresh = [(n, where) for n in policies if n in POLICIES]
            plans.extend(fresh)
            queue[1:1] = fresh
    return result


def _frontier(
    probe: LineProbe, start: str, actions: Sequence[str], new: set[PageLine]
) -> str | None:
    """The state of a walk just after it first ran one of the ``new`` lines (``None``
    when that state is over or cannot be rebuilt): later walks start there."""
    engine = probe.engine
    try:
        state = engine.deserialize(start) if start else engine.initial()
        probe.take()
        for action in actions:
            state = engine.apply(state, action)
            if probe.take() & new:
                return None if engine.is_terminal(state) else engine.serialize(state)
    except (Rulebook2GameError, IllegalActionError, ValueError):
        return None
    return None


def _policies(option: object) -> tuple[str, ...]:
    """The policies named by the ``steer_policies`` option (a list or "a,b"); all by default."""
    if option is None:
        return tuple(POLICIES)
    names = option.split(",") if isinstance(option, str) else list(option)  # type: ignore[call-overload]
    return tuple(str(n).strip() for n in names if str(n).strip() in POLICIES)


def _setups(ctx: StageContext) -> list[tuple[str, str]]:
    from rulebook2game.check.scenarios import read_scenario, scenario_paths, setup_text

    out = []
    for path in scenario_paths(ctx.workspace.root):
        try:
            scenario = read_scenario(path)
        except Rulebook2GameError:
            continue
        setup = scenario.setup
        if setup is None or not setup.runnable():
            continue
        text = setup.state
        if setup.set:  # the same edit the scenario starts from
            text = setup_text(ctx.engine, setup) if ctx.engine is not None else None
        if text:
            out.append((f"setup:{path.stem}", text))
    return out


def lines(ctx: StageContext) -> StageReturn:
    """The ``lines`` stage: page lines the checks executed, steered walks, the rest."""
    row = StageResult.since
    started = time.perf_counter()
    if ctx.engine is None:
        why = "no engine (compile failed)" if ctx.compile_failed else "no engine"
        return row("lines", "skipped", started, why), ()
    timeout = ctx.options.get("request_timeout")
    probe = start_line_probe(
        ctx.workspace,
        ctx.config.target,
        ctx.config.name,
        None if timeout is None else float(timeout),
    )
    if isinstance(probe, str):  # no measurement is not a fault of the pages
        return row("lines", "skipped", started, probe), ()
    with probe:
        limit = max_steps(ctx.config)
        ran = executed_by_checks(
            probe,
            ctx.workspace,
            seed=ctx.seed,
            fuzz=int(ctx.options.get("fuzz", DEFAULT_FUZZ)),
            max_steps=limit,
            batch_timeout=float(ctx.options.get("batch_timeout", DEFAULT_BATCH_TIMEOUT)),
            funs=[spec.fun for spec in ctx.config.invariants if spec.fun],
        )
        ran &= probe.executable
        # an invariant's failure branch runs only when it breaks: never asked for
        funs = [spec.fun for spec in ctx.config.invariants if spec.fun]
        ran |= invariant_lines(ctx.workspace.root, ctx.workspace.pages(), funs) & probe.executable
        by_checks = len(probe.executable - ran)
        steered = steer(
            probe,
            ran,
            seed=ctx.seed,
            limit=limit,
            walks=int(ctx.options.get("steer", DEFAULT_STEER_WALKS)),
            seconds=float(ctx.options.get("steer_seconds", DEFAULT_STEER_SECONDS)),
            setups=_setups(ctx),
            policies=_policies(ctx.options.get("steer_policies")),
        )
        missing = sorted(probe.executable - ran)
        total = len(probe.executable)
    found: list[Finding] = [
        _crash(ctx, actions, text, msg) for actions, text, msg in steered.crashes[:3]
    ]
    if missing:
        found.append(unexecuted_finding(ctx, missing))
    summary = (
        f"{total - len(missing)}/{total} page lines executed; {by_checks} not by the checks, "
        f"{len(missing)} not after {steered.walks} steered walks"
    )
    stats = {
        "executable": total,
        "unexecuted_by_checks": by_checks,
        "unexecuted": len(missing),
        "steered_walks": steered.walks,
        "steered_steps": steered.steps,
        "frontiers": steered.frontiers,
        "new_lines": dict(steered.new_lines),
        "lines": {f: line_ranges(n for g, n in missing if g == f) for f in _files(missing)},
    }
    status = "failed" if any(f.kind == fk.CRASH for f in found) else "ok"
    return row("lines", status, started, summary, **stats), tuple(found)


def _files(lines: Sequence[PageLine]) -> list[str]:
    return list(dict.fromkeys(f for f, _ in lines))


def unexecuted_finding(ctx: StageContext, missing: Sequence[PageLine]) -> Finding:
    """One finding listing, per page, the lines no check executed and what they cite."""
    cites = cites_of(ctx.workspace.root, missing)
    per_page: list[dict[str, Any]] = []
    for file in _files(missing):
        numbers = [n for f, n in missing if f == file]
        per_page.append({"file": file, "lines": line_ranges(numbers), "cites": cites.get(file, ())})
    shown = "; ".join(f"{p['file']} {p['lines']}" for p in per_page[:SHOWN_LINES])
    more = f"; and {len(per_page) - SHOWN_LINES} more pages" if len(per_page) > SHOWN_LINES else ""
    message = f"{len(missing)} page line(s) no check executed: {shown}{more}"
    refs = [
        PageRef(Path(p["file"]).stem, f"lines {p['lines']} never ran", None, p["cites"], p["file"])
        for p in per_page
    ]
    return Finding(
        UNEXECUTED,
        "lines",
        message,
        pages=tuple(refs),
        sections=ctx.index.sections_for(refs),
        extra={"pages": [{**p, "cites": list(p["cites"])} for p in per_page], "advisory": True},
    )


def _crash(ctx: StageContext, actions: tuple[str, ...], start: str, message: str) -> Finding:
    """A steered walk that faulted, replayed on the checked build for its message."""
    from rulebook2game.check.shrink import trace_of

    assert ctx.engine is not None
    engine = ctx.engine
    trace = None
    if not start:
        trace = trace_of(engine, actions, game=ctx.config.name)
        state = engine.initial()
        try:
            for action in actions:
                state = engine.apply(state, action)
        except (EngineFault, IllegalActionError) as exc:
            message = str(exc)
    where = fk.find_location(message)
    finding = Finding(
        fk.CRASH,
        "lines",
        f"a steered walk crashed the engine: {message.splitlines()[0] if message else ''}",
        trace=trace,
        step=len(actions),
        location=where,
        actions=actions[-1:],
        extra={"setup": start} if start else {},
    )
    return ctx.index.locate(finding)
