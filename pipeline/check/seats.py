"""Seats: does the engine seat the players the way ``interface.toml`` names them?

A rulebook says "Player 1 (Black)" or "White moves first"; engines number seats from
0. ``[seats]`` in ``interface.toml`` ties the two (``names`` in engine order, ``first``
the seat that makes the first decision). This check asserts, on the compiled engine:

- one seat per name (and as many as ``game.toml``'s ``players``);
- from the opening, with every chance step taking its first outcome, the first seat
  asked to decide is ``first``.

A mismatch is a finding naming both seats, e.g. "interface.toml says 0 (Black) moves
first; the pages ask 1 (White) first": the classic swapped-seats translation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulebook2game.check.findings import ORACLE_PLAYER, SEATS, Finding
from rulebook2game.engine import CHANCE, Engine
from rulebook2game.errors import Rulebook2GameError
from rulebook2game.workspace import GameConfig, Interface

OPENING_STEPS = 10_000
"""Chance steps followed from the opening before a first decision must have come."""


def first_decision(engine: Engine[Any]) -> tuple[int | None, tuple[str, ...]]:
    """The first seat asked to decide (``None``: the game ended first) and the chance
    outcomes played to get there (each chance step's first outcome)."""
    state = engine.initial()
    played: list[str] = []
    for _ in range(OPENING_STEPS):
        if engine.is_terminal(state):
            return None, tuple(played)
        player = engine.current_player(state)
        if player != CHANCE:
            return player, tuple(played)
        outcomes = engine.chance_outcomes(state)
        if not outcomes:  # chance to move with nothing to draw: stuck (the fuzz says so)
            return None, tuple(played)
        outcome = outcomes[0][0]
        played.append(outcome)
        state = engine.apply(state, outcome)
    return None, tuple(played)


def seat_findings(
    engine: Engine[Any], interface: Interface | None, config: GameConfig
) -> list[Finding]:
    """Findings where the engine's seats differ from ``interface.toml``'s ``[seats]``."""
    seats = interface.seats if interface is not None else None
    if seats is None:
        return []
    named = len(seats.names)
    if named != engine.players or named != config.players:
        message = (
            f"interface.toml names {named} seats ({', '.join(seats.names)}); the engine has "
            f"{engine.players} players and game.toml {config.players}"
        )
        found = Finding(
            SEATS,
            "seats",
            message,
            expected=str(named),
            actual=str(engine.players),
            functions=("get_num_players",),
        )
        return [found]
    if seats.first is None:
        return []
    want = seats.names.index(seats.first)
    try:
        got, played = first_decision(engine)
    except Rulebook2GameError as exc:
        return [Finding(SEATS, "seats", f"the opening could not be played: {exc}")]
    if got == want:
        return []
    shown = (
        "the game ends before anyone decides"
        if got is None
        else f"the pages ask {seats.label(got)} first"
    )
    opening = f" (after the chance outcomes {', '.join(played)})" if played else ""
    message = f"interface.toml says {seats.label(want)} moves first; {shown}{opening}"
    return [
        Finding(
            SEATS,
            "seats",
            message,
            step=len(played),
            expected=seats.label(want),
            actual="none" if got is None else seats.label(got),
            actions=played,
            functions=("get_current_player",),
        )
    ]


def _label(value: str, interface: Interface) -> str:
    seats = interface.seats
    if seats is None or not value.strip().isdigit():
        return value
    return seats.label(int(value))


def name_seats(findings: list[Finding], interface: Interface | None) -> list[Finding]:
    """Findings about who is to move, with seat numbers written as ``1 (White)``."""
    if interface is None or interface.seats is None:
        return findings
    return [
        replace(f, expected=_label(f.expected, interface), actual=_label(f.actual, interface))
        if f.kind == ORACLE_PLAYER
        else f
        for f in findings
    ]
