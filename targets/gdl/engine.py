"""A grounded GDL description as an :class:`~rulebook2game.engine.Engine`.

Players are the roles in seat order (``gdl.toml``'s ``roles``, else the order of the
``role`` facts); GDL-II's ``random`` role is the chance player, its legal moves the
chance outcomes, each equally likely. GDL has every role move at every step; the
turn-taking games of the interface have one mover, so in each state the *current player*
is the one role with a move other than a declared ``noop``, and applying its action
makes every other role play its only (noop) move. A state where two roles have real
moves (a simultaneous game), a role without any legal move, a legal move ``gdl.toml``
does not map, or a terminal state without exactly one goal value per role is an
:class:`~rulebook2game.errors.EngineFault`, which the checks report as a finding at that
position.

The description is data, not code: it runs in this process. What could hurt the process
is a grounding that blows up, and the compile grounds it first in a child process under a
time and memory bound (:mod:`~rulebook2game.targets.gdl.probe`). Once grounded, each
state is answered by the compiled propositional network
(:mod:`~rulebook2game.targets.gdl.propnet`, two sweeps in C), or, where no C compiler
is at hand, by clingo (one propagation of a stratified program per question, no search).

States are frozensets of fluent indices (values; ``apply`` returns a new one). Answers
are cached per state.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulebook2game.engine import CHANCE, TERMINAL, IllegalActionError
from rulebook2game.errors import EngineFault
from rulebook2game.targets.gdl.checks import CHANCE_ROLE
from rulebook2game.targets.gdl.kif import KifError, parse_terms
from rulebook2game.targets.gdl.moves import MoveMap
from rulebook2game.targets.gdl.reasoner import GroundingError, Reasoner, StateAnswer

if TYPE_CHECKING:
    from rulebook2game.targets.gdl.compile import GdlBuild

GdlState = frozenset[int]


@dataclass(frozen=True)
class PlayoutTotals:
    """Totals of a batch of random games in the compiled network."""

    count: int
    steps: int
    seconds: float
    cpu_seconds: float
    statuses: dict[str, int]


_CACHE = 200_000


@dataclass(frozen=True)
class _Info:
    player: int
    """Seat to move, or ``TERMINAL``."""
    actions: dict[str, int]
    """Canonical text -> index of the mover's GDL move."""
    passes: tuple[int, ...]
    """Per seat, the move index it plays when it is not the mover (``-1`` for the mover)."""
    returns: tuple[float, ...]


