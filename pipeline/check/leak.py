"""The ``leak`` stage: a player's observation must not reveal what the player may not see.

Found by playing. Along seeded random trajectories the engine and the reference engine
are walked in lockstep; then two chance outcomes of the trajectory are swapped (two
cards dealt, two dice rolled) and the rest replayed while it stays legal. Wherever the
reference gives a player the same information state in both trajectories, the player
cannot tell them apart, so the engine must give that player the same observation (text
and tensor). A difference is a leak, reported with both trajectories.

With a reference engine that has information states (OpenSpiel), the reference says
when a player cannot tell the two trajectories apart; for a game the reference calls
perfect-information there is nothing to hide.

Without one, the game's own declarations say it (rl's ``Hidden``/``HiddenInformation``,
which both targets lower to): the engine walks alone, swaps two chance outcomes the same
way and replays the rest while the same players move (who moves is public), and at
each compared step splits every player's observation tensor into what all
players see (the tensor of an observer who is no player) and the player's private
values (the rest). Where the swap changed some other player's private values and left
player ``p``'s own private values as they were, ``p`` holds exactly the same knowledge
in both games, so ``p``'s observation (text and tensor) must be the same: a difference
means that public state carries what only others may know (a leak). What this covers:
private values held by one player (hands, set-aside cards, anything in a
``HiddenInformation`` with an owner) that leak through public state or through the
printed observation. Not covered: values no player may see (``Hidden``, an undealt
deck), whose leaks show only against a reference; and a game whose rules make a
private value partly public (a suit announced), which must declare the announced
part as public state of its own or be reported.

Options (in the check's context): ``leak`` walks (default 8, 0 skips), ``leak_pairs``
swaps tried per walk (default 12).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from rulebook2game.check.findings import Finding
from rulebook2game.check.report import StageResult
from rulebook2game.check.stages import StageContext, max_steps
from rulebook2game.check.stepper import states_along
from rulebook2game.engine import CHANCE, Engine, IllegalActionError, ObservingEngine
from rulebook2game.errors import Rulebook2GameError
from rulebook2game.oracle import load_oracle
from rulebook2game.trace import Trace, TraceEnd, TraceHeader, TraceStep

LEAK = "leak"
DEFAULT_WALKS = 8
DEFAULT_PAIRS = 12


@dataclass(frozen=True)
class _Walk:
    actions: list[str]
    players: list[int]
    engine_states: list[Any]
    oracle_states: list[Any]


def leak(ctx: StageContext) -> tuple[StageResult, tuple[Finding, ...]]:
    """Run the stage (see the module docstring)."""
    started = time.perf_counter()
    walks = int(ctx.options.get("leak", DEFAULT_WALKS))
    pairs = int(ctx.options.get("leak_pairs", DEFAULT_PAIRS))
    engine = ctx.engine
    if engine is None or walks <= 0:
        why = "no engine" if engine is None else "disabled (leak 0)"
        return _row("skipped", started, why), ()
    if not isinstance(engine, ObservingEngine):
        return _row("skipped", started, f"{engine.name} gives no observations"), ()
    oracle: Any = None
    if ctx.config.oracle is not None:
        try:
            oracle = load_oracle(ctx.config.oracle, ctx.workspace.root)
        except Rulebook2GameError as exc:
            return _row("error", started, f"reference engine: {exc}"), ()
    if oracle is None or not hasattr(oracle, "information_state"):
        if not hasattr(engine, "public_tensor"):
            why = "no reference engine with information states, and no public view"
            return _row("skipped", started, why), ()
        return _own_leak(ctx, engine, walks, pairs, started)
    game = getattr(oracle, "game", None)
    if game is not None and str(game.get_type().information).endswith(".PERFECT_INFORMATION"):
        return _row("ok", started, f"{oracle.name} has perfect information: nothing to hide"), ()
    rng = random.Random(ctx.seed)
    bound = max_steps(ctx.config)
    compared = 0
    for w in range(walks):
        try:
            walk = _walk(engine, oracle, rng, bound)
        except Rulebook2GameError:
            continue  # a fault of the engine is the fuzz stage's finding

        candidates = _swaps(walk)
        for i, j in rng.sample(candidates, min(pairs, len(candidates))):
            try:
                found, n = _compare_swap(ctx, engine, oracle, walk, i, j)
            except Rulebook2GameError:
                continue
            compared += n
            if found is not None:
                summary = f"leak found on walk {w} ({compared} observations compared)"
                return _row("failed", started, summary, compared=compared), (found,)
    summary = f"{walks} walks, {compared} observations compared, no leak"
    return _row("ok", started, summary, compared=compared), ()


def _own_leak(
    ctx: StageContext, engine: Any, walks: int, pairs: int, started: float
) -> tuple[StageResult, tuple[Finding, ...]]:
    """The stage without a reference: the pages' own declarations of private values say
    what a player may know (see the module docstring)."""
    rng = random.Random(ctx.seed)
    bound = max_steps(ctx.config)
    compared, private = 0, False
    for w in range(walks):
        try:
            walk = _walk(engine, None, rng, bound)
            states = walk.engine_states
            sampled = {states[len(states) * k // 4] for k in range(4)} | {states[-1]}
            private = private or any(_holds_private(engine, x) for x in sampled)
        except Rulebook2GameError:
            continue  # a fault of the engine is the fuzz stage's finding
        candidates = _swaps(walk)
        for i, j in rng.sample(candidates, min(pairs, len(candidates))):
            try:
                found, n = _compare_own(ctx, engine, walk, i, j)
            except Rulebook2GameError:
                continue
            compared += n
            if found is not None:
                summary = f"leak found on walk {w} ({compared} observations compared, no reference)"
                return _row("failed", started, summary, compared=compared), (found,)
    if not compared and not private:
        why = "no reference engine; no player holds private values (HiddenInformation)"
        return _row("ok", started, why, compared=0), ()
    summary = (
        f"{walks} walks, {compared} observations compared against the pages' own "
        "declarations of private values (no reference), no leak"
    )
    return _row("ok", started, summary, compared=compared), ()


def _swaps(walk: _Walk) -> list[tuple[int, int]]:
    """Pairs of chance steps of the same action (two cards dealt, two dice rolled)."""
    chance = [t for t, p in enumerate(walk.players) if p == CHANCE]
    name = [a.split("(")[0] for a in walk.actions]
    return [(i, j) for i in chance for j in chance if i < j and name[i] == name[j]]


def _private(engine: Any, state: Any, public: list[float]) -> list[list[float]]:
    """Per player, that player's private values: the observation tensor less the
    public one (zero wherever every player sees the same)."""
    return [
        [x - y for x, y in zip(engine.observation_tensor(state, p), public, strict=True)]
        for p in range(engine.players)
    ]


def _holds_private(engine: Any, state: Any) -> bool:
    public = engine.public_tensor(state)
    return any(any(row) for row in _private(engine, state, public))


def _compare_own(
    ctx: StageContext, engine: Any, walk: _Walk, i: int, j: int
) -> tuple[Finding | None, int]:
    """Replay the walk with chance steps ``i`` and ``j`` swapped; at a few steps, every
    player whose private values are the same in both games while another's differ must
    see the same."""
    other = list(walk.actions)
    other[i], other[j] = other[j], other[i]
    states = {}
    for t, state in enumerate(states_along(engine, walk.engine_states[i], other[i:]), i):
        if t + 1 < len(other) and engine.current_player(state) != walk.players[t + 1]:
            break  # who moves is public: from here on everyone can tell the games apart
        states[t + 1] = state
    valid = sorted(t for t in states if t > j)
    if not valid:
        return None, 0
    compared = 0
    for t in sorted({valid[0], valid[len(valid) // 2], valid[-1]}):
        a, b = walk.engine_states[t], states[t]
        own_a = _private(engine, a, engine.public_tensor(a))
        own_b = _private(engine, b, engine.public_tensor(b))
        changed = [p for p in range(engine.players) if own_a[p] != own_b[p]]
        if not changed:
            continue
        for p in range(engine.players):
            if p in changed:
                continue
            compared += 1
            mine, theirs = engine.observation_string(a, p), engine.observation_string(b, p)
            if mine != theirs:
                texts = (mine, theirs)
            else:
                tensor_a, tensor_b = (
                    engine.observation_tensor(a, p),
                    engine.observation_tensor(b, p),
                )
                if tensor_a == tensor_b:
                    continue
                texts = _tensor_difference(tensor_a, tensor_b)
            why = (
                f"although player {p}'s own private values are the same in both games and "
                f"only player(s) {', '.join(map(str, changed))}'s private values differ"
            )
            return _finding(ctx, engine, walk, other, (i, j, t, p), texts, why), compared
    return None, compared


def _walk(engine: Engine[Any], oracle: Any, rng: random.Random, bound: int) -> _Walk:
    """A seeded random trajectory, played in both engines while they agree (in the
    engine alone when ``oracle`` is None)."""
    state, ref = engine.initial(), oracle.initial() if oracle is not None else None
    walk = _Walk([], [], [state], [ref])
    while not engine.is_terminal(state) and len(walk.actions) < bound:
        player = engine.current_player(state)
        if player == CHANCE:
            texts, odds = zip(*engine.chance_outcomes(state), strict=True)
            action = rng.choices(texts, odds)[0]
        else:
            legal = engine.legal_actions(state)
            if not legal:
                break  # a live state offering nothing: the fuzz stage reports it
            action = rng.choice(legal)
        try:
            state = engine.apply(state, action)
            ref = oracle.apply(ref, action) if oracle is not None else None
        except (IllegalActionError, Rulebook2GameError):
            break  # the engines disagree or the engine failed: other stages report that
        walk.actions.append(action)
        walk.players.append(player)
        walk.engine_states.append(state)
        walk.oracle_states.append(ref)
    return walk


def _compare_swap(
    ctx: StageContext, engine: Any, oracle: Any, walk: _Walk, i: int, j: int
) -> tuple[Finding | None, int]:
    """Replay the walk with actions ``i`` and ``j`` swapped; compare at a few steps."""
    other = list(walk.actions)
    other[i], other[j] = other[j], other[i]
    refs = {}
    ref = walk.oracle_states[i]
    for t in range(i, len(other)):
        try:
            ref = oracle.apply(ref, other[t])
        except (IllegalActionError, Rulebook2GameError):
            break
        refs[t + 1] = ref
    replayed = states_along(engine, walk.engine_states[i], other[i : i + len(refs)])
    states = {t + 1: state for t, state in enumerate(replayed, i)}
    refs = {t: refs[t] for t in states}
    valid = sorted(t for t in states if t > j)
    if not valid:
        return None, 0
    checkpoints = sorted({valid[0], valid[len(valid) // 2], valid[-1]})
    same = [
        (t, p)
        for t in checkpoints
        for p in range(engine.players)
        if oracle.information_state(walk.oracle_states[t], p)
        == oracle.information_state(refs[t], p)
    ]
    seen = views(engine, [(x, p) for t, p in same for x in (walk.engine_states[t], states[t])])
    compared = 0
    for t, p in same:
        compared += 1
        (mine, tensor_a), (theirs, tensor_b) = next(seen), next(seen)
        why = f"although the reference gives player {p} the same information in both games"
        if mine != theirs:
            texts = (mine, theirs)
            return _finding(ctx, engine, walk, other, (i, j, t, p), texts, why), compared
        if tensor_a != tensor_b:
            shown = _tensor_difference(tensor_a, tensor_b)
            return _finding(ctx, engine, walk, other, (i, j, t, p), shown, why), compared
    return None, compared


def views(engine: Any, pairs: list[tuple[Any, int]]) -> Iterator[tuple[str, list[float]]]:
    """Observation text and tensor of each (state, player) pair, in order.

    One round trip where the engine answers them together (``views``); else, or when
    that fails, one question at a time, so a fault surfaces at the pair that causes it.
    """
    batch = getattr(engine, "views", None)
    if batch is not None and pairs:
        try:
            return iter(batch(pairs))
        except Rulebook2GameError:
            pass
    return ((engine.observation_string(x, p), engine.observation_tensor(x, p)) for x, p in pairs)


def _tensor_difference(a: list[float], b: list[float]) -> tuple[str, str]:
    """The first few entries where two tensors differ, as ``tensor[i]=x`` lists."""
    where = [k for k, (x, y) in enumerate(zip(a, b, strict=True)) if x != y][:6]
    return (
        "observation tensor: " + ", ".join(f"[{k}]={a[k]:g}" for k in where),
        "observation tensor: " + ", ".join(f"[{k}]={b[k]:g}" for k in where),
    )


def _finding(
    ctx: StageContext,
    engine: Any,
    walk: _Walk,
    other: list[str],
    where: tuple[int, int, int, int],
    texts: tuple[str, str],
    why: str,
) -> Finding:
    i, j, t, player = where
    first, second = walk.actions[i], walk.actions[j]
    tensor = texts[0].startswith("observation tensor: ")
    what = "observation tensor" if tensor else "observation text"
    message = (
        f"player {player}'s {what} differs after {t} steps when {first} (step {i}) and "
        f"{second} (step {j}) trade places, {why}"
    )
    finding = Finding(
        LEAK,
        "leak",
        message,
        trace=_trace(ctx, engine, walk.actions[:t], walk.players[:t]),
        step=t,
        expected=texts[0],
        actual=texts[1],
        actions=(first, second),
        extra={"player": player, "swapped": [i, j], "other_actions": other[:t]},
    )
    return ctx.index.locate(finding)


def _trace(ctx: StageContext, engine: Any, actions: list[str], players: list[int]) -> Trace:
    header = TraceHeader(game=ctx.config.name, players=engine.players, source=engine.name)
    pairs = enumerate(zip(actions, players, strict=True))
    steps = tuple(TraceStep(t=t, player=p, action=a) for t, (a, p) in pairs)
    return Trace(header, steps, TraceEnd(terminal=False))


_row = partial(StageResult.since, "leak")
