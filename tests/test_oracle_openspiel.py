"""The OpenSpiel oracle: adapters, trace recording, golden-trace replay, errors."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulebook2game.actions import parse_action
from rulebook2game.check.replay import replay
from rulebook2game.engine import CHANCE, IllegalActionError
from rulebook2game.errors import OracleError
from rulebook2game.oracle import OpenSpielEngine, load_oracle, oracle_names
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.trace import parse_trace, read_trace, record_trace
from rulebook2game.workspace import Interface, open_workspace

GAMES = ["breakthrough", "connect_four", "hearts", "pig", "tic_tac_toe"]


def _engine(game: str) -> OpenSpielEngine:
    engine = load_oracle(f"openspiel:{game}")
    assert isinstance(engine, OpenSpielEngine)
    return engine


def _in_interface(text: str, interface: Interface, chance: bool) -> bool:
    action = parse_action(text)
    spec = interface.action(action.name)
    if spec is None or (action.name in interface.chance.actions) != chance:
        return False
    names = [a.name for a in spec.args]
    if [k for k, _ in action.args] != names:
        return False
    return all(v in arg.domain() for (_, v), arg in zip(action.args, spec.args, strict=True))


@pytest.mark.parametrize("game", GAMES)
def test_adapter_round_trips_along_random_games(game: str) -> None:
    engine = _engine(game)
    interface = open_workspace(CORPORA_DIR / game).interface()
    assert interface is not None
    rng = random.Random(11)
    for _ in range(3):
        state = engine.initial()
        while not engine.is_terminal(state):
            chance = engine.current_player(state) == CHANCE
            mapping = engine.action_map(state)  # raises on two ids with one text
            assert sorted(mapping.values()) == sorted(state.legal_actions())
            for text, action_id in mapping.items():
                assert _in_interface(text, interface, chance), text
                child = engine.apply(state, text)
                assert child.history() == [*state.history(), action_id]
            if chance:
                assert {a for a, _ in engine.chance_outcomes(state)} == set(mapping)
            state = engine.apply(state, rng.choice(sorted(mapping)))


@pytest.mark.parametrize("game", GAMES)
def test_record_trace_is_byte_identical(game: str) -> None:
    # The golden traces themselves re-record from their walks: see test_traces_select.
    engine = _engine(game)
    first = record_trace(engine, game=game, seed=3).to_jsonl()
    assert record_trace(engine, game=game, seed=3).to_jsonl() == first
    assert record_trace(engine, game=game, seed=4).to_jsonl() != first


@pytest.mark.parametrize("game", GAMES)
def test_golden_traces_replay_against_openspiel(game: str) -> None:
    engine = _engine(game)
    paths = sorted((CORPORA_DIR / game / "traces").glob("*.jsonl"))
    assert paths
    for path in paths:
        result = replay(engine, read_trace(path))
        assert result.ok, f"{path.name}: {result.divergence}"


def test_replay_reports_a_tampered_trace() -> None:
    engine = _engine("pig")
    won = [read_trace(p) for p in sorted((CORPORA_DIR / "pig" / "traces").glob("*.jsonl"))]
    trace = next(t for t in won if t.end.returns == (-1.0, 1.0))
    bad = trace.to_jsonl().replace('"returns":[-1.0,1.0]', '"returns":[1.0,-1.0]')
    assert bad != trace.to_jsonl()
    result = replay(engine, parse_trace(bad))
    assert result.divergence is not None and result.divergence.what == "returns"


def test_apply_returns_a_new_state_and_rejects_illegal_text() -> None:
    engine = _engine("connect_four")
    start = engine.initial()
    after = engine.apply(start, "drop(col=3)")
    assert engine.serialize(start) == "" and engine.serialize(after) == "3"
    with pytest.raises(IllegalActionError):
        engine.apply(start, "drop(col=9)")
    copy: Any = engine.deserialize(engine.serialize(after))
    assert engine.legal_actions(copy) == engine.legal_actions(after)
    with pytest.raises(OracleError):
        engine.deserialize("3 x")


@pytest.mark.parametrize(
    "binding",
    [
        "chess",
        "rlc:pig",
        "openspiel:",
        "openspiel:no_such_game",
        "openspiel:pig(players=x)",
        "openspiel:chess",
    ],
)
def test_load_oracle_rejects_bad_bindings(binding: str) -> None:
    with pytest.raises(OracleError):
        load_oracle(binding)


def test_load_oracle_passes_parameters_and_lists_names() -> None:
    engine = load_oracle("openspiel:pig(winscore=10)")
    assert engine.name == "openspiel:pig(winscore=10)" and engine.players == 2
    assert oracle_names() == [f"openspiel:{g}" for g in GAMES]
