"""Two engines walked side by side, and how their views of a position are compared.

At every state both engines are asked: terminal flag, current player, the legal set
(sorted canonical texts) or the chance outcomes with their probabilities, and at the
end the returns. :func:`walk` follows one trajectory until the first difference
(:class:`Mismatch`); :func:`screen` checks, on the oracle alone, a game the candidate
played by itself.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rulebook2game.check.findings import action_name
from rulebook2game.check.invariants import Observation, observe
from rulebook2game.check.stepper import stepper_for
from rulebook2game.engine import CHANCE, Engine, IllegalActionError, draw_chance
from rulebook2game.errors import EngineFault
from rulebook2game.trace import PROBABILITY_TOLERANCE, RETURNS_TOLERANCE

LOPSIDED = 0.99
"""How often a lopsided walk plays its preferred action name."""
LOPSIDED_CHANCE = 0.9
"""How often chance picks its first (or last) outcome in a lopsided-chance walk."""


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


Policy = Callable[[Observation, random.Random], str]
"""How a walk picks the next action from an observation."""


def uniform(obs: Observation, rng: random.Random) -> str:
    """Chance by its probabilities, players uniformly among their legal actions."""
    return draw_chance(obs.chance, rng) if obs.player == CHANCE else rng.choice(obs.legal)


def lopsided(first: bool, strength: float = LOPSIDED) -> Policy:
    """A policy that nearly always plays an action of the first (or last) legal name.

    Uniform walks rarely reach the states a lopsided player reaches: a pig player who
    always holds meets the move limit only this way. Among the names of the legal
    actions (``hold``, ``roll``), the first (or last) in alphabetical order is chosen
    with probability ``strength``; then an action of that name uniformly. Chance
    keeps its own probabilities.
    """

    def policy(obs: Observation, rng: random.Random) -> str:
        if obs.player == CHANCE or rng.random() >= strength:
            return uniform(obs, rng)
        names = sorted({action_name(a) for a in obs.legal})
        chosen = names[0] if first else names[-1]
        return rng.choice([a for a in obs.legal if action_name(a) == chosen])

    return policy


def lopsided_chance(first: bool, strength: float = LOPSIDED_CHANCE) -> Policy:
    """A policy under which chance nearly always picks its first (or last) outcome.

    Uniform deals rarely produce the hands that trigger rare rules (a hearts player
    void in clubs on the first trick); dealing in order does. Players stay uniform;
    the chance outcomes offered, and their probabilities, are still compared.
    """

    def policy(obs: Observation, rng: random.Random) -> str:
        if obs.player != CHANCE or rng.random() >= strength:
            return uniform(obs, rng)
        return obs.chance[0][0] if first else obs.chance[-1][0]

    return policy


@dataclass(frozen=True)
class Trajectory:
    """One lockstep walk: the actions taken and the mismatch that ended it, if any."""

    actions: tuple[str, ...]
    mismatch: Mismatch | None


def fault_mismatch(exc: Exception) -> Mismatch:
    """A fault of the candidate (crash, abort, hang, refused action) as a mismatch."""
    kind = exc.kind if isinstance(exc, EngineFault) else "error"
    message = exc.message if isinstance(exc, EngineFault) else str(exc)
    text = f"engine {kind}: {message}".splitlines()[0]
    return Mismatch("error", "the engine to answer", text, (), text)


class _StepByStep(Exception):
    """The batched walk cannot tell exactly where the candidate failed."""


def walk(
    oracle: Engine[Any],
    cand: Engine[Any],
    rng: random.Random,
    max_steps: int,
    from_candidate: bool,
    follow: Sequence[str] | None = None,
    policy: Policy = uniform,
) -> Trajectory:
    """One lockstep trajectory, stopping at the first mismatch or the end.

    Actions are drawn by ``policy`` with ``rng`` from the oracle's options (the
    candidate's when ``from_candidate``), or taken from ``follow`` while it lasts.

    When the actions do not depend on the candidate (drawn from the oracle, or
    followed) and the candidate can apply a whole sequence at once (``apply_all``:
    one worker round trip), the oracle walks first and the candidate's states along
    the same actions are compared afterwards, step by step: the same trajectory and
    the same first difference, without a round trip per step. A refusal or fault of
    the candidate sends the walk back to stepping one action at a time, which says
    exactly where it happened.
    """
    if hasattr(cand, "apply_all") and (follow is not None or not from_candidate):
        saved = rng.getstate()
        try:
            return _walk_batched(oracle, cand, rng, max_steps, follow, policy)
        except (_StepByStep, EngineFault, IllegalActionError):
            rng.setstate(saved)
    return _walk_stepwise(oracle, cand, rng, max_steps, from_candidate, follow, policy)


def _walk_batched(
    oracle: Engine[Any],
    cand: Engine[Any],
    rng: random.Random,
    max_steps: int,
    follow: Sequence[str] | None,
    policy: Policy,
) -> Trajectory:
    """:func:`walk` with the oracle alone first, then the candidate in one batch."""
    stepper = stepper_for(oracle)
    seen: list[Observation] = []
    actions: list[str] = []
    o_state = oracle.initial()
    for step in range(max_steps + 1):
        o_obs, token = stepper.observe(o_state)
        seen.append(o_obs)
        if o_obs.terminal:
            break
        if follow is not None:
            if step >= len(follow):
                break
            action = follow[step]
        else:
            action = policy(o_obs, rng)
        actions.append(action)
        o_state = stepper.apply(o_state, action, token)
    c_state = cand.initial()
    c_states = [c_state, *cand.apply_all(c_state, actions)]  # type: ignore[attr-defined]
    for step, o_obs in enumerate(seen):
        if step >= len(c_states):
            raise _StepByStep
        found = compare_observations(o_obs, observe(cand, c_states[step]))
        if found is not None or o_obs.terminal:
            return Trajectory(tuple(actions[:step]), found)
    if len(c_states) != len(actions) + 1:
        raise _StepByStep
    return Trajectory(tuple(actions), None)


def _walk_stepwise(
    oracle: Engine[Any],
    cand: Engine[Any],
    rng: random.Random,
    max_steps: int,
    from_candidate: bool,
    follow: Sequence[str] | None,
    policy: Policy,
) -> Trajectory:
    """:func:`walk`, asking both engines at every step."""
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
                action = policy(c_obs if from_candidate else o_obs, rng)
            actions.append(action)
            o_state = stepper.apply(o_state, action, token)
            c_state = cand.apply(c_state, action)
    except (EngineFault, IllegalActionError) as exc:
        return Trajectory(tuple(actions), fault_mismatch(exc))
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
