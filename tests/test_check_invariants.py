"""Invariants evaluated on the engine protocol's observables."""

from __future__ import annotations

from typing import Any

import pytest
from check_toys import Race

from rulebook2game.check.invariants import (
    KINDS,
    build_invariant,
    check_state,
    invariants_for,
    observe,
)
from rulebook2game.errors import WorkspaceError
from rulebook2game.workspace import Interface, InvariantSpec

INTERFACE = Interface.model_validate(
    {
        "actions": [
            {"name": "add", "args": [{"name": "n", "min": 1, "max": 2}]},
            {"name": "coin", "args": [{"name": "side", "min": 0, "max": 1}]},
        ],
        "chance": {"actions": ["coin"]},
        "invariants": [
            {"name": "zero_sum", "kind": "returns_sum", "value": 0.0},
            {"name": "win_loss", "kind": "returns_range", "min": -1.0, "max": 1.0},
        ],
    }
)


def _violations(engine: Race, states: list[tuple[int, int, bool]]) -> list[str]:
    invs = invariants_for(engine.players, INTERFACE)
    found = [check_state(invs, engine, s) for s in states]
    return [v.invariant for v in found if v is not None]


def test_correct_engine_keeps_every_invariant() -> None:
    engine = Race(target=3)
    states = [(0, -1, False), (0, 0, True), (2, 1, True), (3, 0, True), (4, 1, True)]
    assert _violations(engine, states) == []


def test_returns_sum_catches_non_zero_sum() -> None:
    engine = Race(target=3, wrong_returns=True)
    assert _violations(engine, [(3, 0, True), (4, 0, True)]) == ["zero_sum"]


def test_actions_declared_catches_undeclared_argument() -> None:
    engine = Race(extra_move_at=2)
    v = check_state(invariants_for(2, INTERFACE), engine, (2, 0, True))
    assert v is not None and v.invariant == "actions_declared"
    assert "n=3" in v.message


def test_legal_nonempty_and_player_range() -> None:
    engine = Race(stuck_at=2)
    v = check_state(invariants_for(2, None), engine, (2, 0, True))
    assert v is not None and v.kind == "legal_nonempty"
    v = check_state(invariants_for(2, None), Race(), (1, 5, True))
    assert v is not None and v.kind == "player_in_range"


class _FunRace(Race):
    def call_bool(self, state: Any, fun: str) -> bool:
        assert fun == "counter_small"
        return bool(state[0] < 4)


def test_fun_invariant_calls_the_engine() -> None:
    spec = InvariantSpec(name="small", kind="fun", fun="counter_small")
    invs = [build_invariant(spec, 2, None)]
    engine = _FunRace(target=9)
    assert check_state(invs, engine, (3, 0, True)) is None
    v = check_state(invs, engine, (5, 0, True))
    assert v is not None and "counter_small" in v.message
    # An engine that cannot call functions skips them rather than failing.
    assert check_state(invs, Race(target=9), (5, 0, True)) is None


@pytest.mark.parametrize(
    "spec",
    [
        InvariantSpec(name="x", kind="no_such_kind"),
        InvariantSpec(name="x", kind="fun"),
        InvariantSpec(name="x", kind="returns_range"),
    ],
)
def test_bad_declarations_are_workspace_errors(spec: InvariantSpec) -> None:
    with pytest.raises(WorkspaceError):
        build_invariant(spec, 2, None)


def test_observe_and_kinds() -> None:
    obs = observe(Race(), (0, -1, False))
    assert obs.player == -1 and len(obs.chance) == 2 and not obs.legal
    assert {"returns_sum", "returns_range", "fun", "actions_declared"} <= set(KINDS)
