"""Candidate games for golden traces: seeded walks of a reference engine under several policies.

Uniform random play reaches the common endings; the rare ones need one-sided play.
The policies are those of the oracle stage (:mod:`rulebook2game.check.lockstep`:
``uniform``, ``lopsided`` by action name, ``lopsided_chance``) plus one per seat,
:func:`seat_high`, under which one seat nearly always plays its last legal action
(in canonical order: the highest card, the rightmost column) and the others their
first. In trick-taking games that seat wins most tricks, which is how a hearts
player takes every point (shoots the moon); in race games it is a reckless player.

A walk is recorded in the ``rulebook2game-trace/1`` format with legal sets and
chance outcomes, exactly as :func:`rulebook2game.trace.record_trace` records one.
The header's ``seed`` is the walk's seed; policy and seed name the walk
(:class:`WalkSpec`), so the same spec always gives the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rulebook2game.check.invariants import Observation
from rulebook2game.check.lockstep import Policy, lopsided, lopsided_chance, uniform
from rulebook2game.check.stepper import stepper_for
from rulebook2game.engine import CHANCE, Engine
from rulebook2game.trace import Trace, TraceEnd, TraceHeader, TraceStep

SEAT_STRENGTH = 0.9
"""How often the favoured seat plays its last legal action (the others their first)."""


def seat_high(seat: int, strength: float = SEAT_STRENGTH) -> Policy:
    """``seat`` nearly always plays its last legal action, every other seat its first.

    Chance keeps its own probabilities. With probability ``1 - strength`` a player
    plays uniformly instead, so walks under the same policy differ.
    """

    def policy(obs: Observation, rng: random.Random) -> str:
        if obs.player == CHANCE or rng.random() >= strength:
            return uniform(obs, rng)
        return obs.legal[-1] if obs.player == seat else obs.legal[0]

    return policy


def policy_names(players: int) -> tuple[str, ...]:
    """Every policy name, in the order candidates cycle through them."""
    fixed = ("uniform", "prefer_first", "prefer_last", "chance_first", "chance_last")
    return fixed + tuple(f"seat{p}_high" for p in range(players))


def policy_named(name: str) -> Policy:
    """The policy of a name from :func:`policy_names`; ``KeyError`` for an unknown one."""
    fixed: dict[str, Policy] = {
        "uniform": uniform,
        "prefer_first": lopsided(first=True),
        "prefer_last": lopsided(first=False),
        "chance_first": lopsided_chance(first=True),
        "chance_last": lopsided_chance(first=False),
    }
    if name in fixed:
        return fixed[name]
    if name.startswith("seat") and name.endswith("_high") and name[4:-5].isdigit():
        return seat_high(int(name[4:-5]))
    raise KeyError(name)


@dataclass(frozen=True)
class WalkSpec:
    """Which walk: a policy name and a seed (together they give the same trace every time)."""

    policy: str
    seed: int

    @property
    def label(self) -> str:
        """A file-name-safe name, e.g. ``seat2_high-0041``."""
        return f"{self.policy}-{self.seed:04d}"


def record_walk(
    engine: Engine[Any], spec: WalkSpec, *, game: str, max_steps: int = 10_000
) -> Trace:
    """Play one game of ``engine`` under ``spec`` and record it (legal sets, chance outcomes)."""
    rng = random.Random(f"{spec.policy}:{spec.seed}")
    policy = policy_named(spec.policy)
    stepper = stepper_for(engine)
    state = engine.initial()
    steps: list[TraceStep] = []
    terminal = False
    returns: tuple[float, ...] | None = None
    for t in range(max_steps + 1):
        obs, token = stepper.observe(state)
        if obs.terminal:
            terminal, returns = True, tuple(obs.returns)
            break
        if t == max_steps:
            break
        action = policy(obs, rng)
        if obs.player == CHANCE:
            rounded = tuple((a, round(p, 6)) for a, p in obs.chance)
            steps.append(TraceStep(t=t, player=obs.player, action=action, chance=rounded))
        else:
            steps.append(TraceStep(t=t, player=obs.player, action=action, legal=obs.legal))
        state = stepper.apply(state, action, token)
    header = TraceHeader(game=game, players=engine.players, source=engine.name, seed=spec.seed)
    return Trace(header, tuple(steps), TraceEnd(terminal=terminal, returns=returns))


def walk_specs(players: int, count: int) -> Iterator[WalkSpec]:
    """``count`` walk specs, cycling through every policy (seeds 0, 1, ... per policy)."""
    names = policy_names(players)
    for i in range(count):
        yield WalkSpec(names[i % len(names)], i // len(names))
