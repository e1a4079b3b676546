"""The rules expression as an automaton over positions of the expression (Glushkov).

The paper's rules index is the position of the last applied action in the indexed
expression Ê; the legal continuations from position ``i`` are the positions that may
follow ``i`` in a word of L(Ê). So the automaton's states are ``0`` (the start) and the
action positions ``1..n``, and a transition into state ``j`` applies action ``j``. Every
pattern ``{? M}`` gets an automaton of its own over M.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from rulebook2game.targets.rbg.model import Action, Alt, Node, Seq, Star


@dataclass(frozen=True)
class Automaton:
    """States ``0..n``: ``actions[j - 1]`` is applied on entering state ``j``."""

    actions: tuple[Action, ...]
    follow: tuple[tuple[int, ...], ...]
    """``follow[q]``: the states that may be entered from state ``q``, in written order."""
    accepting: frozenset[int]
    """States where a word of the expression may end (pattern success)."""
    patterns: dict[int, Automaton]
    """State of a pattern action -> the pattern's own automaton."""

    @property
    def size(self) -> int:
        """Number of states (start included)."""
        return len(self.actions) + 1

    def cyclic(self, directions: dict[str, tuple[int, int]] | None = None) -> frozenset[int]:
        """States on a cycle that applies no modifier, where a search must remember visits.

        A cycle whose shifts all go one way (``up*``, ``(down {e})*``), and that cannot
        go round without shifting, cannot come back to a square on a board without
        cycles along a direction (a rectangle), so its states are left out: the board's
        edge ends the walk. With the board's ``directions`` (name -> (row step, column
        step)) "one way" widens to shifts whose steps all lie in one open half-plane
        (``(up left {e})*``, a diagonal): every turn of such a cycle moves the square
        further along that half-plane's normal, so it never comes back either.
        """
        free = {
            q: [j for j in self.follow[q] if not self.actions[j - 1].modifier]
            for q in range(self.size)
        }
        out: set[int] = set()
        for comp in _components(free):
            if not _loops(comp, free):
                continue
            inner = set(comp)
            shifts = {
                self.actions[j - 1].name
                for q in comp
                for j in free[q]
                if j in inner and self.actions[j - 1].kind == "shift"
            }
            still = {
                q: [j for j in free[q] if j in inner and self.actions[j - 1].kind != "shift"]
                for q in comp
            }
            standing = any(_loops(c, still) for c in _components(still))
            if standing or not _one_way(shifts, directions):
                out.update(comp)
        return frozenset(out)

    def modifier_depth(self) -> int | None:
        """Most modifiers (the final switch not counted) one move can apply, or ``None`` when
        a cycle of the automaton applies a modifier without switching (then only the board
        bounds it, and the search bound applies)."""
        moves = {
            q: [j for j in self.follow[q] if self.actions[j - 1].kind != "switch"]
            for q in range(self.size)
        }
        comps = _components(moves)  # reverse topological order (Tarjan)
        where = {q: k for k, comp in enumerate(comps) for q in comp}
        best = [0] * len(comps)
        for k, comp in enumerate(comps):
            inner = set(comp)
            for q in comp:
                for j in moves[q]:
                    weight = 1 if self.actions[j - 1].modifier else 0
                    if j in inner:
                        if weight and _loops(comp, moves):
                            return None
                        continue
                    best[k] = max(best[k], best[where[j]] + weight)
        return max(best) if best else 0


def _one_way(shifts: set[str], directions: dict[str, tuple[int, int]] | None) -> bool:
    """The shifts named cannot bring a walk back to a square: one direction, or (with
    the board's steps) steps that all lie in one open half-plane (largest angle between
    neighbouring steps above 180 degrees)."""
    if len(shifts) == 1:
        return True
    if directions is None or not shifts or any(d not in directions for d in shifts):
        return False
    steps = {directions[d] for d in shifts}
    if (0, 0) in steps:
        return False
    angles = sorted(math.atan2(r, c) for r, c in steps)
    gaps = [b - a for a, b in itertools.pairwise(angles)]
    gaps.append(angles[0] + 2 * math.pi - angles[-1])
    return max(gaps) > math.pi + 1e-9


def entry_depths(aut: Automaton, starts: list[int], bound: int) -> dict[int, set[int]]:
    """For each state, the numbers of modifiers applied in the move when it is entered
    (searching from ``starts`` at 0, switches ending a move, capped at ``bound``)."""
    seen: dict[int, set[int]] = {q: set() for q in range(aut.size)}
    todo = [(q, 0) for q in starts]
    for q in starts:
        seen[q].add(0)
    while todo:
        q, d = todo.pop()
        for j in aut.follow[q]:
            a = aut.actions[j - 1]
            if a.kind == "switch":
                continue
            nd = d + (1 if a.modifier else 0)
            if nd <= bound and nd not in seen[j]:
                seen[j].add(nd)
                todo.append((j, nd))
    return seen


