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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulebook2game.check import findings as fk
from rulebook2game.check.findings import HOOKS_OF, Finding, action_name, find_location
from rulebook2game.check.invariants import Observation, observe
from rulebook2game.check.native import NativePlayouts, derived_seed
from rulebook2game.check.shrink import (
    DEFAULT_MAX_TESTS,
    PrefixPlayer,
    engine_alternatives,
    shrink,
    trace_of,
)
from rulebook2game.check.stepper import stepper_for
from rulebook2game.engine import CHANCE, Engine, IllegalActionError
from rulebook2game.errors import EngineFault
from rulebook2game.trace import PROBABILITY_TOLERANCE

RETURNS_TOLERANCE = 1e-6
HOOKS = HOOKS_OF
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


def compare_observations(want: Observation, got: Observation) -> Mismatch | None:
    """The first difference between the oracle's (``want``) and the candidate's view."""
    if want.terminal != got.terminal:
        message = (
            "game over too early" if got.terminal else "game goes on after it should have ended"
        )
        return Mismatch(
            "terminal", str(want.terminal).lower(), str(got.terminal).lower(), (), message
        )
    if want.terminal:
        if len(want.returns) != len(got.returns) or any(
            not math.isclose(a, b, abs_tol=RETURNS_TOLERANCE)
            for a, b in zip(want.returns, got.returns, strict=False)
        ):
            expected, actual = list(want.returns), list(got.returns)
            return Mismatch(
                "returns", str(expected), str(actual), (), f"returns {actual}, expected {expected}"
            )
        return None
    if want.player != got.player:
        message = f"player {got.player} to move, expected {want.player}"
        return Mismatch("player", str(want.player), str(got.player), (), message)
    if want.player == CHANCE:
        return _compare_chance(list(want.chance), list(got.chance))
    return _compare_sets("legal", list(want.legal), list(got.legal), want.player)


def compare_states(
    oracle: Engine[Any], o_state: Any, cand: Engine[Any], c_state: Any
) -> Mismatch | None:
    """The first difference between the two engines' views of one position, if any."""
    return compare_observations(observe(oracle, o_state), observe(cand, c_state))


def _choose(obs: Observation, rng: random.Random) -> str:
    if obs.player == CHANCE:
        return rng.choices([a for a, _ in obs.chance], [p for _, p in obs.chance])[0]
    return rng.choice(obs.legal)


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
    follow: Sequence[str] | None = None,
) -> Trajectory:
    """One lockstep trajectory, stopping at the first mismatch or the end.

    Actions are drawn with ``rng`` from the oracle's options (the candidate's when
    ``from_candidate``), or taken from ``follow`` while it lasts.
    """
    actions: list[str] = []
    stepper = stepper_for(oracle)
    try:
        o_state, c_state = oracle.initial(), cand.initial()
        for step in range(max_steps + 1):
            (o_obs, token), c_obs = stepper.observe(o_state), observe(cand, c_state)
            found = compare_observations(o_obs, c_obs)
            if found is not None or o_obs.terminal:
                return Trajectory(tuple(actions), found)
            if follow is not None:
                if step >= len(follow):
                    break
                action = follow[step]
            else:
                action = _choose(c_obs if from_candidate else o_obs, rng)
            actions.append(action)
            o_state = stepper.apply(o_state, action, token)
            c_state = cand.apply(c_state, action)
    except (EngineFault, IllegalActionError) as exc:
        return Trajectory(tuple(actions), _fault(exc))
    return Trajectory(tuple(actions), None)


def screen(
    oracle: Engine[Any], actions: Sequence[str], status: str, returns: Sequence[float]
) -> bool:
    """Whether a game the candidate played alone is one the oracle agrees with.

    Every action must be legal (or a possible chance outcome) in the oracle, the
    oracle must not end earlier, and a finished game must end there too, with the
    same returns. Cheap: no question is asked of the candidate.
    """
    stepper = stepper_for(oracle)
    state = oracle.initial()
    for action in actions:
        obs, token = stepper.observe(state)
        if obs.terminal or (action not in obs.legal and action not in dict(obs.chance)):
            return False
        state = stepper.apply(state, action, token)
    if status == "truncated":
        return True
    if status != "terminal" or not oracle.is_terminal(state):
        return False
    want = oracle.returns(state)
    return len(want) == len(returns) and all(
        math.isclose(a, b, abs_tol=RETURNS_TOLERANCE) for a, b in zip(want, returns, strict=False)
    )


