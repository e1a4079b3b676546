"""One game in progress: its states, the move log, bots, undo, save and load as a trace.

The table owns no front end: the terminal and the web app ask it for the state, the
legal actions and the log, hand it the moves people make, and let it run the chance
steps and the bots' moves (:meth:`Table.advance`) until a person is to move again.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rulebook2game.engine import CHANCE, TERMINAL, Engine, IllegalActionError, draw_chance
from rulebook2game.play.bots import Bot
from rulebook2game.play.resolve import PlayError
from rulebook2game.play.seat_view import hides_something, move_seen_by, seat_view
from rulebook2game.trace import Trace, TraceEnd, TraceHeader, TraceStep

MAX_AUTO_STEPS = 100_000
"""Chance and bot steps :meth:`Table.advance` takes at most before a person's turn."""


@dataclass(frozen=True)
class Move:
    """One step of the log: who moved, what, and what was offered."""

    t: int
    player: int
    """The seat that moved, ``CHANCE`` (-1) for a chance step."""
    action: str
    by: str
    """``human``, ``bot:<kind>``, ``chance``, ``replay`` or ``loaded`` (from a saved game)."""
    legal: tuple[str, ...] | None = None
    chance: tuple[tuple[str, float], ...] | None = None
    notes: tuple[str, ...] = ()
    """The lines the pages logged while applying the move (RulePage's ``log``)."""

    def step(self) -> TraceStep:
        """The move as a trace step."""
        return TraceStep(
            t=self.t, player=self.player, action=self.action, legal=self.legal, chance=self.chance
        )

    def describe(self, seen: bool = True) -> str:
        """``seat 0 (human): mark(row=1, col=1)`` or ``chance: roll(value=4) (p=0.1667)``.

        With ``seen=False`` the action stays hidden (``seat 2 (bot:random) moved``).
        """
        notes = f" · {' · '.join(self.notes)}" if self.notes and seen else ""
        if self.player == CHANCE:
            if not seen:
                return "chance: (hidden)"
            p = dict(self.chance or ()).get(self.action)
            shown = f" (p={p:.4g})" if p is not None else ""
            return f"chance: {self.action}{shown}{notes}"
        if not seen:
            return f"seat {self.player} ({self.by}) moved"
        return f"seat {self.player} ({self.by}): {self.action}{notes}"


