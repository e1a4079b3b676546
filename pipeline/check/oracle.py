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

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulebook2game.check import findings as fk
from rulebook2game.check.findings import HOOKS_OF, Finding, find_location
from rulebook2game.check.lockstep import (
    Mismatch,
    Policy,
    Trajectory,
    compare_observations,
    compare_states,
    fault_mismatch,
    lopsided,
    lopsided_chance,
    screen,
    uniform,
    walk,
)
from rulebook2game.check.native import NativePlayouts, derived_seed
from rulebook2game.check.shrink import (
    DEFAULT_MAX_TESTS,
    PrefixPlayer,
    engine_alternatives,
    shrink,
    trace_of,
)
from rulebook2game.engine import Engine, IllegalActionError
from rulebook2game.errors import EngineFault

__all__ = [
    "Mismatch",
    "OracleConfig",
    "OracleResult",
    "Trajectory",
    "compare_observations",
    "compare_states",
    "run_oracle",
    "screen",
    "walk",
]

HOOKS = HOOKS_OF
KIND_OF = {
    "player": fk.ORACLE_PLAYER,
    "legal": fk.ORACLE_LEGAL,
    "chance": fk.ORACLE_CHANCE,
    "terminal": fk.ORACLE_TERMINAL,
    "returns": fk.ORACLE_RETURNS,
    "error": fk.CRASH,
}


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
            found = fault_mismatch(exc)
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


def _native_games(cand: Engine[Any], config: OracleConfig, count: int) -> list[Any]:
    """``count`` games the candidate plays alone (native loop); empty if it cannot."""
    if not isinstance(cand, NativePlayouts) or count <= 0:
        return []
    try:
        seed = derived_seed(config.seed, "oracle", 0)
        return list(
            cand.playouts(seed, count, config.max_steps, record=True, timeout=config.batch_timeout)
        )
    except EngineFault:
        return []  # the fuzzer reports the fault; fall back to lockstep walks


def _screened(
    oracle: Engine[Any], cand: Engine[Any], game: Any, rng: random.Random, config: OracleConfig
) -> Trajectory | None:
    """A native game that the oracle does not agree with, walked in lockstep; else ``None``."""
    actions = tuple(game.actions or ())
    if screen(oracle, actions, game.status, game.returns):
        return None
    return walk(oracle, cand, rng, config.max_steps, True, follow=actions)


def _policy(run: int) -> Policy:
    """Runs 0 and 2 favour one action name, runs 4 and 6 one chance outcome; others uniform."""
    if run in (0, 2):
        return lopsided(first=run == 0)
    if run in (4, 6):
        return lopsided_chance(first=run == 4)
    return uniform


def _trajectories(
    oracle: Engine[Any], cand: Engine[Any], config: OracleConfig, result: OracleResult
) -> Iterator[Trajectory]:
    """Every trajectory of the stage: lockstep walks and screened native games.

    Even runs walk in lockstep drawing from the oracle (four of them with lopsided
    policies, to reach the states only a one-sided player or a one-sided deal
    reaches: see :func:`_policy`); odd runs draw from the candidate, screening its
    native games.
    """
    native = _native_games(cand, config, config.runs // 2)
    for run in range(config.runs):
        rng = random.Random(f"{config.seed}:oracle:{run}")
        result.trajectories += 1
        if run % 2 == 1 and native:
            game = native[run // 2]
            result.steps += game.length
            result.native += 1
            found = _screened(oracle, cand, game, rng, config)
            if found is not None:
                yield found
            continue
        policy = _policy(run)
        trajectory = walk(oracle, cand, rng, config.max_steps, run % 2 == 1, policy=policy)
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
        return fault_mismatch(exc)
