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
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from rulebook2game.engine import CHANCE, Engine, IllegalActionError, random_step
from rulebook2game.errors import EngineFault
from rulebook2game.trace import Trace, TraceEnd, TraceHeader, TraceStep

S = TypeVar("S")
Predicate = Callable[[Sequence[str]], bool]
StatesPredicate = Callable[[list[S], Sequence[str]], bool]

DEFAULT_MAX_TESTS = 3000
DEFAULT_MAX_APPLIES = 15_000
"""Engine steps one shrink may take (each may be a round trip to a worker)."""


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


MERGE_WIDE_OPTIONS = 8
"""Positions with at most this many alternatives also try replacing three steps by one."""


def merge_pass(actions: Sequence[str], test: Predicate, alternatives: Alternatives) -> list[str]:
    """Replace consecutive steps by one other action while ``test`` holds.

    Removal alone stops at sequences such as "1, 1, 1" when "2, 1" would do; this
    pass finds those, one merge at a time, from the start of the sequence: a step
    and the next one (or, where there are few alternatives, as with dice, the next
    two: "roll, 3, roll, 3" becomes "roll, 6") are replaced by a single action.
    Options that merged before are tried first.
    """
    seq = list(actions)
    good: dict[str, int] = {}
    i = 0
    while i + 1 < len(seq):
        if isinstance(test, _Budget) and test.exhausted:
            break
        options = sorted(alternatives(seq[:i]), key=lambda a: -good.get(a, 0))
        spans = (2, 1) if len(options) <= MERGE_WIDE_OPTIONS else (1,)
        merged = next(
            (
                candidate
                for drop in spans
                for option in options
                if len(candidate := [*seq[:i], option, *seq[i + 1 + drop :]]) < len(seq)
                and test(candidate)
            ),
            None,
        )
        if merged is None:
            i += 1
        else:
            good[merged[i]] = good.get(merged[i], 0) + 1
            seq = merged
    return seq


def shrink(
    actions: Sequence[str],
    still_fails: Predicate,
    *,
    max_tests: int = DEFAULT_MAX_TESTS,
    alternatives: Alternatives | None = None,
    prefix_known: bool = False,
) -> ShrinkResult:
    """Shrink ``actions`` (which must satisfy ``still_fails``) to a minimal sequence.

    Shortest prefix (skipped when ``prefix_known``: the caller stopped at the first
    state showing the finding), merging steps (given ``alternatives``), ddmin,
    merging again, then the shortest prefix again; at most ``max_tests`` predicate
    calls (engine-aware predicates also bound their engine steps).
    """
    budget = _Budget(still_fails, max_tests)
    best = list(actions) if prefix_known else shortest_prefix(actions, budget)
    if alternatives is not None:
        best = merge_pass(best, budget, alternatives)
    best = ddmin(best, budget)
    if alternatives is not None:
        best = merge_pass(best, budget, alternatives)
    best = shortest_prefix(best, budget)
    return ShrinkResult(tuple(best), budget.tests, budget.exhausted)


class PrefixPlayer:
    """Plays action sequences through an engine, reusing the states of known prefixes.

    Shrinking tries many sequences that share prefixes; replaying each from the
    start would cost a round trip to the engine per step, so the states of recent
    prefixes are kept (at most ``max_cached``). ``max_applies`` bounds the total
    work: past it every sequence is refused and :attr:`exhausted` is set.
    """

    def __init__(
        self, engine: Engine[S], *, max_cached: int = 4096, max_applies: int = DEFAULT_MAX_APPLIES
    ):
        self.engine = engine
        self.max_cached = max_cached
        self.max_applies = max_applies
        self.applies = 0
        self._cache: OrderedDict[tuple[str, ...], Any] = OrderedDict()

    @property
    def exhausted(self) -> bool:
        return self.applies >= self.max_applies

    def _get(self, key: tuple[str, ...]) -> Any:
        if key not in self._cache:
            return _MISSING
        self._cache.move_to_end(key)
        return self._cache[key]

    def _put(self, key: tuple[str, ...], state: Any) -> None:
        self._cache[key] = state
        if len(self._cache) > self.max_cached:
            self._cache.popitem(last=False)

    def states(self, actions: Sequence[str]) -> list[Any] | None:
        """The states along ``actions`` (initial first), or ``None`` if one is not legal.

        Engine faults propagate; a sequence past the work budget gives ``None``.
        """
        key = tuple(actions)
        states: list[Any] = []
        for k in range(len(key) + 1):
            state = self._get(key[:k])
            if state is _MISSING:
                break
            states.append(state)
        if not states:
            states.append(self.engine.initial())
            self._put((), states[0])
        for k in range(len(states), len(key) + 1):
            if self.exhausted:
                return None
            state = _step(self.engine, states[-1], key[k - 1])
            if state is None:
                return None
            self.applies += 1
            states.append(state)
            self._put(key[:k], state)
        return states


_MISSING = object()


def _step(engine: Engine[S], state: S, action: str) -> S | None:
    """``state`` after ``action``, or ``None`` when the action is not possible there."""
    if engine.is_terminal(state):
        return None
    if engine.current_player(state) == CHANCE:
        allowed = {a for a, p in engine.chance_outcomes(state) if p > 0}
    else:
        allowed = set(engine.legal_actions(state))
    if action not in allowed:
        return None
    return engine.apply(state, action)


def engine_alternatives(engine: Engine[S], player: PrefixPlayer | None = None) -> Alternatives:
    """The legal actions (or chance outcomes) after a prefix, per ``engine``."""
    player = player or PrefixPlayer(engine)

    def alternatives(prefix: Sequence[str]) -> list[str]:
        try:
            states = player.states(prefix)
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
        nxt = _step(engine, state, action)
        if nxt is None:
            return None
        state = nxt
        states.append(state)
    return states


def engine_predicate(
    engine: Engine[S], shows: StatesPredicate[S], player: PrefixPlayer | None = None
) -> Predicate:
    """A predicate that plays the sequence and asks ``shows(states, actions)``.

    Sequences with an illegal action are rejected, and so are sequences on which
    the engine faults (callers shrinking a fault use their own predicate).
    """
    player = player or PrefixPlayer(engine)

    def predicate(actions: Sequence[str]) -> bool:
        try:
            states = player.states(actions)
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
        action = random_step(engine, state, rng)
        state = engine.apply(state, action)
        actions.append(action)
        states.append(state)
    return actions, states


def trace_of(
    engine: Engine[S], actions: Sequence[str], *, game: str, seed: int | None = None
) -> Trace:
    """Record ``actions`` through ``engine`` as a trace with legal sets and chance outcomes.

    Stops early (keeping what was recorded) if an action is not legal or the engine
    faults, so a crash counterexample still yields the steps before the crash (none
    when the first state faults).
    """
    steps: list[TraceStep] = []
    terminal = False
    returns: tuple[float, ...] | None = None
    try:
        # inside the guard: a game whose first state faults gets an empty trace
        state = engine.initial()
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