class Table:
    """A game between people (``humans``) and bots, with chance sampled by ``seed``.

    Args:
        engine: the game's engine.
        game: the game's name (written into saved traces).
        humans: the seats people play.
        bots: a bot per remaining seat (seats with neither wait for a person too).
        seed: seeds the generator of chance steps and bots.
        bot_names: how each bot is named in the log (default ``bot``).
    """

    def __init__(
        self,
        engine: Engine[Any],
        *,
        game: str,
        humans: set[int],
        bots: dict[int, Bot] | None = None,
        seed: int = 0,
        bot_names: dict[int, str] | None = None,
    ) -> None:
        self.engine = engine
        self.game = game
        self.humans = set(humans)
        self.bots = dict(bots or {})
        self.bot_names = dict(bot_names or {})
        self.seed = seed
        self.rng = random.Random(seed)
        self.states: list[Any] = [engine.initial()]
        self._hidden = hides_something(engine, self.states[0])
        self.moves: list[Move] = []
        self.script: list[str] = []
        """Actions still to be stepped through by :meth:`step_forward` (a replay)."""

    # -- what is on the table -------------------------------------------------------

    @property
    def state(self) -> Any:
        """The current state."""
        return self.states[-1]

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.engine.is_terminal(self.state)

    @property
    def to_move(self) -> int:
        """The seat to move, ``CHANCE`` at a chance step, ``TERMINAL`` when over."""
        return TERMINAL if self.over else self.engine.current_player(self.state)

    def legal(self) -> list[str]:
        """The legal actions of the player to move (empty at chance steps and the end)."""
        if self.over or self.to_move == CHANCE:
            return []
        return self.engine.legal_actions(self.state)

    def view(self, seat: int) -> str:
        """The current state as ``seat`` may see it."""
        return seat_view(self.engine, self.state, seat)

    @property
    def hidden(self) -> bool:
        """Whether the game has shown hidden information (some seat did not see all of a
        state); once true it stays true for the game."""
        return self._hidden

    def seen(self, move: Move, seat: int | None) -> bool:
        """Whether ``seat`` may read ``move``'s action (see :func:`move_seen_by`)."""
        return move_seen_by(move.player, move.action, seat, self.hidden) is not None

    def returns(self) -> list[float] | None:
        """The returns once the game is over."""
        return self.engine.returns(self.state) if self.over else None

    def waiting_for_person(self) -> bool:
        """Whether the game waits for a person (over, or a seat without a bot is to move)."""
        return self.over or (self.to_move != CHANCE and self.to_move not in self.bots)

    # -- moving ---------------------------------------------------------------------

    def play(self, action: str, seat: int | None = None) -> Move:
        """A person's move for ``seat`` (default: whoever is to move, if a person).

        Raises:
            PlayError: the game is over, it is not that seat's turn, or the action is not
                legal.
        """
        if self.over:
            raise PlayError("the game is over (undo to take back a move)")
        mover = self.to_move
        if mover == CHANCE:
            raise PlayError("chance is to move, not a player")
        if seat is not None and seat != mover:
            raise PlayError(f"not your turn: seat {mover} is to move, you play seat {seat}")
        if mover in self.bots:
            raise PlayError(f"seat {mover} is played by a bot")
        return self._push(action, "human")

    def advance(self) -> list[Move]:
        """Take chance steps and bots' moves until a person is to move or the game ends."""
        made: list[Move] = []
        for _ in range(MAX_AUTO_STEPS):
            if self.waiting_for_person():
                break
            mover = self.to_move
            if mover == CHANCE:
                action = draw_chance(self.engine.chance_outcomes(self.state), self.rng)
                made.append(self._push(action, "chance"))
            else:
                action = self.bots[mover].choose(self.engine, self.state, mover, self.rng)
                made.append(self._push(action, f"bot:{self.bot_names.get(mover, 'bot')}"))
        return made

    def undo(self) -> list[Move]:
        """Take back the last person's move and everything after it.

        Raises:
            PlayError: no person has moved yet.
        """
        last = max((i for i, m in enumerate(self.moves) if m.by == "human"), default=None)
        if last is None:
            raise PlayError("nothing to undo: no move of yours yet")
        taken = self.moves[last:]
        del self.moves[last:]
        del self.states[last + 1 :]
        return taken

    def step_forward(self) -> Move:
        """Apply the next action of :attr:`script` whoever is to move (replaying a trace).

        Raises:
            PlayError: the script is finished, or its next action is not legal here.
        """
        if not self.script:
            raise PlayError("the end of the recorded steps")
        action = self.script[0]
        move = self._push(action, "replay")
        self.script.pop(0)
        return move

    def step_back(self) -> Move:
        """Take back the last move, putting it back at the front of :attr:`script`.

        Raises:
            PlayError: no move was made.
        """
        if not self.moves:
            raise PlayError("at the start: no step to take back")
        move = self.moves.pop()
        self.states.pop()
        self.script.insert(0, move.action)
        return move

    def _push(self, action: str, by: str) -> Move:
        state, mover = self.state, self.to_move
        t = len(self.moves)
        if mover == CHANCE:
            outcomes = self.engine.chance_outcomes(state)
            chance: tuple[tuple[str, float], ...] | None = tuple(
                (a, round(p, 6)) for a, p in outcomes
            )
            legal: tuple[str, ...] | None = None
        else:
            chance, legal = None, tuple(self.engine.legal_actions(state))
        try:
            after = self.engine.apply(state, action)
        except IllegalActionError:
            who = "chance" if mover == CHANCE else f"seat {mover}"
            raise PlayError(f"step {t}: {action} is not legal for {who} here") from None
        logged = getattr(self.engine, "log_lines", None)
        notes = tuple(logged(after)) if callable(logged) else ()
        move = Move(
            t=t, player=mover, action=action, by=by, legal=legal, chance=chance, notes=notes
        )
        self.moves.append(move)
        self.states.append(after)
        self._hidden = self._hidden or hides_something(self.engine, after)
        return move

    # -- traces ---------------------------------------------------------------------

    def to_trace(self) -> Trace:
        """The game so far in ``rulebook2game-trace/1`` (a candidate golden trace)."""
        header = TraceHeader(
            game=self.game, players=self.engine.players, source=self.engine.name, seed=self.seed
        )
        returns = self.returns()
        end = TraceEnd(terminal=self.over, returns=tuple(returns) if returns is not None else None)
        return Trace(header, tuple(m.step() for m in self.moves), end)

    def load(self, trace: Trace) -> None:
        """Replace the game by the one ``trace`` records (its moves count as people's).

        Raises:
            PlayError: the trace is of another game, or one of its steps is not legal here.
        """
        if trace.header.game != self.game:
            raise PlayError(f"the trace is a game of {trace.header.game}, not {self.game}")
        if trace.header.players != self.engine.players:
            raise PlayError(
                f"the trace has {trace.header.players} players, the game {self.engine.players}"
            )
        self.states, self.moves, self.script = [self.engine.initial()], [], []
        for step in trace.steps:
            if step.player == CHANCE:
                by = "chance"
            else:
                by = "human" if step.player in self.humans else "loaded"
            if self.to_move != step.player:
                raise PlayError(
                    f"step {step.t}: the trace has seat {step.player} move, "
                    f"the game has {self.to_move}"
                )
            self._push(step.action, by)
