"""Invariants: properties the fuzzer checks on every step of every playout.

Declared in ``interface.toml``::

    [[invariants]]
    name = "zero_sum"
    kind = "returns_sum"      # sum of the returns at a terminal state
    value = 0.0

    [[invariants]]
    name = "win_loss_draw"
    kind = "returns_range"    # every return at a terminal state within [min, max]
    min = -1.0
    max = 1.0

    [[invariants]]
    name = "cards_conserved"
    kind = "fun"              # an rl function of the pages: fun NAME(Game g) -> Bool
    fun = "cards_conserved"

Kinds evaluated on the engine protocol's observables: ``returns_sum``,
``returns_range``, ``legal_nonempty``, ``player_in_range``, ``chance_distribution``,
``actions_declared``, ``returns_finite``. The last five hold for every game and are
always checked (:func:`default_invariants`); declaring them again is harmless.
``fun`` invariants need an engine that can call a function of the pages
(:class:`FunctionCaller`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, TypeVar, runtime_checkable

from rulebook2game.actions import parse_action
from rulebook2game.engine import CHANCE, TERMINAL, Engine
from rulebook2game.errors import WorkspaceError
from rulebook2game.workspace import Interface, InvariantSpec

S = TypeVar("S")

TOLERANCE = 1e-6
PROBABILITY_TOLERANCE = 1e-6


@runtime_checkable
class FunctionCaller(Protocol):
    """An engine that can evaluate a ``fun NAME(Game g) -> Bool`` of the pages on a state."""

    def call_bool(self, state: Any, fun: str) -> bool:
        """The value of the function on ``state``."""
        ...


@dataclass(frozen=True)
class Observation:
    """What the engine protocol says about one state."""

    player: int
    terminal: bool
    legal: tuple[str, ...]
    chance: tuple[tuple[str, float], ...]
    returns: tuple[float, ...]


def observe(engine: Engine[S], state: S) -> Observation:
    """Ask the engine everything the declarative invariants look at."""
    terminal = engine.is_terminal(state)
    if terminal:
        return Observation(TERMINAL, True, (), (), tuple(engine.returns(state)))
    player = engine.current_player(state)
    if player == CHANCE:
        return Observation(player, False, (), tuple(engine.chance_outcomes(state)), ())
    return Observation(player, False, tuple(engine.legal_actions(state)), (), ())


Check = Callable[[Observation], str | None]


@dataclass(frozen=True)
class Invariant:
    """A named property; ``check`` returns ``None`` when it holds, else why not."""

    name: str
    kind: str
    check: Check
    fun: str | None = None
    """For ``fun`` invariants: the rl function to call (``check`` is then unused)."""


@dataclass(frozen=True)
class Violation:
    """An invariant that did not hold on a state."""

    invariant: str
    kind: str
    message: str


def _returns_sum(spec: InvariantSpec, players: int) -> Check:
    want = spec.value if spec.value is not None else 0.0

    def check(obs: Observation) -> str | None:
        if not obs.terminal:
            return None
        total = math.fsum(obs.returns)
        if abs(total - want) > TOLERANCE:
            return f"returns {list(obs.returns)} sum to {total:g}, expected {want:g}"
        return None

    return check


def _returns_range(spec: InvariantSpec, players: int) -> Check:
    if spec.min is None and spec.max is None and spec.value is None:
        raise WorkspaceError(f"invariant {spec.name!r}: returns_range needs min/max or value")
    low = spec.min if spec.min is not None else -(spec.value or math.inf)
    high = spec.max if spec.max is not None else (spec.value or math.inf)

    def check(obs: Observation) -> str | None:
        if not obs.terminal:
            return None
        bad = [r for r in obs.returns if not low - TOLERANCE <= r <= high + TOLERANCE]
        if bad:
            return f"returns {list(obs.returns)} outside [{low:g}, {high:g}]"
        return None

    return check


def _returns_finite(spec: InvariantSpec, players: int) -> Check:
    def check(obs: Observation) -> str | None:
        if not obs.terminal:
            return None
        if len(obs.returns) != players:
            return f"{len(obs.returns)} returns for {players} players"
        if not all(math.isfinite(r) for r in obs.returns):
            return f"returns {list(obs.returns)} are not all finite"
        return None

    return check


def _legal_nonempty(spec: InvariantSpec, players: int) -> Check:
    def check(obs: Observation) -> str | None:
        if obs.terminal:
            return None
        if obs.player == CHANCE and not obs.chance:
            return "a chance node with no outcome"
        if obs.player != CHANCE and not obs.legal:
            return f"player {obs.player} to move but no legal action (state not terminal)"
        return None

    return check


def _player_in_range(spec: InvariantSpec, players: int) -> Check:
    def check(obs: Observation) -> str | None:
        if obs.terminal or obs.player == CHANCE or 0 <= obs.player < players:
            return None
        return f"current player {obs.player} is neither chance (-1) nor 0..{players - 1}"

    return check


def _chance_distribution(spec: InvariantSpec, players: int) -> Check:
    def check(obs: Observation) -> str | None:
        if not obs.chance:
            return None
        if any(p <= 0 or p > 1 + PROBABILITY_TOLERANCE for _, p in obs.chance):
            return f"chance probabilities not in (0, 1]: {list(obs.chance)[:6]}"
        total = math.fsum(p for _, p in obs.chance)
        if abs(total - 1.0) > PROBABILITY_TOLERANCE * max(1, len(obs.chance)):
            return f"chance probabilities sum to {total:.6f}"
        if len({a for a, _ in obs.chance}) != len(obs.chance):
            return "a chance outcome appears twice"
        return None

    return check


def actions_declared_check(interface: Interface | None) -> Check:
    """Every offered action is declared, with its arguments in their domains, on the right side.

    Chance actions (``[chance] actions``) may only be offered at chance nodes, the
    others only to players. Without an interface this checks nothing.
    """
    if interface is None:
        return lambda obs: None
    chance_names = set(interface.chance.actions)

    @lru_cache(maxsize=65536)
    def problem(text: str, at_chance: bool) -> str | None:
        try:
            action = parse_action(text)
        except ValueError as exc:
            return str(exc)
        spec = interface.action(action.name)
        if spec is None:
            return f"{text} is not declared in interface.toml"
        if (action.name in chance_names) != at_chance:
            side = "a chance node" if at_chance else "a player"
            return f"{text} offered to {side}, contrary to interface.toml"
        declared = [a.name for a in spec.args]
        if [k for k, _ in action.args] != declared:
            return f"{text}: arguments are not ({', '.join(declared)})"
        for arg, (_, value) in zip(spec.args, action.args, strict=True):
            if value not in arg.domain():
                return f"{text}: {arg.name}={value} outside its declared domain"
        return None

    def check(obs: Observation) -> str | None:
        for text in obs.legal:
            found = problem(text, at_chance=False)
            if found:
                return found
        for text, _ in obs.chance:
            found = problem(text, at_chance=True)
            if found:
                return found
        return None

    return check


_BUILDERS: dict[str, Callable[[InvariantSpec, int], Check]] = {
    "returns_sum": _returns_sum,
    "returns_range": _returns_range,
    "returns_finite": _returns_finite,
    "legal_nonempty": _legal_nonempty,
    "player_in_range": _player_in_range,
    "chance_distribution": _chance_distribution,
}
KINDS = (*sorted(_BUILDERS), "actions_declared", "fun")
"""Every invariant kind ``interface.toml`` may declare."""

_DEFAULTS = ("legal_nonempty", "player_in_range", "chance_distribution", "returns_finite")


def build_invariant(spec: InvariantSpec, players: int, interface: Interface | None) -> Invariant:
    """Turn one declaration into an :class:`Invariant`; unknown kinds are a workspace error."""
    if spec.kind == "fun":
        if not spec.fun:
            raise WorkspaceError(f"invariant {spec.name!r}: kind 'fun' needs fun = NAME")
        return Invariant(spec.name, spec.kind, lambda obs: None, fun=spec.fun)
    if spec.kind == "actions_declared":
        return Invariant(spec.name, spec.kind, actions_declared_check(interface))
    builder = _BUILDERS.get(spec.kind)
    if builder is None:
        raise WorkspaceError(
            f"invariant {spec.name!r}: unknown kind {spec.kind!r} (known: {', '.join(KINDS)})"
        )
    return Invariant(spec.name, spec.kind, builder(spec, players))


def default_invariants(players: int, interface: Interface | None) -> list[Invariant]:
    """The invariants every game satisfies, checked whether declared or not."""
    out = [build_invariant(InvariantSpec(name=k, kind=k), players, interface) for k in _DEFAULTS]
    if interface is not None and interface.actions:
        out.append(
            Invariant("actions_declared", "actions_declared", actions_declared_check(interface))
        )
    return out


def invariants_for(players: int, interface: Interface | None) -> list[Invariant]:
    """Default invariants followed by the declared ones (a declared name replaces a default)."""
    declared = [
        build_invariant(spec, players, interface)
        for spec in (interface.invariants if interface else ())
    ]
    names = {inv.kind for inv in declared} | {inv.name for inv in declared}
    defaults = [inv for inv in default_invariants(players, interface) if inv.name not in names]
    return defaults + declared


def check_observation(invariants: Sequence[Invariant], obs: Observation) -> Violation | None:
    """The first declarative invariant that ``obs`` breaks, if any (``fun`` ones skipped)."""
    for inv in invariants:
        if inv.fun is None:
            message = inv.check(obs)
            if message is not None:
                return Violation(inv.name, inv.kind, message)
    return None


def check_state(
    invariants: Sequence[Invariant], engine: Engine[S], state: S, obs: Observation | None = None
) -> Violation | None:
    """The first invariant ``state`` breaks, ``fun`` ones included when the engine can call them."""
    found = check_observation(invariants, obs or observe(engine, state))
    if found is not None:
        return found
    funs = [inv for inv in invariants if inv.fun is not None]
    if funs and isinstance(engine, FunctionCaller):
        for inv in funs:
            assert inv.fun is not None
            if not engine.call_bool(state, inv.fun):
                return Violation(inv.name, inv.kind, f"{inv.fun}(state) returned false")
    return None


def fun_invariants(invariants: Sequence[Invariant]) -> list[str]:
    """Names of the rl functions the ``fun`` invariants call."""
    return [inv.fun for inv in invariants if inv.fun is not None]
