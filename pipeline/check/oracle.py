"""Lockstep comparison of a candidate engine against a reference engine (the oracle).

Along seeded random trajectories both engines are asked, at every state: terminal
flag, current player, the legal set (sorted canonical texts) or the chance outcomes
with their probabilities, and at the end the returns. The next action is drawn from
the oracle's options on even trajectories and from the candidate's on odd ones (the
sets are equal whenever the walk goes on, so both draw from the same rules; chance
outcomes follow that side's probabilities). The first difference ends the trajectory
and becomes a :class:`~rulebook2game.check.findings.Finding` whose counterexample is
shrunk to the shortest action sequence, legal in both engines, that still shows a
difference of the same kind about the same actions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rulebook2game.check import findings as fk
from rulebook2game.check.findings import Finding, action_name, find_location
from rulebook2game.check.shrink import DEFAULT_MAX_TESTS, engine_alternatives, shrink, trace_of
from rulebook2game.engine import CHANCE, Engine, IllegalActionError
from rulebook2game.errors import EngineFault
from rulebook2game.trace import PROBABILITY_TOLERANCE

RETURNS_TOLERANCE = 1e-6
HOOKS = {
    "returns": ("score",),
    "terminal": ("score",),
    "player": ("get_current_player",),
}
"""rl functions whose pages are involved in a mismatch of each kind (besides the actions')."""
KIND_OF = {
    "player": fk.ORACLE_PLAYER,
    "legal": fk.ORACLE_LEGAL,
    "chance": fk.ORACLE_CHANCE,
    "terminal": fk.ORACLE_TERMINAL,
    "returns": fk.ORACLE_RETURNS,
    "error": fk.CRASH,
}


@dataclass(frozen=True)
class Mismatch:
    """How the candidate differs from the oracle on one state."""

    what: str
    """player | legal | chance | terminal | returns | error"""
    expected: str
    actual: str
    actions: tuple[str, ...] = ()
    """Missing and extra action texts (legal, chance)."""
    message: str = ""

    def signature(self) -> tuple[str, frozenset[str]]:
        """What must stay the same while shrinking: the kind and the action names involved."""
        return self.what, frozenset(action_name(a) for a in self.actions)


def _fmt(items: Sequence[str], limit: int = 6) -> str:
    shown = ", ".join(items[:limit])
    return f"[{shown}{', ...' if len(items) > limit else ''}]"


def _compare_sets(what: str, want: list[str], got: list[str], player: int) -> Mismatch | None:
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    if not missing and not extra:
        return None
    parts = []
    if missing:
        parts.append(f"missing {_fmt(missing)}")
    if extra:
        parts.append(f"extra {_fmt(extra)}")
    who = "chance" if player == CHANCE else f"player {player}"
    noun = "chance outcomes" if what == "chance" else "legal moves"
    message = f"{noun} of {who} differ: " + "; ".join(parts)
    return Mismatch(what, _fmt(want), _fmt(got), tuple(missing + extra), message)


def _compare_chance(want: list[tuple[str, float]], got: list[tuple[str, float]]) -> Mismatch | None:
    found = _compare_sets("chance", [a for a, _ in want], [a for a, _ in got], CHANCE)
    if found is not None:
        return found
    probs = dict(got)
    for action, p in want:
        if not math.isclose(p, probs[action], abs_tol=PROBABILITY_TOLERANCE):
            message = f"chance outcome {action} has probability {probs[action]:.4f}, not {p:.4f}"
            return Mismatch("chance", f"{p:.6f}", f"{probs[action]:.6f}", (action,), message)
    return None


def compare_states(
    oracle: Engine[Any], o_state: Any, cand: Engine[Any], c_state: Any
) -> Mismatch | None:
    """The first difference between the two engines' views of one position, if any."""
    o_term, c_term = oracle.is_terminal(o_state), cand.is_terminal(c_state)
    if o_term != c_term:
        message = "game over too early" if c_term else "game goes on after it should have ended"
        return Mismatch("terminal", str(o_term).lower(), str(c_term).lower(), (), message)
    if o_term:
        want, got = list(oracle.returns(o_state)), list(cand.returns(c_state))
        if len(want) != len(got) or any(
            not math.isclose(a, b, abs_tol=RETURNS_TOLERANCE)
            for a, b in zip(want, got, strict=False)
        ):
            return Mismatch("returns", str(want), str(got), (), f"returns {got}, expected {want}")
        return None
    o_player, c_player = oracle.current_player(o_state), cand.current_player(c_state)
    if o_player != c_player:
        message = f"player {c_player} to move, expected {o_player}"
        return Mismatch("player", str(o_player), str(c_player), (), message)
    if o_player == CHANCE:
        return _compare_chance(oracle.chance_outcomes(o_state), cand.chance_outcomes(c_state))
    return _compare_sets(
        "legal", oracle.legal_actions(o_state), cand.legal_actions(c_state), o_player
    )


def _choose(engine: Engine[Any], state: Any, rng: random.Random) -> str:
    if engine.current_player(state) == CHANCE:
        outcomes = engine.chance_outcomes(state)
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(engine.legal_actions(state))


@dataclass(frozen=True)
class Trajectory:
    """One lockstep walk: the actions taken and the mismatch that ended it, if any."""

    actions: tuple[str, ...]
    mismatch: Mismatch | None


def _fault(exc: Exception) -> Mismatch:
    kind = exc.kind if isinstance(exc, EngineFault) else "error"
    message = exc.message if isinstance(exc, EngineFault) else str(exc)
    text = f"engine {kind}: {message}".splitlines()[0]
    return Mismatch("error", "the engine to answer", text, (), text)


def walk(
    oracle: Engine[Any],
    cand: Engine[Any],
    rng: random.Random,
    max_steps: int,
    from_candidate: bool,
) -> Trajectory:
    """One seeded lockstep trajectory, stopping at the first mismatch or the end."""
    o_state, c_state = oracle.initial(), None
    actions: list[str] = []
    try:
        c_state = cand.initial()
        for _ in range(max_steps + 1):
            found = compare_states(oracle, o_state, cand, c_state)
            if found is not None or oracle.is_terminal(o_state):
                return Trajectory(tuple(actions), found)
            action = _choose(
                cand if from_candidate else oracle, c_state if from_candidate else o_state, rng
            )
            actions.append(action)
            o_state = oracle.apply(o_state, action)
            c_state = cand.apply(c_state, action)
    except (EngineFault, IllegalActionError) as exc:
        return Trajectory(tuple(actions), _fault(exc))
    return Trajectory(tuple(actions), None)


def _shows(oracle: Engine[Any], cand: Engine[Any], signature: tuple[str, frozenset[str]]) -> Any:
    """Predicate for shrinking: the sequence is legal in both and ends on the same mismatch."""

    def predicate(actions: Sequence[str]) -> bool:
        try:
            o_state, c_state = oracle.initial(), cand.initial()
            for action in actions:
                o_state = oracle.apply(o_state, action)
                c_state = cand.apply(c_state, action)
            found = compare_states(oracle, o_state, cand, c_state)
        except IllegalActionError:
            return False
        except EngineFault as exc:
            found = _fault(exc)
        return found is not None and found.signature() == signature

    return predicate


@dataclass(frozen=True)
class OracleConfig:
    """How many trajectories, from which seed, how long, how much shrinking."""

    runs: int = 200
    seed: int = 0
    max_steps: int = 10_000
    shrink: bool = True
    max_shrink_tests: int = DEFAULT_MAX_TESTS
    max_findings: int = 5
    stop_at_first: bool = False
    game: str = "game"


@dataclass
class OracleResult:
    """Findings and numbers of an oracle stage."""

    findings: list[Finding] = field(default_factory=list)
    trajectories: int = 0
    steps: int = 0
    shrink_tests: int = 0


def _finding(
    oracle: Engine[Any],
    cand: Engine[Any],
    actions: Sequence[str],
    mismatch: Mismatch,
    config: OracleConfig,
) -> Finding:
    recorder = cand if mismatch.what == "error" else oracle
    trace = trace_of(recorder, actions, game=config.game, seed=config.seed)
    involved = list(mismatch.actions) or ([actions[-1]] if actions else [])
    return Finding(
        kind=KIND_OF[mismatch.what],
        stage="oracle",
        message=mismatch.message or f"{mismatch.what} differs",
        trace=trace,
        step=len(actions),
        expected=mismatch.expected,
        actual=mismatch.actual,
        actions=tuple(involved),
        location=find_location(mismatch.actual),
        functions=HOOKS.get(mismatch.what, ()),
    )


def run_oracle(oracle: Engine[Any], cand: Engine[Any], config: OracleConfig) -> OracleResult:
    """Compare ``cand`` against ``oracle`` along ``config.runs`` seeded trajectories."""
    result = OracleResult()
    seen: set[tuple[str, frozenset[str]]] = set()
    for run in range(config.runs):
        rng = random.Random(f"{config.seed}:oracle:{run}")
        trajectory = walk(oracle, cand, rng, config.max_steps, from_candidate=run % 2 == 1)
        result.trajectories += 1
        result.steps += len(trajectory.actions)
        mismatch = trajectory.mismatch
        if mismatch is None or mismatch.signature() in seen:
            continue
        seen.add(mismatch.signature())
        actions: Sequence[str] = trajectory.actions
        if config.shrink:
            shrunk = shrink(
                actions,
                _shows(oracle, cand, mismatch.signature()),
                max_tests=config.max_shrink_tests,
                alternatives=engine_alternatives(oracle),
            )
            result.shrink_tests += shrunk.tests
            actions = shrunk.actions
            mismatch = _mismatch_at(oracle, cand, actions) or mismatch
        result.findings.append(_finding(oracle, cand, actions, mismatch, config))
        if config.stop_at_first or len(result.findings) >= config.max_findings:
            break
    return result


def _mismatch_at(oracle: Engine[Any], cand: Engine[Any], actions: Sequence[str]) -> Mismatch | None:
    """The mismatch at the end of ``actions`` (re-asked after shrinking, for exact details)."""
    try:
        o_state, c_state = oracle.initial(), cand.initial()
        for action in actions:
            o_state = oracle.apply(o_state, action)
            c_state = cand.apply(c_state, action)
        return compare_states(oracle, o_state, cand, c_state)
    except IllegalActionError:
        return None
    except EngineFault as exc:
        return _fault(exc)
