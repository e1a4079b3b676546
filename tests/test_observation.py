"""What each player may see: observations of the rl engine and of the OpenSpiel reference."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rulebook2game.engine import ObservingEngine
from rulebook2game.oracle.registry import load_oracle
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.base import compile_and_start
from rulebook2game.targets.rl.engine import RlEngine, RlState
from rulebook2game.workspace import open_workspace

GAMES = sorted(p.parent.name for p in CORPORA_DIR.glob("*/game.toml"))
CARD = "23456789TJQKA"


@pytest.fixture(scope="module")
def hearts() -> Iterator[RlEngine]:
    with RlEngine.from_workspace(open_workspace(CORPORA_DIR / "hearts"), optimized=True) as e:
        yield e


def _walk(engine: RlEngine, steps: int, seed: int) -> RlState:
    rng = random.Random(seed)
    state = engine.initial()
    for _ in range(steps):
        if engine.is_terminal(state):
            break
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return state


def _hand_line(text: str, player: int) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"player {player} "))


def test_a_hearts_player_sees_only_their_own_hand(hearts: RlEngine) -> None:
    state = _walk(hearts, 60, seed=3)  # dealt, passing under way
    full = hearts.render(state)
    for p in range(4):
        seen = hearts.observation_string(state, p)
        for q in range(4):
            line = _hand_line(seen, q)
            if q == p:
                assert line == _hand_line(full, q) and len(line.split(":")[1].split()) > 0
            else:
                assert line.split(":")[1].strip() == ""


def test_hearts_tensors_have_a_fixed_size_and_differ_by_seat(hearts: RlEngine) -> None:
    (size,) = hearts.observation_tensor_shape
    assert size > 52
    state = _walk(hearts, 80, seed=5)
    tensors = [hearts.observation_tensor(state, p) for p in range(4)]
    assert all(len(t) == size for t in tensors)
    assert len({tuple(t) for t in tensors}) == 4
    start = hearts.initial()
    assert len({tuple(hearts.observation_tensor(start, p)) for p in range(4)}) == 1


def test_a_bad_seat_is_refused(hearts: RlEngine) -> None:
    with pytest.raises(Exception, match="no player"):
        hearts.observation_string(hearts.initial(), 7)


@pytest.mark.parametrize("game", GAMES)
def test_every_corpus_game_and_its_oracle_observe(game: str) -> None:
    ws = open_workspace(CORPORA_DIR / game)
    oracle = load_oracle(str(ws.config().oracle))
    assert isinstance(oracle, ObservingEngine)
    with RlEngine.from_workspace(ws, optimized=True) as engine:
        assert isinstance(engine, ObservingEngine)
        state, ref = engine.initial(), oracle.initial()
        rng = random.Random(1)
        for _ in range(12):
            if engine.is_terminal(state):
                break
            action = rng.choice(engine.legal_actions(state))
            state, ref = engine.apply(state, action), oracle.apply(ref, action)
        for p in range(engine.players):
            assert len(engine.observation_tensor(state, p)) == engine.observation_tensor_shape[0]
            assert len(oracle.observation_tensor(ref, p)) == oracle.observation_tensor_shape[0]
            assert isinstance(engine.observation_string(state, p), str)
            assert oracle.observation_string(ref, p)


@pytest.mark.parametrize("game", ["breakthrough", "rulepage/breakthrough"])
def test_a_breakthrough_observation_depends_on_the_position_alone(game: str) -> None:
    # The piece lists behind the candidate slots are ordered by the moves played (a
    # capture moves the last piece of a list into the captured one's place). They are
    # hidden, so a state whose lists are made again from its squares alone (rebuild)
    # differs inside but gives every player the same observation tensor.
    ws = open_workspace(CORPORA_DIR / game)
    with compile_and_start(ws, optimized=True) as made:
        engine = made.engine
        assert isinstance(engine, RlEngine), made.error
        reordered = 0
        for seed in range(12):
            state = _walk(engine, 50, seed)
            rebuilt = engine.rebuild(state)
            if engine.serialize(rebuilt) == engine.serialize(state):
                continue  # no capture changed the lists' order in this game
            reordered += 1
            for p in range(2):
                assert engine.observation_tensor(state, p) == engine.observation_tensor(rebuilt, p)
        assert reordered >= 3
