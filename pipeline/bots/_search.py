"""``SearchBot``: Monte Carlo tree search with determinization.

Each simulation starts from a *determinization* of the root: the state itself when the
game hides nothing, else a state drawn again from what the bot's seat may see
(:meth:`rulebook2game.game.State.resampled`). One tree is shared by all
determinizations and keyed by actions (information-set MCTS in its single-observer
form): a child is chosen by UCT among the actions legal in the current
determinization, with its availability count in place of the parent's visits. Chance
outcomes are drawn by their odds and get their own children. Rollouts are uniformly
random; returns are scaled to [0, 1] by the smallest and largest seen so far. The
search runs on the in-process build (:mod:`rulebook2game.game`).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook2game.bots._random import RandomBot
from rulebook2game.engine import CHANCE, Engine
from rulebook2game.errors import BadInputError
from rulebook2game.game import Game, InProcessEngine, State, load


@dataclass
class _Node:
    visits: int = 0
    available: int = 0
    totals: list[float] = field(default_factory=list)
    children: dict[int, _Node] = field(default_factory=dict)


@dataclass(frozen=True)
class SearchStats:
    """What the last search did."""

    simulations: int
    seconds: float
    determinized: bool
    """Whether simulations started from states drawn again (hidden information)."""
    searched: bool
    """False when the bot fell back to a random move (see :class:`SearchBot`)."""


class SearchBot:
    """A search bot for any number of players, chance and hidden information.

    Args:
        seconds: think time per move (the search stops at this or ``simulations``).
        simulations: most simulations per move.
        uct_c: exploration constant of UCT (on returns scaled to [0, 1]).
        max_rollout: most random steps in one rollout (then the returns so far count).
        seed: seed of the bot's random generator.
        game: the in-process game to search with when ``step`` is given another engine
            (its states are carried over through ``serialize``). Without it, an rl
            engine's game directory is loaded with :func:`rulebook2game.load`, which
            refuses pages that have not passed ``check`` unless ``trust``.
        trust: load that game even if its pages have not passed ``check``.

    When the pages hide a value that the runtime cannot draw again (anything but
    per-player card sets and hidden arrays), searching would read what the seat cannot
    see; the bot then plays a random legal move and says so in :attr:`last`.
    """

    name = "search"

    def __init__(
        self,
        *,
        seconds: float = 0.5,
        simulations: int = 2000,
        uct_c: float = 1.4,
        max_rollout: int = 1000,
        seed: int = 0,
        game: Game | None = None,
        trust: bool = False,
    ) -> None:
        self.seconds = seconds
        self.simulations = simulations
        self.uct_c = uct_c
        self.max_rollout = max_rollout
        self.game = game
        self.trust = trust
        self._rng = random.Random(seed)
        self._fallback = RandomBot(seed)
        self._low = math.inf
        self._high = -math.inf
        self.last: SearchStats | None = None
        """Statistics of the last :meth:`step`."""

    def step(self, engine_or_game: Engine[Any] | Game, state: Any) -> str:
        """The canonical text of the action chosen for the player to move."""
        game, root = self._root(engine_or_game, state)
        if root.is_chance_node():
            return self._fallback.step(game, root)
        legal = root.legal_actions()
        if len(legal) == 1:
            self.last = SearchStats(0, 0.0, False, True)
            return game.action_to_string(legal[0])
        seat = root.current_player()
        hidden = game.has_hidden_information
        if hidden and root.resampled(seat, 0) is None:
            self.last = SearchStats(0, 0.0, True, False)
            return self._fallback.step(game, root)
        return game.action_to_string(self._search(game, root, seat, hidden))

    def _root(self, engine_or_game: Engine[Any] | Game, state: Any) -> tuple[Game, State]:
        if isinstance(engine_or_game, Game):
            return engine_or_game, state
        if isinstance(engine_or_game, InProcessEngine):
            return engine_or_game.game, state
        if self.game is None:
            build = getattr(engine_or_game, "build", None)
            if build is None:
                raise BadInputError(
                    "SearchBot searches the in-process build: pass game=rulebook2game.load(...)"
                )
            # build/rl-<flavour>-<key>/ inside the game directory
            self.game = load(Path(build.directory).parent.parent, trust=self.trust)
        return self.game, self.game.deserialize(engine_or_game.serialize(state))

    def choose(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> str:
        """The table's bot interface (``rulebook2game.play``): :meth:`step` for ``seat``."""
        return self.step(engine, state)

    def _search(self, game: Game, root: State, seat: int, hidden: bool) -> int:
        tree = _Node(totals=[0.0] * game.num_players)
        started = time.perf_counter()
        deadline = started + self.seconds
        done = 0
        while done < self.simulations and (done < 8 or time.perf_counter() < deadline):
            if hidden:
                sampled = root.resampled(seat, self._rng.getrandbits(62))
                assert sampled is not None
                start = sampled
            else:
                start = root.clone()
            self._simulate(tree, start)
            done += 1
        self.last = SearchStats(done, time.perf_counter() - started, hidden, True)
        legal = root.legal_actions()
        return max(legal, key=lambda a: tree.children[a].visits if a in tree.children else -1)

    def _simulate(self, tree: _Node, state: State) -> None:
        path = [tree]
        movers: list[int] = []
        node = tree
        rng = self._rng
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                ids, odds = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(ids, odds)[0]
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(totals=[0.0] * len(tree.totals))
                    state.apply_action(action)
                    path.append(child)
                    movers.append(player)
                    break
            else:
                legal = state.legal_actions()
                untried = [a for a in legal if a not in node.children]
                for a in legal:
                    if a in node.children:
                        node.children[a].available += 1
                if untried:
                    action = rng.choice(untried)
                    child = node.children[action] = _Node(totals=[0.0] * len(tree.totals))
                    child.available = 1
                    state.apply_action(action)
                    path.append(child)
                    movers.append(player)
                    break
                action = self._select(node, legal, player)
                child = node.children[action]
            state.apply_action(action)
            path.append(child)
            movers.append(player)
            node = child
        returns = self._rollout(state)
        for visited in path:
            visited.visits += 1
            for p, r in enumerate(returns):
                visited.totals[p] += r

    def _select(self, node: _Node, legal: list[int], player: int) -> int:
        span = self._high - self._low if self._high > self._low else 1.0
        best, best_score = legal[0], -math.inf
        for a in legal:
            child = node.children[a]
            mean = (child.totals[player] / child.visits - self._low) / span
            score = mean + self.uct_c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = a, score
        return best

    def _rollout(self, state: State) -> list[float]:
        rng = self._rng
        steps = 0
        while not state.is_terminal() and steps < self.max_rollout:
            # chance by its odds, players uniformly (as the rest of the search)
            state.apply_action(state.random_action(rng))
            steps += 1
        returns = state.returns()
        self._low = min(self._low, *returns)
        self._high = max(self._high, *returns)
        return returns
