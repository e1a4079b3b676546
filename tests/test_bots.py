"""Bots play every corpus game to the end, through the in-process API and the engine contract."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import rulebook2game
from rulebook2game.bots import ISMCTSBot, RandomBot, SearchBot
from rulebook2game.check.report import write_report
from rulebook2game.check.run import ALL_STAGES, run_check
from rulebook2game.errors import NotCheckedError
from rulebook2game.game import InProcessEngine
from rulebook2game.play.bots import make_bot
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.workspace import open_workspace

GAMES = sorted(p.parent.name for p in CORPORA_DIR.glob("*/game.toml"))


@pytest.mark.parametrize("name", GAMES)
def test_search_and_random_bots_finish_a_game(name: str) -> None:
    game = rulebook2game.load(CORPORA_DIR / name, trust=True)
    search = SearchBot(seconds=0.05, simulations=60, seed=1)
    chance = RandomBot(seed=2)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        bot = chance if state.is_chance_node() or state.current_player() != 0 else search
        action = bot.step(game, state)
        assert action in state.legal_action_texts()
        state.apply(action)
        steps += 1
    assert steps > 0 and search.last is not None and search.last.searched


def test_hearts_search_draws_hidden_cards_again_and_keeps_its_own() -> None:
    game = rulebook2game.load(CORPORA_DIR / "hearts", trust=True)
    state = game.new_initial_state()
    bot = RandomBot(seed=4)
    while state.is_chance_node() or len(state.legal_actions()) == 1:
        state.apply(bot.step(game, state))
    seat = state.current_player()
    drawn = [state.resampled(seat, seed) for seed in range(5)]
    assert all(d is not None for d in drawn)
    mine = state.observation_string(seat)
    assert all(d.observation_string(seat) == mine for d in drawn if d is not None)
    assert len({d.render() for d in drawn if d is not None}) > 1
    search = SearchBot(seconds=0.05, simulations=40)
    assert search.step(game, state) in state.legal_action_texts()
    assert search.last is not None and search.last.determinized


def test_bots_speak_the_engine_contract_too() -> None:
    game = rulebook2game.load(CORPORA_DIR / "tic_tac_toe", trust=True)
    engine = InProcessEngine(game)
    state = engine.initial()
    assert SearchBot(simulations=30).step(engine, state) in engine.legal_actions(state)
    with RlEngine.from_workspace(open_workspace(CORPORA_DIR / "tic_tac_toe")) as rl:
        start = rl.initial()
        assert RandomBot().step(rl, start) in rl.legal_actions(start)
        searched = SearchBot(simulations=30, game=game).step(rl, start)
        assert searched in rl.legal_actions(start)
        assert SearchBot(simulations=30, trust=True).choose(rl, start, 0, random.Random(0)) in (
            rl.legal_actions(start)
        )
    with pytest.raises(rulebook2game.BadInputError, match="game="):
        SearchBot().step(_NoBuild(), None)


class _NoBuild:
    """An engine that is neither in-process nor an rl build."""

    def serialize(self, state: object) -> str:
        return ""


def test_the_table_offers_the_search_bot_for_checked_games(tmp_path: Path) -> None:
    root = tmp_path / "tic_tac_toe"
    shutil.copytree(CORPORA_DIR / "tic_tac_toe", root, ignore=shutil.ignore_patterns("reports"))
    bot = make_bot("search")
    with RlEngine.from_workspace(open_workspace(root)) as rl:
        start = rl.initial()
        with pytest.raises(NotCheckedError):
            bot.choose(rl, start, 0, random.Random(0))
        ws = open_workspace(root)
        write_report(run_check(ws, ALL_STAGES, options={"fuzz": 20, "oracle": 2}), ws.reports_dir)
        assert make_bot("search").choose(rl, start, 0, random.Random(0)) in rl.legal_actions(start)


def _hearts_decision(seed: int) -> tuple[rulebook2game.Game, rulebook2game.State]:
    game = rulebook2game.load(CORPORA_DIR / "hearts", trust=True)
    state = game.new_initial_state()
    bot = RandomBot(seed=seed)
    while state.is_chance_node() or len(state.legal_actions()) == 1:
        state.apply(bot.step(game, state))
    return game, state


def test_a_drawn_state_depends_on_what_the_seat_sees_not_on_who_holds_what() -> None:
    _, state = _hearts_decision(4)
    seat = state.current_player()
    other = state.resampled(seat, 99)  # the same view, the others' cards dealt anew
    assert other is not None and other.render() != state.render()
    for seed in range(3):
        a, b = state.resampled(seat, seed), other.resampled(seat, seed)
        assert a is not None and b is not None and a.render() == b.render()


def test_ismcts_plays_hearts_from_what_its_seat_sees() -> None:
    game, state = _hearts_decision(4)
    seat = state.current_player()
    other = state.resampled(seat, 99)
    assert other is not None
    first = ISMCTSBot(simulations=30, seed=5, trust=True).step(game, state)
    second = ISMCTSBot(simulations=30, seed=5, trust=True).step(game, other)
    assert first in state.legal_action_texts()
    assert first == second  # the other seats' true cards changed nothing it decided
    bot = ISMCTSBot(simulations=30, seed=5, trust=True)
    assert bot.step(game, state) == first and bot.last is not None and bot.last.searched
    assert make_bot("ismcts").__class__ is ISMCTSBot


def _table_legal(game: rulebook2game.Game, state: rulebook2game.State) -> list[int]:
    """The legal actions found by testing every entry of the action table."""
    native = game._native
    table = native.call("r2g_table_legal", state._g, native.all)
    return list(table._data[: int(table._size)])


@pytest.mark.parametrize("corpus", ["hearts", "rulepage/hearts"])
def test_a_drawn_hearts_state_lists_its_new_cards(corpus: str) -> None:
    # hearts' candidate slots read lists of the undealt cards and of each hand, kept by
    # the pages; a drawn state deals the hidden cards anew, and the pages make the lists
    # again (`r2g_rebuild`; RulePage's `rebuild:`): its legal sets are the table's, to
    # the end of the game
    game = rulebook2game.load(CORPORA_DIR / corpus, trust=True)
    rng = random.Random(7)
    for stop in (20, 60, 75, 90):  # mid-deal, passing, first tricks, later tricks
        state = game.new_initial_state()
        for _ in range(stop):
            state.apply_action(rng.choice(state.legal_actions()))
        seat = max(state.current_player(), 0)
        drawn = state.resampled(seat, stop)
        assert drawn is not None and drawn.render() != state.render()
        while not drawn.is_terminal():
            legal = drawn.legal_actions()
            assert legal == _table_legal(game, drawn)
            drawn.apply_action(rng.choice(legal))
