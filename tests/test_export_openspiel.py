"""Corpus games registered as OpenSpiel games: OpenSpiel's own tests and MCTS bot run on them."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from rulebook2game.export.openspiel import register
from rulebook2game.resources import CORPORA_DIR

GAMES = sorted(p.parent.name for p in CORPORA_DIR.glob("*/game.toml"))


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_simulation_passes(game: str) -> None:
    name = register(CORPORA_DIR / game, trust=True)
    assert name == f"r2g_{game}" and name in pyspiel.registered_names()
    loaded = pyspiel.load_game(name)
    assert loaded.num_players() == pyspiel.load_game(game).num_players()
    pyspiel.random_sim_test(loaded, num_sims=5, serialize=False, verbose=False)
    state = loaded.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.observation_tensor(0)) == loaded.observation_tensor_size()
    assert isinstance(state.observation_string(0), str)


def test_hearts_is_registered_with_chance_and_hidden_information() -> None:
    kind = pyspiel.load_game(register(CORPORA_DIR / "hearts", trust=True)).get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_openspiel_mcts_plays_connect_four_against_random() -> None:
    game = pyspiel.load_game(register(CORPORA_DIR / "connect_four", trust=True))
    rng = np.random.RandomState(42)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=200, evaluator=evaluator, random_state=rng)
    wins = 0
    for seat in (0, 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        wins += state.returns()[seat] > 0
    assert wins == 2
