"""Every corpus game passes PettingZoo's own API test as an AEC environment."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test

from rulebook2game.export.pettingzoo import aec_env
from rulebook2game.resources import CORPORA_DIR

GAMES = sorted(p.parent.name for p in CORPORA_DIR.glob("*/game.toml"))


# Shimmy declares observation spaces as Box(-inf, inf); PettingZoo's test warns about it.
@pytest.mark.filterwarnings("ignore:Agent's m.* observation space value is:UserWarning")
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test_passes(game: str) -> None:
    env = aec_env(CORPORA_DIR / game, trust=True)
    api_test(env, num_cycles=200)
    env.reset(seed=1)
    agent = env.agent_selection
    assert env.observe(agent).shape == env.observation_space(agent).shape
    assert env.infos[agent]["action_mask"].sum() >= 1
    env.close()