class GdlEngine:
    """A GDL game (a :class:`GdlBuild`, or a program with its move map)."""

    def __init__(self, reasoner: Reasoner, moves: MoveMap, *, name: str) -> None:
        self.reasoner = reasoner
        self.moves = moves
        self._name = name
        self._info: dict[GdlState, _Info] = {}
        self._next: dict[tuple[GdlState, str], GdlState] = {}
        self._texts: dict[int, str | None] = {}
        roles = reasoner.roles
        self._chance = roles.index(CHANCE_ROLE) if CHANCE_ROLE in roles else None

    @classmethod
    def from_build(cls, build: GdlBuild, *, game: str) -> GdlEngine:
        """Ground ``build``'s program (it passed the compile's bounded probe) and start."""
        names = json.loads(build.names.read_text(encoding="utf-8"))
        moves = build.move_map()
        try:
            reasoner = Reasoner(
                build.program.read_text(encoding="utf-8"),
                names,
                build.roles,
                noop=moves.noop,
                cache=build.directory,
            )
        except GroundingError as exc:
            raise EngineFault("error", str(exc)) from None
        return cls(reasoner, moves, name=f"gdl:{game}")

    @property
    def native_note(self) -> str:
        """What ``bench``'s native row measures for this engine."""
        return (
            "the native row is the GDL propositional network's own loop (C), "
            f"not an rl build ({self.reasoner.propnet_note})"
        )

    @property
    def backend(self) -> str:
        """``propnet`` (the compiled network) or ``clingo`` (a solve per question)."""
        return "propnet" if self.reasoner.propnet is not None else "clingo"

    def playout_stats(
        self, seed: int, count: int, max_steps: int = 10_000, *, timeout: float | None = None
    ) -> PlayoutTotals:
        """Totals of ``count`` seeded random games played inside the compiled network.

        The bench's native loop. A game whose state has no single mover ends as
        ``stuck`` (the step-by-step engine reports it as a fault).

        Raises:
            EngineFault: the network could not be built (no C compiler).
        """
        net = self.reasoner.propnet
        if net is None:
            raise EngineFault("error", f"no compiled network: {self.reasoner.propnet_note}")
        wall, cpu = time.perf_counter(), time.process_time()
        games, steps, terminal, truncated, stuck = net.playouts(seed, count, max_steps)
        return PlayoutTotals(
            games,
            steps,
            time.perf_counter() - wall,
            time.process_time() - cpu,
            {"terminal": terminal, "truncated": truncated, "stuck": stuck},
        )

    @property
    def name(self) -> str:
        """``gdl:<game>``."""
        return self._name

    @property
    def players(self) -> int:
        """The number of roles (GDL-II's ``random`` role is chance, not a player)."""
        return len(self.reasoner.roles) - (self._chance is not None)

    def close(self) -> None:
        """Nothing to stop: the engine runs in this process."""

    # -- the contract ------------------------------------------------------------

    def initial(self) -> GdlState:
        """The state ``init`` describes."""
        return self.reasoner.initial

    def _fault(self, state: GdlState, message: str) -> EngineFault:
        return EngineFault("error", f"{message} (state: {self.serialize(state)})")

    def _answer(self, state: GdlState) -> StateAnswer:
        try:
            return self.reasoner.query(state)
        except GroundingError as exc:
            raise self._fault(state, str(exc)) from None

    def info(self, state: GdlState) -> _Info:
        """What the engine reports about ``state`` (cached)."""
        found = self._info.get(state)
        if found is not None:
            return found
        answer = self._answer(state)
        r = self.reasoner
        roles = r.roles
        if answer.terminal:
            returns: list[float] = []
            for seat, goals in enumerate(answer.goals):
                if seat == self._chance:
                    continue
                if len(set(goals)) != 1:
                    shown = sorted(set(goals)) or "none"
                    raise self._fault(
                        state,
                        f"terminal state gives role {roles[seat]} goal values {shown} "
                        "(exactly one is required)",
                    )
                returns.append(self.moves.scale(goals[0]))
            info = _Info(TERMINAL, {}, (), tuple(returns))
        else:
            movers: list[int] = []
            passes: list[int] = []
            for seat, legal in enumerate(answer.legal):
                if not legal:
                    raise self._fault(state, f"role {roles[seat]} has no legal move")
                texts = [r.move_text[i] for i in legal]
                if len(legal) == 1 and texts[0] in self.moves.noop:
                    passes.append(legal[0])
                else:
                    movers.append(seat)
                    passes.append(-1)
            if len(movers) != 1:
                who = ", ".join(roles[s] for s in movers) or "no role"
                raise self._fault(
                    state,
                    f"{who} can move here: the interface needs exactly one mover "
                    "(simultaneous moves are not supported; a waiting role plays a noop)",
                )
            seat = movers[0]
            actions: dict[str, int] = {}
            for index in answer.legal[seat]:
                move = r.move_text[index]
                text = self._action_text(index)
                if text is None:
                    raise self._fault(
                        state,
                        f"the legal move {move} of role {roles[seat]} matches no "
                        "[[moves]] row of gdl.toml",
                    )
                if text in actions:
                    raise self._fault(
                        state, f"moves {r.move_text[actions[text]]} and {move} both map to {text}"
                    )
                actions[text] = index
            player = CHANCE if seat == self._chance else seat
            info = _Info(player, actions, tuple(passes), ())
        if len(self._info) >= _CACHE:
            self._info.clear()
            self._next.clear()
        self._info[state] = info
        return info

    def _action_text(self, index: int) -> str | None:
        """The canonical text of move ``index`` (``gdl.toml`` rows matched once per move)."""
        if index not in self._texts:
            seat = self.reasoner.moves[index][0]
            move = self.reasoner.move_text[index]
            self._texts[index] = self.moves.action(self.reasoner.roles[seat], move)
        return self._texts[index]

    def current_player(self, state: GdlState) -> int:
        """The one role with a real move (``CHANCE`` for ``random``), or ``TERMINAL``."""
        return self.info(state).player

    def legal_actions(self, state: GdlState) -> list[str]:
        """The mover's legal moves as canonical texts, sorted."""
        return sorted(self.info(state).actions)

    def chance_outcomes(self, state: GdlState) -> list[tuple[str, float]]:
        """When GDL-II's ``random`` role moves: its legal moves, each equally likely."""
        info = self.info(state)
        if info.player != CHANCE or not info.actions:
            return []
        p = 1.0 / len(info.actions)
        return [(text, p) for text in sorted(info.actions)]

    def apply(self, state: GdlState, action: str) -> GdlState:
        """The state ``next`` gives after the mover's ``action`` and everyone else's noop."""
        key = (state, action)
        found = self._next.get(key)
        if found is not None:
            return found
        info = self.info(state)
        index = info.actions.get(action)
        if index is None:
            raise IllegalActionError(action, sorted(info.actions))
        joint = tuple(index if p < 0 else p for p in info.passes)
        try:
            after = self.reasoner.transition(state, joint)
        except GroundingError as exc:
            raise self._fault(state, str(exc)) from None
        self._next[key] = after
        return after

    def is_terminal(self, state: GdlState) -> bool:
        """Whether ``terminal`` holds."""
        return self.info(state).player == TERMINAL

    def returns(self, state: GdlState) -> list[float]:
        """Each role's goal value, scaled as ``gdl.toml`` (or the interface) declares."""
        info = self.info(state)
        if info.player != TERMINAL:
            return [0.0] * self.players
        return list(info.returns)

    def serialize(self, state: GdlState) -> str:
        """The true propositions in KIF, sorted: ``(cell 1 1 b) (control x)``."""
        texts = self.reasoner.fluent_text
        return " ".join(sorted(texts[i] for i in state))

    def deserialize(self, text: str) -> GdlState:
        """Inverse of :meth:`serialize` (``ValueError`` for a proposition the game lacks)."""
        index = {t: i for i, t in enumerate(self.reasoner.fluent_text)}
        try:
            terms = [str(t) for t in parse_terms(text, "<state>")]
        except KifError as exc:
            raise ValueError(f"not a GDL state: {exc}") from None
        out: set[int] = set()
        for term in terms:
            found = index.get(term)
            if found is None:
                raise ValueError(f"not a proposition of this game: {term}")
            out.add(found)
        return frozenset(out)

    def render(self, state: GdlState) -> str:
        """The true propositions, one per line."""
        texts = self.reasoner.fluent_text
        return "\n".join(sorted(texts[i] for i in state))

    # -- what a player sees (GDL is perfect information) ---------------------------

    def observation_string(self, state: GdlState, player: int) -> str:
        """Every player sees the whole state."""
        return self.render(state)

    def observation_tensor(self, state: GdlState, player: int) -> list[float]:
        """One float per proposition of the game: 1.0 when it holds."""
        return [1.0 if i in state else 0.0 for i in range(len(self.reasoner.fluent_text))]

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        """``(number of propositions,)``."""
        return (len(self.reasoner.fluent_text),)

    def clone(self, state: GdlState) -> GdlState:
        """States are values."""
        return state
