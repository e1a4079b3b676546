"""Candidate slots for an RBG game: where a player's moves begin, found from the rules alone.

A player's search often starts with a walk that only moves the square and tests the
board's shape (``(up* + down*) (left* + right*)``, ``up* {! up} (left* + right*)``):
no modifier, no look at the pieces. Then the squares the walk can stop at, and the
states the search enters there (the *frontier*: ``{b}`` of breakthrough, ``{e}`` of
connect four), are the same whatever the board holds, and every move found goes
through exactly one of those squares when the squares where a move's first modifier
can fall are disjoint between two frontier squares (then no move is found from two of
them). The moves of the whole search are then the union of the searches from each
frontier square alone, and a search from one square is cheap.

The runtime's candidate slots (targets/rl/reference.md, "Candidate slots") use this:
slot ``k`` is the ``k mod M``-th move found from frontier square ``k / M``, where ``M``
bounds the actions one square's moves can map to. Both the squares and ``M`` come from
walking the automaton over the board's geometry with every test on the pieces taken
as passing (so the squares reached, and the moves, are a superset of any position's);
``M`` counts the distinct actions the mapping gives those moves. This module decides
that plan, or that a game has none (it then lists its moves).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from rulebook2game.targets.rbg.automaton import Automaton
from rulebook2game.targets.rbg.model import KEEPER

EXPLORE_LIMIT = 200_000
"""Most configurations the geometric walk of the moves may visit before giving up."""
PER_SQUARE_LIMIT = 8
"""Most slots per square. Slots pay when most of an occupied square's slots hold a move:
the loop draws among all of them, and each draw on a new square searches it. Chess's
queen squares bound 41 moves a square, most slots stay empty, and its playouts ran at
half the listing's speed (evals/reports/2026-11-28-rbg-speed-3.md); with at most 8,
breakthrough (3) and connect four (1) run 2-4x faster."""


@dataclass(frozen=True)
class SlotPlan:
    """The slots of the searches that start at player switch ``start``: squares
    ``first + i * step`` for ``i < count``, at each of which the search enters the
    states ``targets`` (in this order), and at most ``per_square`` actions per square."""

    start: int
    targets: tuple[int, ...]
    first: int
    step: int
    count: int
    per_square: int

    @property
    def slots(self) -> int:
        """Slots in all."""
        return self.count * self.per_square


Move = tuple[tuple[int, int], ...]
"""A move as (state of the modifier, square) pairs, its switch last."""


class _Board:
    def __init__(self, width: int, cells: int, directions: dict[str, tuple[int, int]]) -> None:
        self.width, self.cells, self.directions = width, cells, directions
        self.height = cells // width

    def shift(self, pos: int, direction: str) -> int | None:
        dr, dc = self.directions[direction]
        r, c = divmod(pos, self.width)
        r, c = r + dr, c + dc
        if not (0 <= r < self.height and 0 <= c < self.width):
            return None
        return r * self.width + c


def _geometric(aut: Automaton) -> bool:
    """Whether a pattern looks only at the board's shape (shifts, and such patterns)."""
    return all(
        a.kind == "shift" or (a.kind == "pattern" and _geometric(aut.patterns[j]))
        for j, a in enumerate(aut.actions, start=1)
    )


def _matches(aut: Automaton, board: _Board, pos: int) -> bool:
    """Whether a geometric pattern matches at ``pos``."""
    seen = {(0, pos)}
    todo = [(0, pos)]
    while todo:
        q, p = todo.pop()
        if q in aut.accepting:
            return True
        for j in aut.follow[q]:
            a = aut.actions[j - 1]
            nxt: int | None = p
            if a.kind == "shift":
                nxt = board.shift(p, a.name)
            elif _matches(aut.patterns[j], board, p) != a.positive:
                nxt = None
            if nxt is not None and (j, nxt) not in seen:
                seen.add((j, nxt))
                todo.append((j, nxt))
    return False