def _loops(comp: list[int], graph: dict[int, list[int]]) -> bool:
    return len(comp) > 1 or comp[0] in graph[comp[0]]


def _components(graph: dict[int, list[int]]) -> list[list[int]]:
    """Strongly connected components of ``graph``, successors before predecessors."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on: set[int] = set()
    out: list[list[int]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = len(index)
                stack.append(v)
                on.add(v)
            succ = graph[v]
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return out


def build(expr: Node) -> Automaton:
    """The automaton of ``expr`` (patterns inside get their own)."""
    actions: list[Action] = []
    follow: dict[int, list[int]] = {}

    def add(a: Action) -> int:
        actions.append(a)
        follow[len(actions)] = []
        return len(actions)

    def glushkov(node: Node) -> tuple[bool, list[int], list[int]]:
        """(nullable, first, last) of ``node``; fills ``follow``."""
        if isinstance(node, Action):
            p = add(node)
            return False, [p], [p]
        if isinstance(node, Star):
            _, first, last = glushkov(node.item)
            for p in last:
                follow[p].extend(f for f in first if f not in follow[p])
            return True, first, last
        if isinstance(node, Alt):
            nullable, first, last = False, [], []
            for item in node.items:
                n, f, la = glushkov(item)
                nullable = nullable or n
                first += f
                last += la
            return nullable, first, last
        assert isinstance(node, Seq)
        nullable, first, last = True, [], []
        for item in node.items:
            n, f, la = glushkov(item)
            for p in last:
                follow[p].extend(x for x in f if x not in follow[p])
            if nullable:
                first += f
            last = last + la if n else la
            nullable = nullable and n
        return nullable, first, last

    nullable, first, last = glushkov(expr)
    for p, a in enumerate(actions, start=1):
        if a.kind == "on" and not a.pieces:
            follow[p] = []  # `{}` is never valid: nothing follows it (`->> {}` ends play)
    states = [tuple(first)] + [tuple(follow[p]) for p in range(1, len(actions) + 1)]
    accepting = frozenset(last) | (frozenset({0}) if nullable else frozenset())
    patterns = {
        j: build(a.body)
        for j, a in enumerate(actions, start=1)
        if a.kind == "pattern" and a.body is not None
    }
    return Automaton(tuple(actions), tuple(states), accepting, patterns)


def shared_prefixes(aut: Automaton, directions: dict[str, tuple[int, int]]) -> Automaton:
    """``aut`` with alternatives that begin alike tested once (for a pattern, whose
    answer is only whether some word matches: ``up {p} up {p} up {p} + up {p} down {p}``
    tests ``up {p}`` once). Two states entered from the same state by the same shift or
    on, each entered from nowhere else, become one state followed by what followed
    either; the words accepted stay the same, their order does not."""

    def key(j: int) -> tuple[str, object] | None:
        a = aut.actions[j - 1]
        if a.kind == "shift" and a.name in directions:
            return ("shift", directions[a.name])
        if a.kind == "on":
            return ("on", a.pieces)
        return None

    follow = [list(f) for f in aut.follow]
    accepting = set(aut.accepting)
    preds = [0] * aut.size
    for q in range(aut.size):
        for j in follow[q]:
            preds[j] += 1
    todo = list(range(aut.size))
    while todo:
        q = todo.pop()
        kept: dict[tuple[str, object], int] = {}
        out: list[int] = []
        for j in follow[q]:
            k = key(j)
            first = kept.get(k) if k is not None and preds[j] == 1 and j != q else None
            if first is None:
                if k is not None and preds[j] == 1 and j != q:
                    kept[k] = j
                out.append(j)
                continue
            # j joins `first`: what follows j follows `first`
            for x in follow[j]:
                if x in follow[first]:
                    preds[x] -= 1
                else:
                    follow[first].append(x)
            if j in accepting:
                accepting.add(first)
            follow[j] = []
            preds[j] = 0
            todo.append(first)
        follow[q] = out
    # keep the states still reachable, renumbered in their order
    live = [0]
    seen = {0}
    for q in live:
        for j in follow[q]:
            if j not in seen:
                seen.add(j)
                live.append(j)
    order = sorted(live)
    number = {q: n for n, q in enumerate(order)}
    return Automaton(
        tuple(aut.actions[q - 1] for q in order[1:]),
        tuple(tuple(number[j] for j in follow[q]) for q in order),
        frozenset(number[q] for q in accepting if q in number),
        {number[q]: inner for q, inner in aut.patterns.items() if q in number},
    )
