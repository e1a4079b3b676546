"""Behaviour diff: walk two engines in lockstep and report where they first disagree.

Two kinds of walks share one comparison:

- a golden trace's actions, played on both engines (plus a plain replay of the
  trace on each side, so a reviewer sees which side still matches the recording);
- seeded random trajectories: at each step both engines must offer the same
  options; the next action is drawn with ``random.Random(seed)`` (chance steps by
  their probabilities), so the same seed gives the same walk on every run.

At each step the comparison checks, in order: terminal flag, player to move,
chance outcomes and probabilities, legal set; at the end of a walk, the returns.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulebook2game.check.invariants import Observation, observe
from rulebook2game.check.lockstep import compare_observations
from rulebook2game.check.replay import replay
from rulebook2game.engine import CHANCE, Engine, IllegalActionError, draw_chance
from rulebook2game.errors import EngineFault
from rulebook2game.trace import PROBABILITY_TOLERANCE, Trace

AnyEngine = Engine[Any]


@dataclass(frozen=True)
class StepDifference:
    """The first step at which two engines disagree."""

    step: int
    """Index of the step (the number of actions played before it)."""
    what: str
    """terminal | player | chance | legal | returns | error"""
    old: str
    new: str
    gained: tuple[str, ...] = ()
    """Actions legal (or chance outcomes possible) on the new side only."""
    lost: tuple[str, ...] = ()
    """Actions legal (or chance outcomes possible) on the old side only."""
    prefix: tuple[str, ...] = ()
    """The actions that lead from the initial state to the step."""

    def __str__(self) -> str:
        text = f"step {self.step}: {self.what} differs: old {self.old}, new {self.new}"
        if self.gained:
            text += f"; gained {list(self.gained)}"
        if self.lost:
            text += f"; lost {list(self.lost)}"
        return text


@dataclass(frozen=True)
class Walk:
    """One lockstep walk of both engines."""

    label: str
    """``trace win_row`` or ``random seed 7``."""
    steps: int
    """Steps both engines agreed on (the walk's length when they never disagree)."""
    difference: StepDifference | None
    old_replay: str | None = None
    """For a golden trace: ``None`` if the old engine replays it, else the divergence."""
    new_replay: str | None = None
    """For a golden trace: ``None`` if the new engine replays it, else the divergence."""
    minimal: StepDifference | None = None
    """A shortest action sequence found that shows the same kind of difference."""


def _gained_lost(old: Sequence[str], new: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    return tuple(sorted(set(new) - set(old))), tuple(sorted(set(old) - set(new)))


def _compare_chance(old: Observation, new: Observation) -> tuple[str, str] | None:
    """(old, new) wording of the first chance difference: outcome counts or a probability."""
    o, n = dict(old.chance), dict(new.chance)
    if set(o) != set(n):
        return f"{len(o)} outcomes", f"{len(n)} outcomes"
    for action, p in o.items():
        if not math.isclose(p, n[action], abs_tol=PROBABILITY_TOLERANCE):
            return f"P({action}) = {p:.4f}", f"P({action}) = {n[action]:.4f}"
    return None


def compare(
    old: Observation, new: Observation, step: int, prefix: tuple[str, ...]
) -> StepDifference | None:
    """The difference between two observations of the same step, if any.

    Whether they differ is decided by the checks' own comparison
    (:func:`rulebook2game.check.lockstep.compare_observations`, the old side in the
    reference's place), so ``check`` and ``diff`` never disagree about it; this only
    words the difference for a reviewer of two versions.
    """
    mismatch = compare_observations(old, new)
    if mismatch is None:
        return None
    what = mismatch.what
    if what == "terminal":
        return StepDifference(
            step, "terminal", _terminal_text(old), _terminal_text(new), prefix=prefix
        )
    if what == "returns":
        return StepDifference(
            step, "returns", str(list(old.returns)), str(list(new.returns)), prefix=prefix
        )
    if what == "player":
        return StepDifference(step, "player", str(old.player), str(new.player), prefix=prefix)
    if what == "chance":
        problem = _compare_chance(old, new) or (mismatch.expected, mismatch.actual)
        gained, lost = _gained_lost([a for a, _ in old.chance], [a for a, _ in new.chance])
        return StepDifference(step, "chance", problem[0], problem[1], gained, lost, prefix)
    gained, lost = _gained_lost(old.legal, new.legal)
    return StepDifference(
        step, "legal", f"{len(old.legal)} legal", f"{len(new.legal)} legal", gained, lost, prefix
    )


def _terminal_text(obs: Observation) -> str:
    return f"terminal, returns {list(obs.returns)}" if obs.terminal else "not terminal"


def _error(step: int, side: str, exc: Exception, prefix: tuple[str, ...]) -> StepDifference:
    text = f"{type(exc).__name__}: {exc}"
    old, new = (text, "answers") if side == "old" else ("answers", text)
    return StepDifference(step, "error", old, new, prefix=prefix)


def _observe_both(
    old: AnyEngine, new: AnyEngine, states: tuple[Any, Any], step: int, prefix: tuple[str, ...]
) -> tuple[Observation, Observation] | StepDifference:
    try:
        a = observe(old, states[0])
    except (EngineFault, IllegalActionError) as exc:
        return _error(step, "old", exc, prefix)
    try:
        b = observe(new, states[1])
    except (EngineFault, IllegalActionError) as exc:
        return _error(step, "new", exc, prefix)
    return a, b


def _apply_both(
    old: AnyEngine,
    new: AnyEngine,
    states: tuple[Any, Any],
    action: str,
    step: int,
    prefix: tuple[str, ...],
) -> tuple[Any, Any] | StepDifference:
    try:
        a = old.apply(states[0], action)
    except (EngineFault, IllegalActionError) as exc:
        return _error(step, "old", exc, prefix)
    try:
        b = new.apply(states[1], action)
    except (EngineFault, IllegalActionError) as exc:
        return _error(step, "new", exc, prefix)
    return a, b


def _options(obs: Observation) -> set[str]:
    return {a for a, _ in obs.chance} if obs.player == CHANCE else set(obs.legal)


def _start_both(old: AnyEngine, new: AnyEngine) -> tuple[Any, Any] | StepDifference:
    try:
        a = old.initial()
    except (EngineFault, IllegalActionError) as exc:
        return _error(0, "old", exc, ())
    try:
        b = new.initial()
    except (EngineFault, IllegalActionError) as exc:
        return _error(0, "new", exc, ())
    return a, b


def _choose(obs: Observation, rng: random.Random) -> str:
    return draw_chance(obs.chance, rng) if obs.player == CHANCE else rng.choice(obs.legal)


def lockstep(
    old: AnyEngine,
    new: AnyEngine,
    *,
    actions: Sequence[str] | None = None,
    rng: random.Random | None = None,
    max_steps: int = 1000,
    label: str = "walk",
) -> Walk:
    """Walk both engines together along ``actions`` or, without them, draws of ``rng``."""
    pick = rng or random.Random(0)
    prefix: tuple[str, ...] = ()
    started = _start_both(old, new)
    if isinstance(started, StepDifference):
        return Walk(label, 0, started)
    states = started
    limit = len(actions) if actions is not None else max_steps
    for step in range(limit + 1):
        seen = _observe_both(old, new, states, step, prefix)
        if isinstance(seen, StepDifference):
            return Walk(label, step, seen)
        found = compare(*seen, step, prefix)
        if found is not None:
            return Walk(label, step, found)
        if seen[0].terminal or step == limit:
            return Walk(label, step, None)
        action = actions[step] if actions is not None else _choose(seen[0], pick)
        if action not in _options(seen[0]):
            # The trace leaves both engines alike here; the replays report it.
            return Walk(label, step, None)
        moved = _apply_both(old, new, states, action, step, prefix)
        if isinstance(moved, StepDifference):
            return Walk(label, step, moved)
        states, prefix = moved, (*prefix, action)
    return Walk(label, limit, None)


def _replay_text(engine: AnyEngine, trace: Trace) -> str | None:
    result = replay(engine, trace)
    return None if result.divergence is None else str(result.divergence)


def trace_walk(old: AnyEngine, new: AnyEngine, trace: Trace, label: str) -> Walk:
    """Lockstep along a golden trace, plus a replay of the trace on each side."""
    walk = lockstep(old, new, actions=trace.actions, label=label)
    return Walk(
        walk.label,
        walk.steps,
        walk.difference,
        old_replay=_replay_text(old, trace),
        new_replay=_replay_text(new, trace),
    )


def random_walks(
    old: AnyEngine, new: AnyEngine, *, seeds: Sequence[int], max_steps: int = 1000
) -> list[Walk]:
    """One lockstep walk per seed, each drawn with ``random.Random(seed)``."""
    return [
        lockstep(old, new, rng=random.Random(s), max_steps=max_steps, label=f"random seed {s}")
        for s in seeds
    ]
