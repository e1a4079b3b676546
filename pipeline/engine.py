"""The engine contract every target and every reference engine satisfies.

Checks, oracles, bots and benchmarks are written once against :class:`Engine`.
States are opaque values owned by the engine: ``apply`` returns a new state and
never changes the one it was given, so a caller may keep any earlier state
(lockstep comparison and counterexample shrinking rely on this).

Actions are canonical action texts (see :mod:`rulebook2game.actions`).
The chance player is ``CHANCE`` (-1); a terminal state's current player is
``TERMINAL`` (-4, as in OpenSpiel) or whatever the engine reports, callers must
ask ``is_terminal`` first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar, runtime_checkable

from rulebook2game.errors import EngineFault

CHANCE = -1
TERMINAL = -4

S = TypeVar("S")


@runtime_checkable
class Engine(Protocol[S]):
    """A game engine seen through canonical action texts."""

    @property
    def name(self) -> str:
        """A short identifier of the engine (``rl:connect_four``, ``openspiel:pig``)."""
        ...

    @property
    def players(self) -> int:
        """Number of players (not counting chance)."""
        ...

    def initial(self) -> S:
        """The state before the first action (possibly a chance node)."""
        ...

    def current_player(self, state: S) -> int:
        """Player to move, ``CHANCE`` (-1) at a chance node."""
        ...

    def legal_actions(self, state: S) -> list[str]:
        """Sorted canonical texts of the legal actions (empty when terminal)."""
        ...

    def chance_outcomes(self, state: S) -> list[tuple[str, float]]:
        """At a chance node: (action text, probability) sorted by text; else empty."""
        ...

    def apply(self, state: S, action: str) -> S:
        """The state after ``action``; raise ``IllegalActionError`` if it is not legal."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether the game is over."""
        ...

    def returns(self, state: S) -> list[float]:
        """Per-player returns (meaningful at terminal states)."""
        ...

    def serialize(self, state: S) -> str:
        """A text that ``deserialize`` turns back into an equal state."""
        ...

    def deserialize(self, text: str) -> S:
        """Inverse of ``serialize``."""
        ...

    def render(self, state: S) -> str:
        """A human-readable picture of the state."""
        ...


@runtime_checkable
class ObservingEngine(Engine[S], Protocol[S]):
    """An engine that also says what each player may see (hidden information).

    An observation never reveals what ``player`` may not see (another player's hand,
    the undealt deck). Every target engine and the OpenSpiel reference provide it.
    """

    def observation_string(self, state: S, player: int) -> str:
        """What ``player`` sees of ``state``, as text for people."""
        ...

    def observation_tensor(self, state: S, player: int) -> list[float]:
        """What ``player`` sees of ``state``, as floats for learners (fixed length)."""
        ...

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of every observation tensor of the game (the same for all states)."""
        ...

    def clone(self, state: S) -> S:
        """An independent copy of ``state`` (states are values: may return it)."""
        ...


def chance_probabilities(outcomes: Sequence[str], weights: Sequence[int]) -> list[float]:
    """The probability of each chance outcome from the pages' weights (a weight over
    their sum).

    Raises:
        EngineFault: a weight is not positive (an offered outcome must be possible).
    """
    bad = [f"{a} has weight {w}" for a, w in zip(outcomes, weights, strict=True) if w <= 0]
    if bad:
        raise EngineFault("error", f"chance outcome weights must be positive: {', '.join(bad)}")
    total = float(sum(weights))
    return [w / total for w in weights]


def draw_chance(outcomes: Sequence[tuple[str, float]], rng: random.Random) -> str:
    """A chance outcome drawn with its probability."""
    return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]


def random_step(engine: Engine[S], state: S, rng: random.Random) -> str:
    """The uniform random playout's next action: chance by its odds, players uniformly.

    Every random walk of the package (traces, bench, shrinking, lockstep, play) steps
    this way, so one seed gives the same game whichever of them plays it.
    """
    if engine.current_player(state) == CHANCE:
        return draw_chance(engine.chance_outcomes(state), rng)
    return rng.choice(engine.legal_actions(state))


class IllegalActionError(ValueError):
    """``apply`` was given an action that is not legal in the state."""

    def __init__(self, action: str, legal: list[str]) -> None:
        self.action = action
        self.legal = legal
        shown = ", ".join(legal[:8]) + (" ..." if len(legal) > 8 else "")
        super().__init__(f"illegal action {action!r}; legal: [{shown}]")