def _shows(
    players: tuple[PrefixPlayer, PrefixPlayer], signature: tuple[str, frozenset[str]]
) -> Any:
    """Predicate for shrinking: the sequence is legal in both and ends on the same mismatch."""
    o_player, c_player = players

    def predicate(actions: Sequence[str]) -> bool:
        o_states = o_player.states(actions)
        if o_states is None:
            return False
        try:
            c_states = c_player.states(actions)
            if c_states is None:
                return False
            found = compare_states(o_player.engine, o_states[-1], c_player.engine, c_states[-1])
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
    batch_timeout: float = 30.0
    """Wall-clock seconds the candidate's native games may take together."""


@dataclass
class OracleResult:
    """Findings and numbers of an oracle stage."""

    findings: list[Finding] = field(default_factory=list)
    trajectories: int = 0
    steps: int = 0
    native: int = 0
    """Trajectories played by the candidate alone and screened against the oracle."""
    shrink_tests: int = 0

    def stats(self) -> dict[str, Any]:
        """Numbers for the report."""
        return {
            "trajectories": self.trajectories,
            "steps": self.steps,
            "native_trajectories": self.native,
            "shrink_tests": self.shrink_tests,
            "findings": len(self.findings),
        }


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


def _native_games(cand: Engine[Any], config: OracleConfig, count: int) -> list[Any] | None:
    """``count`` games the candidate plays alone (native loop), or ``None`` if it cannot."""
    if not isinstance(cand, NativePlayouts) or count == 0:
        return None
    try:
        seed = derived_seed(config.seed, "oracle", 0)
        return list(
            cand.playouts(seed, count, config.max_steps, record=True, timeout=config.batch_timeout)
        )
    except EngineFault:
        return None  # the fuzzer reports the fault; fall back to lockstep walks


def _trajectories(
    oracle: Engine[Any], cand: Engine[Any], config: OracleConfig, result: OracleResult
) -> Iterator[Trajectory]:
    """Every trajectory of the stage, lockstep walks and screened native games interleaved."""
    native = _native_games(cand, config, config.runs // 2)
    for run in range(config.runs):
        rng = random.Random(f"{config.seed}:oracle:{run}")
        if run % 2 == 1 and native is not None:
            game = native[run // 2]
            actions = tuple(game.actions or ())
            result.trajectories += 1
            result.steps += len(actions)
            result.native += 1
            if not screen(oracle, actions, game.status, game.returns):
                yield walk(oracle, cand, rng, config.max_steps, True, follow=actions)
            continue
        trajectory = walk(oracle, cand, rng, config.max_steps, from_candidate=run % 2 == 1)
        result.trajectories += 1
        result.steps += len(trajectory.actions)
        yield trajectory


def run_oracle(oracle: Engine[Any], cand: Engine[Any], config: OracleConfig) -> OracleResult:
    """Compare ``cand`` against ``oracle`` along ``config.runs`` seeded trajectories.

    Even runs walk in lockstep with moves drawn from the oracle. Odd runs draw from
    the candidate: when it plays games natively (one round trip for all of them),
    each game is screened against the oracle and walked in lockstep only when the
    screen fails, to find the exact first difference.
    """
    result = OracleResult()
    shortest: dict[tuple[str, frozenset[str]], Trajectory] = {}
    for trajectory in _trajectories(oracle, cand, config, result):
        mismatch = trajectory.mismatch
        if mismatch is None:
            continue
        known = shortest.get(mismatch.signature())
        if known is None or len(trajectory.actions) < len(known.actions):
            shortest[mismatch.signature()] = trajectory
        if config.stop_at_first:
            break
    ordered = sorted(shortest.values(), key=lambda t: len(t.actions))
    for trajectory in ordered[: config.max_findings]:
        result.findings.append(_shrunk_finding(oracle, cand, trajectory, config, result))
    return result


def _shrunk_finding(
    oracle: Engine[Any],
    cand: Engine[Any],
    trajectory: Trajectory,
    config: OracleConfig,
    result: OracleResult,
) -> Finding:
    """The finding of a trajectory's mismatch, with its counterexample shrunk."""
    mismatch = trajectory.mismatch
    assert mismatch is not None
    actions: Sequence[str] = trajectory.actions
    if config.shrink:
        players = (PrefixPlayer(oracle), PrefixPlayer(cand))
        shrunk = shrink(
            actions,
            _shows(players, mismatch.signature()),
            max_tests=config.max_shrink_tests,
            alternatives=engine_alternatives(oracle, players[0]),
            prefix_known=True,
        )
        result.shrink_tests += shrunk.tests
        actions = shrunk.actions
        mismatch = _mismatch_at(oracle, cand, actions) or mismatch
    return _finding(oracle, cand, actions, mismatch, config)


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
