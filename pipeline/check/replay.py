"""Replay a recorded trace against any engine and report the first divergence.

Each step checks, in this order: the player to move, the chance outcomes and their
probabilities (when recorded), the legal set (when recorded), that the action is
legal, and after the last step the terminal flag and the returns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeVar

from rulebook2game.engine import CHANCE, Engine, IllegalActionError
from rulebook2game.errors import EngineFault
from rulebook2game.trace import PROBABILITY_TOLERANCE, RETURNS_TOLERANCE, Trace

S = TypeVar("S")


@dataclass(frozen=True)
class Divergence:
    """Where and how an engine left a trace."""

    step: int
    """Index of the step (``len(trace.steps)`` for the end record)."""
    what: str
    """player | chance | legal | illegal | terminal | returns | error"""
    expected: str
    actual: str

    def __str__(self) -> str:
        where = f"step {self.step}"
        return f"{where}: {self.what} differs: expected {self.expected}, got {self.actual}"


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of one replay."""

    steps_ok: int
    """How many steps matched before the divergence (all of them when ok)."""
    divergence: Divergence | None

    @property
    def ok(self) -> bool:
        return self.divergence is None


def _set_diff(expected: list[str], actual: list[str]) -> tuple[str, str]:
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    return (f"missing {missing}" if missing else "", f"extra {extra}" if extra else "")


def _compare_chance(
    recorded: tuple[tuple[str, float], ...], actual: list[tuple[str, float]]
) -> str | None:
    want = dict(recorded)
    got = dict(actual)
    if set(want) != set(got):
        missing, extra = _set_diff(list(want), list(got))
        return "; ".join(p for p in (missing, extra) if p)
    for action, p in want.items():
        if not math.isclose(p, got[action], abs_tol=PROBABILITY_TOLERANCE):
            return f"{action} has probability {got[action]:.6f}, recorded {p:.6f}"
    return None


def _check_step(engine: Engine[S], state: S, trace: Trace, i: int) -> Divergence | None:
    step = trace.steps[i]
    if engine.is_terminal(state):
        return Divergence(i, "terminal", "a non-terminal state", "terminal")
    player = engine.current_player(state)
    if player != step.player:
        return Divergence(i, "player", str(step.player), str(player))
    if player == CHANCE:
        outcomes = engine.chance_outcomes(state)
        if step.chance is not None:
            problem = _compare_chance(step.chance, outcomes)
            if problem:
                return Divergence(i, "chance", "the recorded outcomes", problem)
        if step.action not in {a for a, _ in outcomes}:
            return Divergence(i, "illegal", f"{step.action} possible", "not a chance outcome")
        return None
    legal = engine.legal_actions(state)
    if step.legal is not None and sorted(step.legal) != sorted(legal):
        missing, extra = _set_diff(list(step.legal), legal)
        return Divergence(
            i, "legal", "the recorded legal set", "; ".join(p for p in (missing, extra) if p)
        )
    if step.action not in legal:
        return Divergence(i, "illegal", f"{step.action} legal", "not legal")
    return None


def _check_end(engine: Engine[S], state: S, trace: Trace) -> Divergence | None:
    n = len(trace.steps)
    terminal = engine.is_terminal(state)
    if terminal != trace.end.terminal:
        return Divergence(n, "terminal", str(trace.end.terminal).lower(), str(terminal).lower())
    if trace.end.returns is not None and terminal:
        got = engine.returns(state)
        want = list(trace.end.returns)
        if len(got) != len(want) or any(
            not math.isclose(a, b, abs_tol=RETURNS_TOLERANCE)
            for a, b in zip(got, want, strict=False)
        ):
            return Divergence(n, "returns", str(want), str(got))
    return None


def replay(engine: Engine[S], trace: Trace) -> ReplayResult:
    """Replay ``trace`` through ``engine``; stop at the first divergence.

    A fault of the engine (a crash, abort or hang of generated code, or an action
    it refuses) is a divergence of kind ``error`` at the step that raised it.

    An engine that applies a whole sequence at once (``apply_all``: one worker round
    trip) plays the trace's actions first and the steps are checked afterwards; when
    it refuses one or fails, the trace is replayed one step at a time, which says
    exactly where.
    """
    if hasattr(engine, "apply_all"):
        batched = _replay_batched(engine, trace)
        if batched is not None:
            return batched
    i = 0
    try:
        state = engine.initial()
        for i in range(len(trace.steps)):
            found = _check_step(engine, state, trace, i)
            if found is not None:
                return ReplayResult(i, found)
            state = engine.apply(state, trace.steps[i].action)
        i = len(trace.steps)
        found = _check_end(engine, state, trace)
        return ReplayResult(i, found)
    except (EngineFault, IllegalActionError) as exc:
        return ReplayResult(
            i, Divergence(i, "error", "the engine to answer", f"{type(exc).__name__}: {exc}")
        )


def _replay_batched(engine: Engine[S], trace: Trace) -> ReplayResult | None:
    """:func:`replay` from the states of one ``apply_all``; ``None`` when the engine did
    not apply every action (refused or failed)."""
    actions = [step.action for step in trace.steps]
    try:
        start = engine.initial()
        states = [start, *engine.apply_all(start, actions)]  # type: ignore[attr-defined]
    except (EngineFault, IllegalActionError):
        return None
    if len(states) != len(actions) + 1:
        return None
    for i, state in enumerate(states[:-1]):
        found = _check_step(engine, state, trace, i)
        if found is not None:
            return ReplayResult(i, found)
    return ReplayResult(len(actions), _check_end(engine, states[-1], trace))
