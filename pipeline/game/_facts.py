"""What other libraries must be told about a game up front: chance, hidden
information, the range and sum of returns, the longest game."""

from __future__ import annotations

import random
from dataclasses import dataclass

from rulebook2game.game._game import Game
from rulebook2game.workspace import open_workspace

SAMPLE_GAMES = 200
"""Random games played to measure returns when ``interface.toml`` declares no range."""
FALLBACK_LENGTH = 10_000


@dataclass(frozen=True)
class GameFacts:
    """Static facts about a loaded game."""

    chance: bool
    """Whether chance moves (``[chance]`` in ``interface.toml``, or seen in play)."""
    hidden: bool
    """Whether the pages declare hidden information."""
    min_return: float
    max_return: float
    return_sum: float | None
    """The sum of the returns when it was the same in every sampled game."""
    max_length: int


def game_facts(game: Game, seed: int = 0) -> GameFacts:
    """Facts from ``game.toml``/``interface.toml`` where declared, else from random play."""
    interface = open_workspace(game.directory).interface()
    declared = [
        (inv.min, inv.max)
        for inv in (interface.invariants if interface else ())
        if inv.kind == "returns_range" and inv.min is not None and inv.max is not None
    ]
    chance = bool(interface and interface.chance.actions)
    rng = random.Random(seed)
    sums: set[float] = set()
    low, high, longest = float("inf"), float("-inf"), 0
    bound = game.max_game_length or FALLBACK_LENGTH
    for _ in range(SAMPLE_GAMES):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < bound:
            chance = chance or state.is_chance_node()
            # uniform on purpose (chance too), as fuzzing: explores every outcome
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        returns = state.returns()
        low, high = min(low, *returns), max(high, *returns)
        sums.add(round(sum(returns), 9))
        longest = max(longest, steps)
    if declared:
        low, high = declared[0]
    return GameFacts(
        chance=chance,
        hidden=game.has_hidden_information,
        min_return=float(low),
        max_return=float(high),
        return_sum=sums.pop() if len(sums) == 1 else None,
        max_length=game.max_game_length or 2 * longest,
    )
