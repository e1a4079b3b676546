"""A checked game as a PettingZoo AEC environment.

The game is registered with OpenSpiel (:func:`rulebook2game.export.openspiel.register`)
and converted by Shimmy's OpenSpiel compatibility wrapper, a well-kept conversion
library of the Farama Foundation: agents ``player_0`` ... ``player_N``, discrete
actions (the game's action ids) with an ``action_mask`` in each agent's ``infos``,
observations the engine's observation tensor, chance
resolved by the wrapper. Needs the ``play`` extra (``pip install 'rulebook2game[play]'``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyspiel

from rulebook2game.errors import BadInputError
from rulebook2game.export.openspiel import register


def aec_env(game_dir: str | Path, *, trust: bool = False, render_mode: str | None = None) -> Any:
    """A PettingZoo AEC environment of a game directory.

    ``trust`` is passed to :func:`rulebook2game.load` (which refuses games that have
    not passed ``check``).

    Raises:
        BadInputError: Shimmy / PettingZoo are not installed.
    """
    try:
        from shimmy import OpenSpielCompatibilityV0
    except ImportError:
        raise BadInputError(
            "the PettingZoo environment needs the play extra: pip install 'rulebook2game[play]'"
        ) from None
    name = register(game_dir, trust=trust)
    return OpenSpielCompatibilityV0(env=pyspiel.load_game(name), render_mode=render_mode)
