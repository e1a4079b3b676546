"""Minimal counterexamples: shrink an action sequence that shows a finding.

Generic over a predicate "this sequence still shows the same finding". First the
shortest prefix that still shows it, then delta debugging (ddmin over complements)
removes steps, then the shortest prefix again. Candidates where some action is not
legal are rejected by the engine-aware predicate (:func:`engine_predicate`), so every
sequence kept is a playable game prefix.

Every predicate call is cached and counted; ``max_tests`` bounds the work so a long
game (hearts: over a hundred steps) shrinks in bounded time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rulebook2game.engine import CHANCE, Engine, IllegalActionError
from rulebook2game.errors import EngineFault
from rulebook2game.trace import Trace, TraceEnd, TraceHeader, TraceStep

S = TypeVar("S")
Predicate = Callable[[Sequence[str]], bool]
StatesPredicate = Callable[[list[S], Sequence[str]], bool]

DEFAULT_MAX_TESTS = 300


@dataclass(frozen=True)
class ShrinkResult:
    """The shrunk sequence and how many predicate calls it took."""

    actions: tuple[str, ...]
    tests: int
    exhausted: bool
    """The test budget ran out before shrinking finished (result is valid, maybe not minimal)."""


class _Budget:
    """Caches and counts predicate calls; answers ``False`` once the budget is spent."""

    def __init__(self, predicate: Predicate, max_tests: int) -> None:
        self.predicate = predicate
        self.max_tests = max_tests
        self.tests = 0
        self.cache: dict[tuple[str, ...], bool] = {}

    @property
    def exhausted(self) -> bool:
        return self.tests >= self.max_tests

    def __call__(self, actions: Sequence[str]) -> bool:
        key = tuple(actions)
        if key in self.cache:
            return self.cache[key]
        if self.exhausted:
            return False
        self.tests += 1
        answer = bool(self.predicate(key))
        self.cache[key] = answer
        return answer


def shortest_prefix(actions: Sequence[str], test: Predicate) -> list[str]:
    """The shortest prefix of ``actions`` for which ``test`` holds (``actions`` if none)."""
    for n in range(len(actions) + 1):
        if test(actions[:n]):
            return list(actions[:n])
    return list(actions)


def ddmin(actions: Sequence[str], test: Predicate) -> list[str]:
    """Remove chunks of steps while ``test`` holds (complement-only delta debugging)."""
    seq = list(actions)
    n = 2
    while len(seq) >= 2:
        size = len(seq) // n
        starts = [i * size for i in range(n)] + [len(seq)]
        reduced = False
        for i in range(n):
            complement = seq[: starts[i]] + seq[starts[i + 1] :]
            if complement != seq and test(complement):
                seq = complement
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if n >= len(seq):
                break
            n = min(len(seq), 2 * n)
    return seq


Alternatives = Callable[[Sequence[str]], list[str]]
"""The actions possible after a prefix (for the merge pass of :func:`shrink`)."""


def merge_pass(actions: Sequence[str], test: Predicate, alternatives: Alternatives) -> list[str]:
    """Replace two consecutive steps by one other action while ``test`` holds.

    Removal alone stops at sequences such as "1, 1, 1" when "2, 1" would do; this
    pass finds those, one merge at a time, from the start of the sequence.
    """
    seq = list(actions)
    i = 0
    while i + 1 < len(seq):
        merged = False
        for option in alternatives(seq[:i]):
            candidate = [*seq[:i], option, *seq[i + 2 :]]
            if test(candidate):
                seq = ddmin(shortest_prefix(candidate, test), test)
                merged = True
                break
        if not merged:
            i += 1
    return seq


def shrink(
    actions: Sequence[str],
    still_fails: Predicate,
    *,
    max_tests: int = DEFAULT_MAX_TESTS,
    alternatives: Alternatives | None = None,
) -> ShrinkResult:
    """Shrink ``actions`` (which must satisfy ``still_fails``) to a minimal sequence.

    Shortest prefix, then ddmin, then (given ``alternatives``) merging two steps
    into one, then the shortest prefix again; at most ``max_tests`` predicate calls.
    """
    budget = _Budget(still_fails, max_tests)
    best = shortest_prefix(actions, budget)
    best = ddmin(best, budget)
    if alternatives is not None:
        best = merge_pass(best, budget, alternatives)
    best = shortest_prefix(best, budget)
    return ShrinkResult(tuple(best), budget.tests, budget.exhausted)


def engine_alternatives(engine: Engine[S]) -> Alternatives:
    """The legal actions (or chance outcomes) after a prefix, per ``engine``."""

    def alternatives(prefix: Sequence[str]) -> list[str]:
        try:
            states = play(engine, prefix)
        except (IllegalActionError, EngineFault):
            return []
        if states is None or engine.is_terminal(states[-1]):
            return []
        state = states[-1]
        if engine.current_player(state) == CHANCE:
            return [a for a, p in engine.chance_outcomes(state) if p > 0]
        return engine.legal_actions(state)

    return alternatives


def play(engine: Engine[S], actions: Sequence[str]) -> list[S] | None:
    """The states along ``actions`` (initial first), or ``None`` if one is not legal.

    A chance action is legal when it is a chance outcome with positive probability.
    """
    state = engine.initial()
    states = [state]
    for action in actions:
        if engine.is_terminal(state):
            return None
        if engine.current_player(state) == CHANCE:
            allowed = {a for a, p in engine.chance_outcomes(state) if p > 0}
        else:
            allowed = set(engine.legal_actions(state))
        if action not in allowed:
            return None
        state = engine.apply(state, action)
        states.append(state)
    return states


def engine_predicate(engine: Engine[S], shows: StatesPredicate[S]) -> Predicate:
    """A predicate that plays the sequence and asks ``shows(states, actions)``.

    Sequences with an illegal action are rejected. A fault of the engine while
    playing counts as "shows" only if ``shows`` is never reached: callers shrinking a
    crash pass a ``shows`` that is never true and rely on this.
    """

    def predicate(actions: Sequence[str]) -> bool:
        try:
            states = play(engine, actions)
        except (IllegalActionError, EngineFault):
            return False
        return states is not None and shows(states, actions)

    return predicate


def random_prefix(
    engine: Engine[S], rng: random.Random, max_steps: int
) -> tuple[list[str], list[S]]:
    """A random playout (uniform over legal moves, chance by its distribution)."""
    state = engine.initial()
    actions: list[str] = []
    states = [state]
    for _ in range(max_steps):
        if engine.is_terminal(state):
            break
        if engine.current_player(state) == CHANCE:
            outcomes = engine.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(engine.legal_actions(state))
        state = engine.apply(state, action)
        actions.append(action)
        states.append(state)
    return actions, states


def trace_of(
    engine: Engine[S], actions: Sequence[str], *, game: str, seed: int | None = None
) -> Trace:
    """Record ``actions`` through ``engine`` as a trace with legal sets and chance outcomes.

    Stops early (keeping what was recorded) if an action is not legal or the engine
    faults, so a crash counterexample still yields the steps before the crash.
    """
    steps: list[TraceStep] = []
    state = engine.initial()
    terminal = False
    returns: tuple[float, ...] | None = None
    try:
        for t, action in enumerate(actions):
            player = engine.current_player(state)
            if player == CHANCE:
                chance = tuple((a, round(p, 6)) for a, p in engine.chance_outcomes(state))
                steps.append(TraceStep(t=t, player=player, action=action, chance=chance))
            else:
                legal = tuple(engine.legal_actions(state))
                steps.append(TraceStep(t=t, player=player, action=action, legal=legal))
            state = engine.apply(state, action)
        terminal = engine.is_terminal(state)
        returns = tuple(engine.returns(state)) if terminal else None
    except (IllegalActionError, EngineFault, ValueError):
        steps = [s for s in steps if _step_ok(s)]
    header = TraceHeader(game=game, players=engine.players, source=engine.name, seed=seed)
    return Trace(header, tuple(steps), TraceEnd(terminal=terminal, returns=returns))


def _step_ok(step: TraceStep) -> bool:
    if step.legal is not None:
        return step.action in step.legal
    if step.chance is not None:
        return step.action in {a for a, _ in step.chance}
    return True