def _walk(aut: Automaton, board: _Board, start: int, pos: int) -> frozenset[tuple[int, int]]:
    """The (state, square) pairs the search from ``start`` at ``pos`` enters first by an
    action that is not a shift or a geometric pattern (the frontier)."""
    seen = {(start, pos)}
    todo = [(start, pos)]
    out: set[tuple[int, int]] = set()
    while todo:
        q, p = todo.pop()
        for j in aut.follow[q]:
            a = aut.actions[j - 1]
            if a.kind == "shift":
                nxt = board.shift(p, a.name)
            elif a.kind == "pattern" and _geometric(aut.patterns[j]):
                nxt = p if _matches(aut.patterns[j], board, p) == a.positive else None
            else:
                out.add((j, p))
                continue
            if nxt is not None and (j, nxt) not in seen:
                seen.add((j, nxt))
                todo.append((j, nxt))
    return frozenset(out)


class _TooMany(Exception):
    pass


def _moves(
    aut: Automaton, board: _Board, targets: tuple[int, ...], pos: int, depth: int
) -> set[Move]:
    """Every move the search could find from frontier square ``pos`` on some board:
    each test of the pieces or variables taken as passing."""
    found: set[Move] = set()
    seen: set[tuple[int, int, Move]] = set()
    todo: list[tuple[int, int, Move]] = []

    def enter(j: int, p: int, mods: Move) -> None:
        a = aut.actions[j - 1]
        if a.kind == "shift":
            nxt = board.shift(p, a.name)
            if nxt is None:
                return
            p = nxt
        elif a.kind == "on" and not a.pieces:
            return
        elif a.kind == "pattern" and _geometric(aut.patterns[j]):
            if _matches(aut.patterns[j], board, p) != a.positive:
                return
        elif a.kind in ("off", "assign"):
            if len(mods) >= depth:
                raise _TooMany  # the search would stop there (a fault of the rules)
            mods = (*mods, (j, p))
        elif a.kind == "switch":
            found.add((*mods, (j, p)))
            return
        key = (j, p, mods)
        if key not in seen:
            if len(seen) >= EXPLORE_LIMIT:
                raise _TooMany
            seen.add(key)
            todo.append(key)

    for j in targets:
        enter(j, pos, ())
    while todo:
        q, p, mods = todo.pop()
        for j in aut.follow[q]:
            enter(j, p, mods)
    return found


def plan(
    aut: Automaton,
    width: int,
    cells: int,
    directions: dict[str, tuple[int, int]],
    depth: int | None,
    action_of: Callable[[Move], Hashable],
    table: int,
) -> dict[int, SlotPlan] | None:
    """The slots of every player's search, or None when some player's search does not
    fit them. ``depth`` is the rules' exact bound on a move's modifiers (None: the rules
    have none, and no plan is made); ``action_of`` maps a move to its action (any value
    that stands for "no action", distinct per move, where the mapping faults); ``table``
    is the number of actions, which the runtime's slots may not outnumber."""
    if depth is None:
        return None
    board = _Board(width, cells, directions)
    starts = [
        j for j, a in enumerate(aut.actions, start=1) if a.kind == "switch" and a.name != KEEPER
    ]
    plans: dict[int, SlotPlan] = {}
    explored = 0
    for start in starts:
        frontier = {_walk(aut, board, start, p) for p in range(cells)}
        if len(frontier) != 1:
            return None  # where the walk stops depends on where it starts
        pairs = next(iter(frontier))
        squares = sorted({p for _, p in pairs})
        if not squares:
            return None
        targets = {p: tuple(sorted(j for j, x in pairs if x == p)) for p in squares}
        if len(set(targets.values())) != 1:
            return None
        step = squares[1] - squares[0] if len(squares) > 1 else 1
        if squares != list(range(squares[0], squares[0] + step * len(squares), step)):
            return None
        owner: dict[int, int] = {}
        most = 1
        for p in squares:
            try:
                moves = _moves(aut, board, targets[p], p, depth)
            except _TooMany:
                return None
            explored += len(moves)
            if explored > EXPLORE_LIMIT:
                return None
            for m in moves:
                if owner.setdefault(m[0][1], p) != p:
                    return None  # a move could be found from two squares
            most = max(most, len({action_of(m) for m in moves}))
            if most > PER_SQUARE_LIMIT:
                return None
        plans[start] = SlotPlan(start, targets[squares[0]], squares[0], step, len(squares), most)
        if plans[start].slots > table:
            return None
    return plans or None
