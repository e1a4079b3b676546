"""Lower a checked RBG description to one rl program (the search compiled, per state).

The program keeps the paper's game state: the board (one piece per square), the
variables, the current player, the rules index (a state of the automaton of
:mod:`.automaton`) and the current square. Legal moves are found by a depth-first
search over the automaton from the rules index, one generated function per automaton
state: a transition applies its action (a shift moves the square, an on or comparison
or pattern tests, an off or assignment modifies and is undone on the way back), and a
switch ends a move. Between two modifiers the semi-state changes only by its square, so
a state already entered at a square since the last modifier is not searched again; the
modifiers of one move are bounded (:data:`DEFAULT_DEPTH`, or the exact bound when the
automaton has no modifier on a cycle), and exceeding the bound is a fault at the rules.

Some shapes are compiled more cheaply, finding the same moves: a state on a cycle of
shifts and tests back to itself (``left*``, ``(down {e})*``) loops along the squares
instead of calling itself once per square, in one pass where the order of the moves
does not matter (patterns, and states searched only for a player: only the keeper
takes the first move found), and running what follows at the last square alone when
that is ``{! X}`` of the cycle's own X (``up* {! up}``); a pattern's alternatives that
begin alike test that beginning once; a switch whose moves all apply the same number
of modifiers gets its own found function, whose action reads fixed modifier slots
(and which asks nothing of the keeper, or maps no action, when only a player's, or
only the keeper's, searches reach it); offs keep piece counts only when an expression
reads them; a search stamps the action slots it fills by a rising base instead of
clearing them; and a mapping argument whose expression cannot leave its bounds on any
square is not range-tested.

Each move found is mapped to an interface action by ``rbg.toml`` (:mod:`.mapping`), kept
with its modifiers, and listed for the runtime's playout loop (``r2g_moves``), so no
action table is ever tested. Where :mod:`.slots` finds that every player's search begins
with a walk over the board's shape alone, the moves are candidate slots instead
(``r2g_candidate_slots``/``r2g_candidate_at``): a slot searches from one square of the
walk's end, whether the player can move is a search square by square until one has a
move, and the whole list is searched only when an action outside the last square's
moves is asked about. When the walk's end is a test of the pieces (``{b}``, ``{e}``), the
squares that pass it are kept listed in the state (updated as moves are applied, in
the order they came; rebuilt in square order when a state is parsed) and only theirs
are slots. The state's text then holds the semi-state alone, since what
was searched lazily must not change it. After a move the keeper moves (its first move, repeatedly)
until a player is to move or nobody can: the play ends when the mover has no move.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable
from dataclasses import dataclass

from rulebook2game.targets.rbg.automaton import Automaton, build, entry_depths, shared_prefixes
from rulebook2game.targets.rbg.mapping import Mapping, index_of
from rulebook2game.targets.rbg.model import KEEPER, Action, Arith, Description
from rulebook2game.targets.rbg.slots import EXPLORE_LIMIT, Move, SlotPlan, plan
from rulebook2game.targets.rbg.syntax import RbgProblem, Span
from rulebook2game.targets.rulepage.sourcemap import Emitter, Origin, SourceMap
from rulebook2game.workspace import ArgSpec, Interface

DEFAULT_DEPTH = 64
"""Most modifiers one move may apply when the rules do not bound it themselves."""
KEEPER_BOUND = 10_000
FLAT_LIMIT = 400
"""Most tests a pattern written out as nested tests (:meth:`_Lowering.flat`) may hold."""
"""Most keeper moves in a row."""
SEEN_ARRAY = 4096
"""Largest visit table kept in a fixed array of the search context (larger: a vector)."""


def _bounds(arg: ArgSpec) -> tuple[int, int]:
    """An argument's inclusive range (the compile step refuses arguments without one)."""
    return arg.min or 0, arg.max or 0


_REL = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


@dataclass(frozen=True)
class Lowered:
    """The generated program, its source map, and facts for reports."""

    source: str
    source_map: SourceMap
    states: int
    """States of the rules automaton."""
    depth: int
    """The bound on modifiers per move the search uses."""
    bounded_by_rules: bool
    """True when ``depth`` is the rules' own exact bound."""


class _Lowering:
    def __init__(self, desc: Description, interface: Interface, mapping: Mapping) -> None:
        self.d = desc
        self.interface = interface
        self.mapping = mapping
        self.rules = build(desc.rules)
        first = next(iter(desc.spans.values()))
        self.o = Emitter(Origin(first.file, first.line))
        self.piece = {p: i for i, p in enumerate(desc.pieces)}
        self.var = {v: i for i, v in enumerate(desc.variables)}
        self.player = {p: i for i, p in enumerate(desc.players)}
        self.keeper = len(desc.players)
        b = desc.board
        self.width, self.cells = b.width, b.width * b.height
        exact = self.rules.modifier_depth()
        self.bounded = exact is not None
        self.depth = max(exact, 1) if exact is not None else DEFAULT_DEPTH
        self.offsets: dict[str, int] = {}
        total = 0
        for spec in interface.actions:
            self.offsets[spec.name] = total
            size = 1
            for a in spec.args:
                lo, hi = _bounds(a)
                size *= hi - lo + 1
            total += size
        self.actions = max(total, 1)
        self.patterns: list[Automaton] = []
        self.simple: set[int] = set()
        """Patterns written as straight tests (no search context)."""
        self.flats: set[int] = set()
        """Patterns written as nested tests (no search context, a cache still)."""
        self.cached: set[int] = set()
        """Patterns tested by the rules' own search, through a one-entry cache each."""
        self.rules_at = desc.spans["rules"]
        self.in_place = False
        """No state is searched for both the keeper and a player: every keeper search
        stops at its first move, so that move is kept as applied by the search itself
        (its modifiers left in place, its switch made where it is found) instead of being
        written down and replayed."""
        self.keeper_only, self.player_only = self._searched_for()
        self.counted = False
        """Some expression counts pieces: every off keeps ``g.counts`` up to date (else
        the counts are left at their start values, read by nothing)."""
        self.static_depth = self._static_depth()
        self.slots: dict[int, SlotPlan] = (
            plan(
                self.rules,
                self.width,
                self.cells,
                desc.board.directions,
                exact,
                self.action_of,
                self.actions,
            )
            or {}
        )
        """Player switch -> the candidate slots of the searches starting there (every
        player's, or none: the game then lists its moves, ``r2g_moves``)."""
        self.groups: list[tuple[SlotPlan, frozenset[str]]] = []
        """Squares kept listed in the state: those of a plan's squares whose piece is one
        of the pieces (the plans whose frontier states are all on-tests)."""
        self.group_of: dict[int, int] = {}
        for q, sp in sorted(self.slots.items()):
            acts = [self.rules.actions[j - 1] for j in sp.targets]
            if not all(a.kind == "on" for a in acts):
                continue
            pieces = frozenset().union(*(a.pieces for a in acts))
            key = (sp.first, sp.step, sp.count, pieces)
            for k, (other, ps) in enumerate(self.groups):
                if (other.first, other.step, other.count, ps) == key:
                    self.group_of[q] = k
                    break
            else:
                self.group_of[q] = len(self.groups)
                self.groups.append((sp, pieces))
        self.most_moves = max((sp.slots for sp in self.slots.values()), default=self.actions)
        """Most moves one search finds: one per action, and with slots at most one per
        slot (every move lies in one slot, and the slots number at most the actions). A
        playout copies the state, arrays sized for this included, once per game."""
        self.room = self._room()
        self.big = self.room > SEEN_ARRAY
        """The moves found are kept in vectors, grown as needed, instead of arrays sized for
        every action (a state of chess would otherwise hold some 56,000 integers)."""

    def _static_depth(self) -> dict[int, int]:
        """The switches every move ending at which applies the same number of modifiers
        before it (rules with an exact bound only: otherwise the search's cap hides
        deeper moves)."""
        if not self.bounded:
            return {}
        aut = self.rules
        starts = [0] + [j for j, a in enumerate(aut.actions, start=1) if a.kind == "switch"]
        depths = entry_depths(aut, starts, self.depth)
        at: dict[int, set[int]] = {}
        for q in range(aut.size):
            for j in aut.follow[q]:
                if aut.actions[j - 1].kind == "switch":
                    at.setdefault(j, set()).update(depths[q])
        return {j: next(iter(ds)) for j, ds in at.items() if len(ds) == 1}

    def action_of(self, move: Move) -> Hashable:
        """The action index the mapping gives ``move`` (its (state, square) modifiers,
        the switch last), or the move itself where the mapping would fault."""
        specs = {a.name: a for a in self.interface.actions}

        def value(node: ast.expr) -> int:
            if isinstance(node, ast.Constant):
                assert type(node.value) is int  # the mapping's check allows integers only
                return node.value
            if isinstance(node, ast.Name):
                return len(move)
            if isinstance(node, ast.UnaryOp):
                return -value(node.operand)
            if isinstance(node, ast.BinOp):
                a, b = value(node.left), value(node.right)
                if isinstance(node.op, ast.Add):
                    return a + b
                return a - b if isinstance(node.op, ast.Sub) else a * b
            if isinstance(node, ast.BoolOp):
                parts = [value(v) != 0 for v in node.values]
                return int(all(parts) if isinstance(node.op, ast.And) else any(parts))
            if isinstance(node, ast.Compare):
                left, holds = value(node.left), True
                for cmp, right_node in zip(node.ops, node.comparators, strict=True):
                    right = value(right_node)
                    holds = (
                        holds
                        and {
                            ast.Eq: left == right,
                            ast.NotEq: left != right,
                            ast.Lt: left < right,
                            ast.LtE: left <= right,
                            ast.Gt: left > right,
                            ast.GtE: left >= right,
                        }[type(cmp)]
                    )
                    left = right
                return int(holds)
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            i = index_of(node.args[0])
            k = i if i >= 0 else len(move) + i
            if not 0 <= k < len(move):
                raise ValueError("no such modifier")
            state, square = move[k]
            if node.func.id == "piece":
                act = self.rules.actions[state - 1]
                return self.piece[act.name] if act.kind == "off" else -1
            return square // self.width if node.func.id == "row" else square % self.width

        try:
            for rule in self.mapping.moves:
                if rule.when is not None and not value(rule.when):
                    continue
                spec = specs[rule.action]
                index = self.offsets[rule.action]
                stride = 1
                for (_, expr), arg in reversed(list(zip(rule.args, spec.args, strict=True))):
                    lo, hi = _bounds(arg)
                    v = value(expr)
                    if not lo <= v <= hi:
                        return move
                    index += (v - lo) * stride
                    stride *= hi - lo + 1
                return index
        except ValueError:
            return move
        return move

    def _room(self) -> int:
        """Modifiers the moves found by one search may hold: :attr:`most_moves` moves,
        each of at most the player's depth plus its switch, and one keeper move."""
        starts = [0] + [
            j
            for j, a in enumerate(self.rules.actions, start=1)
            if a.kind == "switch" and a.name != KEEPER
        ]
        reach = entry_depths(self.rules, starts, self.depth)
        player_depth = max((max(d) for d in reach.values() if d), default=0)
        return self.most_moves * (player_depth + 1) + self.depth + 1

    def got(self, field: str, index: str, owner: str = "g") -> str:
        """Reading ``index`` of the moves' ``field`` (node, pos, acts, first)."""
        if self.big:
            return f"{owner}.moves.{field}.get({index})"
        return f"{owner}.moves.{field}[{index}]"

    def put(self, indent: str, field: str, index: str, value: str) -> None:
        """Writing ``value`` at ``index`` of the moves' ``field``."""
        if self.big:
            self.o.line(f"{indent}r2gb_vput(g.moves.{field}, {index}, {value})")
        else:
            self.o.line(f"{indent}g.moves.{field}[{index}] = {value}")

    def _searched_for(self) -> tuple[frozenset[int], frozenset[int]]:
        """States of the rules searched only for the keeper (reached from the start or a
        keeper switch, never from a player's switch, before the next switch), and those
        searched only for a player (where the order moves are found in does not matter:
        only the keeper takes the first move found)."""
        aut = self.rules

        def reach(starts: list[int]) -> set[int]:
            seen = set(starts)
            todo = list(starts)
            while todo:
                q = todo.pop()
                for j in aut.follow[q]:
                    if aut.actions[j - 1].kind != "switch" and j not in seen:
                        seen.add(j)
                        todo.append(j)
            return seen

        switches = [(j, a.name) for j, a in enumerate(aut.actions, start=1) if a.kind == "switch"]
        keeper = reach([0] + [j for j, name in switches if name == KEEPER])
        player = reach([j for j, name in switches if name != KEEPER])
        self.in_place = not keeper & player
        return frozenset(keeper - player), frozenset(player - keeper)

    # -- helpers --------------------------------------------------------------------------

    def at(self, span: Span) -> Origin:
        return Origin(span.file, span.line, 0)

    def arith(self, e: Arith, where: Span) -> str:
        if e.op == "int":
            return str(e.value)
        if e.op == "name":
            name = str(e.value)
            if name in self.var:
                return f"g.vars[{self.var[name]}]"
            self.counted = True
            return f"g.counts[{self.piece[name]}]"
        assert e.left is not None and e.right is not None
        left, right = self.arith(e.left, where), self.arith(e.right, where)
        if e.op == "/":
            return f"r2gb_div({left}, {right})"
        return f"({left} {e.op} {right})"

    def on_test(self, pieces: frozenset[str], p: str) -> str:
        inside = sorted(self.piece[p] for p in pieces)
        if not inside:
            return "false"
        outside = [i for i in range(len(self.d.pieces)) if i not in inside]
        if not outside:
            return "true"
        if len(inside) <= len(outside):
            return " or ".join(f"{p} == {i}" for i in inside)
        return " and ".join(f"{p} != {i}" for i in outside)

    def step(self, direction: str) -> tuple[str, str]:
        """(condition on ``pos``, the new square) of a shift."""
        dr, dc = self.d.board.directions[direction]
        w, n = self.width, self.cells
        conds = []
        if dr < 0:
            conds.append(f"pos >= {w}")
        if dr > 0:
            conds.append(f"pos < {n - w}")
        if dc < 0:
            conds.append(f"pos % {w} != 0")
        if dc > 0:
            conds.append(f"pos % {w} != {w - 1}")
        delta = dr * w + dc
        new = f"pos + {delta}" if delta >= 0 else f"pos - {-delta}"
        return " and ".join(conds) or "true", new

    # -- the search -----------------------------------------------------------------------

    def layout(
        self, aut: Automaton, starts: list[int], bound: int
    ) -> tuple[dict[int, dict[int, int]], int]:
        """Where each cyclic state's visit marks live, per entry depth, and the table size."""
        depths = entry_depths(aut, starts, bound)
        bases: dict[int, dict[int, int]] = {}
        size = 0
        for q in sorted(aut.cyclic(self.d.board.directions)):
            bases[q] = {}
            for d in sorted(depths[q]):
                bases[q][d] = size
                size += self.cells
        return bases, size

    def emit_ctx(self, name: str, bound: int, size: int, bounded: bool) -> None:
        """The search context type ``name`` and its ``r2gb_push``."""
        o = self.o
        o.line(f"cls {name}:")
        o.line("    Int depth")
        o.line(f"    Int[{bound + 1}] pnode")
        o.line(f"    Int[{bound + 1}] ppos")
        o.line(f"    Int[{bound + 2}] stamp")
        o.line("    Int counter")
        if size <= SEEN_ARRAY:
            o.line(f"    Int[{max(size, 1)}] seen")
        else:
            o.line("    Vector<Int> seen")
        o.line("")
        how = (
            "the rules allow"
            if bounded
            else f"the search allows ({DEFAULT_DEPTH}; the rules repeat a modifier under a star)"
        )
        o.line(f"fun r2g_write({name} obj, Int observer, Vector<Float> out, Int index):")
        o.line("    return")
        o.line("")
        o.line(f"fun r2g_size({name} obj) -> Int:")
        o.line("    return 0")
        o.line("")
        o.line(f"fun r2gb_push({name} c, Int node, Int pos):", self.at(self.rules_at))
        o.line(
            f'    assert(c.depth < {bound}, "a move applies more modifiers before its switch '
            f'than {how}")'
        )
        o.line("    c.pnode[c.depth] = node")
        o.line("    c.ppos[c.depth] = pos")
        o.line("    c.depth = c.depth + 1")
        o.line("    c.counter = c.counter + 1")
        o.line("    c.stamp[c.depth] = c.counter")
        o.line("")

    def ctx_init(self, field: str, size: int) -> None:
        """Start a search with the state's own context ``g.{field}`` (kept between searches,
        so its visit table is never cleared: marks carry a fresh stamp)."""
        o = self.o
        o.line(f"    ref c = g.{field}")
        o.line("    c.depth = 0")
        o.line("    c.counter = c.counter + 1")
        o.line("    c.stamp[0] = c.counter")
        if size > SEEN_ARRAY:
            o.line("    if c.seen.size() == 0:")
            o.line(f"        c.seen.resize({size})")

    def search(
        self,
        aut: Automaton,
        prefix: str,
        pattern: bool,
        ctx: str,
        bases: dict[int, dict[int, int]],
        size: int,
    ) -> None:
        """One function per state of ``aut``: ``{prefix}s{q}`` searches on from state q."""
        o = self.o
        slot = bases
        ret = " -> Bool" if pattern else ""
        for q in range(aut.size):
            if q in slot:
                span = aut.actions[q - 1].at if q else self.rules_at
                o.line(f"fun {prefix}e{q}(R2gbState g, {ctx} c, Int pos){ret}:", self.at(span))
                at_depth = slot[q]
                if len(at_depth) == 1:
                    o.line(f"    let k = {next(iter(at_depth.values()))} + pos")
                else:
                    o.line("    let k = pos")
                    for d, base in at_depth.items():
                        o.line(f"    if c.depth == {d}:")
                        o.line(f"        k = k + {base}")
                if size <= SEEN_ARRAY:
                    o.line("    if c.seen[k] == c.stamp[c.depth]:")
                    o.line("        return false" if pattern else "        return")
                    o.line("    c.seen[k] = c.stamp[c.depth]")
                else:
                    o.line("    if c.seen.get(k) == c.stamp[c.depth]:")
                    o.line("        return false" if pattern else "        return")
                    o.line("    c.seen.set(k, c.stamp[c.depth])")
                o.line(
                    f"    return {prefix}s{q}(g, c, pos)"
                    if pattern
                    else f"    {prefix}s{q}(g, c, pos)"
                )
                o.line("")
        for q in range(aut.size):
            span = aut.actions[q - 1].at if q else self.rules_at
            if pattern and q in aut.accepting:
                o.line(f"fun {prefix}s{q}(R2gbState g, {ctx} c, Int pos){ret}:", self.at(span))
                o.line("    return true")
                o.line("")
                continue
            stop = not pattern and q in self.keeper_only
            follow = list(aut.follow[q])
            cycle = self.cycle(aut, q, slot)
            if cycle is not None:
                self.walk(aut, q, cycle, prefix, pattern, ctx, slot, stop)
                continue
            o.line(f"fun {prefix}s{q}(R2gbState g, {ctx} c, Int pos){ret}:", self.at(span))
            tested = {} if pattern else self.tested_twice(aut, follow)
            for j in follow:
                enter = f"{prefix}e{j}" if j in slot else f"{prefix}s{j}"
                self.transition(aut, j, enter, pattern, stop, tested)
            o.line("    return false" if pattern else "    return")
            o.line("")

    def cycle(self, aut: Automaton, q: int, slot: dict[int, dict[int, int]]) -> list[int] | None:
        """The states of a way back to ``q`` (ending with ``q``) through shifts and on
        tests only, each state on it but ``q`` followed by one state alone (``left*``,
        ``(down {e})*``), that moves the square: the search can loop along it."""
        if q == 0 or q in slot or aut.actions[q - 1].kind not in ("shift", "on"):
            return None
        for j in aut.follow[q]:
            chain, cur = [j], j
            while cur != q and len(chain) <= 8:
                nxt = aut.follow[cur]
                if cur in slot or aut.actions[cur - 1].kind not in ("shift", "on") or len(nxt) != 1:
                    break
                cur = nxt[0]
                chain.append(cur)
            if cur == q and self.displacement(aut, chain) != 0:
                return chain
        return None

    def displacement(self, aut: Automaton, chain: list[int]) -> int:
        total = 0
        for j in chain:
            a = aut.actions[j - 1]
            if a.kind == "shift":
                dr, dc = self.d.board.directions[a.name]
                total += dr * self.width + dc
        return total

    def walk(
        self,
        aut: Automaton,
        q: int,
        cycle: list[int],
        prefix: str,
        pattern: bool,
        ctx: str,
        slot: dict[int, dict[int, int]],
        stop: bool,
    ) -> None:
        """State ``q`` on a ``cycle`` of shifts and tests (``left*``, ``(down {e})*``) as
        loops instead of one recursive call per square. The recursive search runs the
        transitions before the cycle's on each square going out, then those after it on
        each square coming back; ``{prefix}s{q}b`` and ``{prefix}s{q}a`` hold those two
        groups, and the walk back retraces the squares by the opposite displacement, so
        the moves are found in the same order."""
        o = self.o
        a = aut.actions[q - 1]
        ret = " -> Bool" if pattern else ""
        follow = list(aut.follow[q])
        at = follow.index(cycle[0])
        groups = {"b": follow[:at], "a": follow[at + 1 :]}
        for name, group in groups.items():
            if not group:
                continue
            o.line(f"fun {prefix}s{q}{name}(R2gbState g, {ctx} c, Int pos){ret}:", self.at(a.at))
            for j in group:
                enter = f"{prefix}e{j}" if j in slot else f"{prefix}s{j}"
                self.transition(aut, j, enter, pattern, stop)
            o.line("    return false" if pattern else "    return")
            o.line("")
        delta = self.displacement(aut, cycle)
        back = f"p - {delta}" if delta >= 0 else f"p + {-delta}"
        last_only = self.maximal(aut, cycle, groups["a"])
        o.line(f"fun {prefix}s{q}(R2gbState g, {ctx} c, Int pos){ret}:", self.at(a.at))
        o.line("    let p = pos")

        def run(name: str, indent: str) -> None:
            if pattern:
                o.line(f"{indent}if {prefix}s{q}{name}(g, c, p):")
                o.line(f"{indent}    return true")
            else:
                o.line(f"{indent}{prefix}s{q}{name}(g, c, p)")
                if stop:
                    o.line(f"{indent}if g.nmoves != 0:")
                    o.line(f"{indent}    return")

        # where the order of the moves found does not matter (a pattern, or a state
        # searched only for a player), what follows the cycle runs on each square going
        # out: one pass along the squares instead of two
        one_pass = not last_only and bool(groups["a"]) and (pattern or q in self.player_only)
        o.line("    while true:")
        if groups["b"]:
            run("b", "        ")
        if one_pass:
            run("a", "        ")
        o.line("        let n = p")
        for k, j in enumerate(cycle):
            step = aut.actions[j - 1]
            if step.kind == "shift":
                cond, new = self.step(step.name)
                o.line(f"        if !({cond.replace('pos', 'n')}):")
                o.line("            break")
                o.line(f"        n = {new.replace('pos', 'n')}")
            else:
                o.line(f"        let t{k} = g.cells[n]")
                o.line(f"        if !({self.on_test(step.pieces, f't{k}')}):")
                o.line("            break")
        o.line("        p = n")
        if last_only:
            # `X* {! X}`: the walk stopped where X fails, and X held on every square
            # before it, so {! X} holds at the last square only
            run("a", "    ")
        elif groups["a"] and not one_pass:
            o.line("    while true:")
            run("a", "        ")
            o.line("        if p == pos:")
            o.line("            break")
            o.line(f"        p = {back}")
        o.line("    return false" if pattern else "    return")
        o.line("")

    def maximal(self, aut: Automaton, cycle: list[int], after: list[int]) -> bool:
        """Whether the only transition after a walk along ``cycle`` is ``{! X}`` where X
        is the cycle's own chain of shifts and tests (``up* {! up}``, ``(down {e})*
        {! down {e}}``): the walk went on from every square where X holds, so the
        pattern holds on its last square alone, and the walk back can stay there."""
        if len(after) != 1:
            return False
        a = aut.actions[after[0] - 1]
        if a.kind != "pattern" or a.positive:
            return False
        chain = self.chain(aut.patterns[after[0]])
        if chain is None or len(chain) != len(cycle):
            return False
        dirs = self.d.board.directions
        for j, b in zip(cycle, chain, strict=True):
            c = aut.actions[j - 1]
            if c.kind != b.kind:
                return False
            if c.kind == "shift" and dirs[c.name] != dirs[b.name]:
                return False
            if c.kind == "on" and c.pieces != b.pieces:
                return False
        return True

    def tested_twice(self, aut: Automaton, follow: list[int]) -> dict[int, bool]:
        """The patterns two of the transitions ``follow`` test (``{? M} ... + {! M} ...``),
        each mapped to False (not tested yet). Every alternative undoes what it applied
        before the next is tried, so they test M on the same square and semi-state: its
        answer is kept in a local from the first test, without the cache."""
        numbers = [
            self.pattern_number(aut, j) for j in follow if aut.actions[j - 1].kind == "pattern"
        ]
        return {n: False for n in numbers if numbers.count(n) > 1}

    def transition(
        self,
        aut: Automaton,
        j: int,
        enter: str,
        pattern: bool,
        stop: bool = False,
        tested: dict[int, bool] | None = None,
    ) -> None:
        """The code of entering state ``j``; with ``stop`` (a keeper-only state) the search
        ends once the keeper's move is found (it takes its first), after undoing.
        ``tested``: the patterns this state tests twice (:meth:`tested_twice`)."""
        o = self.o
        a = aut.actions[j - 1]
        origin = self.at(a.at)
        keep: tuple[str, ...] = ()
        if a.kind == "off" and self.groups:  # the listed squares follow it, in order
            keep = (f"r2gb_keep(g, pos, old{j}, {self.piece[a.name]})",)

        def go(indent: str, square: str = "pos", undo: tuple[str, ...] = ()) -> None:
            if pattern and undo:
                o.line(f"{indent}let found{j} = {enter}(g, c, {square})")
                for line in undo:
                    o.line(indent + line)
                o.line(f"{indent}if found{j}:")
                o.line(f"{indent}    return true")
            elif pattern:
                o.line(f"{indent}if {enter}(g, c, {square}):")
                o.line(f"{indent}    return true")
            elif stop and undo and self.in_place:
                # the keeper's move is found: this modifier stays (the move is applied)
                o.line(f"{indent}{enter}(g, c, {square})")
                o.line(f"{indent}if g.nmoves != 0:")
                for line in keep:
                    o.line(f"{indent}    {line}")
                o.line(f"{indent}    return")
                for line in undo:
                    o.line(indent + line)
            else:
                o.line(f"{indent}{enter}(g, c, {square})")
                for line in undo:
                    o.line(indent + line)
                if stop and aut.actions[j - 1].kind != "switch":
                    o.line(f"{indent}if g.nmoves != 0:")
                    o.line(f"{indent}    return")

        if a.kind == "shift":
            cond, new = self.step(a.name)
            o.line(f"    if {cond}:", origin)
            go("        ", new)
        elif a.kind == "on":
            o.line(f"    let p{j} = g.cells[pos]", origin)
            o.line(f"    if {self.on_test(a.pieces, f'p{j}')}:")
            go("        ")
        elif a.kind == "compare":
            assert a.expr is not None and a.other is not None
            left, right = self.arith(a.expr, a.at), self.arith(a.other, a.at)
            o.line(f"    if {left} {_REL[a.relation]} {right}:", origin)
            go("        ")
        elif a.kind == "pattern":
            number = self.pattern_number(aut, j)
            neg = "" if a.positive else "!"
            if pattern:
                o.line(f"    if {neg}r2gb_pattern{number}(g, pos):", origin)
            elif tested is not None and number in tested:
                if not tested[number]:
                    o.line(f"    let tp{number} = r2gb_pattern{number}(g, pos)", origin)
                    tested[number] = True
                o.line(f"    if {neg}tp{number}:", origin)
            else:
                self.cached.add(number)
                o.line(f"    if {neg}r2gb_cpattern{number}(g, c, pos):", origin)
            go("        ")
        elif a.kind == "off":
            o.line(f"    let old{j} = g.cells[pos]", origin)
            o.line(f"    r2gb_push(c, {j}, pos)")
            o.line(f"    r2gb_put(g, pos, {self.piece[a.name]})")
            go("    ", undo=(f"r2gb_put(g, pos, old{j})", "c.depth = c.depth - 1"))
        elif a.kind == "assign":
            assert a.expr is not None
            v = self.var[a.name]
            o.line(f"    let v{j} = {self.arith(a.expr, a.at)}", origin)
            o.line(f"    if v{j} >= 0 and v{j} <= {self.d.bounds[a.name]}:")
            o.line(f"        let old{j} = g.vars[{v}]")
            o.line(f"        r2gb_push(c, {j}, pos)")
            o.line(f"        g.vars[{v}] = v{j}")
            go("        ", undo=(f"g.vars[{v}] = old{j}", "c.depth = c.depth - 1"))
        elif a.kind == "switch":
            if j in self.static_depth:
                o.line(f"    r2gb_found{j}(g, c, pos)", origin)
            else:
                o.line(f"    r2gb_found(g, c, {j}, pos)", origin)
            if stop:
                o.line("    if g.nmoves != 0:")
                o.line("        return")
        else:  # pragma: no cover - the parser makes no other kind
            raise RbgProblem(a.at, f"unknown action kind {a.kind}")

    def pattern_number(self, aut: Automaton, j: int) -> int:
        inner = aut.patterns[j]
        for k, known in enumerate(self.patterns):
            # the same pattern twice ({? M} and {! M}, one macro used twice) is written once
            if known is inner or (known.actions == inner.actions and known.follow == inner.follow):
                return k
        self.patterns.append(inner)
        return len(self.patterns) - 1

    def emit_pattern_cache(self) -> None:
        """``r2gb_cpatternK``: pattern K tested from the rules' search, remembered for the
        square and the semi-state it was last tested on. The search's stamp names the
        semi-state: it changes with every modifier applied (and every new search) and
        comes back only when that modifier is undone, so ``{! M}`` and ``{? M}`` in two
        alternatives, or a keeper testing both, search M once."""
        o = self.o
        for k in sorted(self.cached):
            o.line(f"fun r2gb_cpattern{k}(R2gbState g, R2gbCtx c, Int pos) -> Bool:")
            if k in self.simple:
                o.line(f"    return r2gb_pattern{k}(g, pos)")
                o.line("")
                continue
            o.line("    let s = c.stamp[c.depth]")
            o.line(f"    if g.pc.stamp[{k}] == s and g.pc.pos[{k}] == pos:")
            o.line(f"        return g.pc.val[{k}] == 1")
            o.line(f"    let v = r2gb_pattern{k}(g, pos)")
            o.line(f"    g.pc.stamp[{k}] = s")
            o.line(f"    g.pc.pos[{k}] = pos")
            o.line(f"    g.pc.val[{k}] = 0")
            o.line("    if v:")
            o.line(f"        g.pc.val[{k}] = 1")
            o.line("    return v")
            o.line("")

    def emit_patterns(self) -> None:
        o = self.o
        done = 0
        while done < len(self.patterns):
            k = done
            # a pattern's answer is whether some word matches: alternatives that begin
            # alike are tested once
            aut = shared_prefixes(self.patterns[k], self.d.board.directions)
            if self.straight(aut, k) or self.flat(aut, k):
                done += 1
                continue
            exact = aut.modifier_depth()
            bound = max(exact, 1) if exact is not None else DEFAULT_DEPTH
            bases, size = self.layout(aut, [0], bound)
            ctx = f"R2gbCtxP{k}"
            self.emit_ctx(ctx, bound, size, exact is not None)
            self.search(aut, f"r2gb_p{k}_", True, ctx, bases, size)
            span = aut.actions[0].at if aut.actions else self.rules_at
            o.line(f"fun r2gb_pattern{k}(R2gbState g, Int pos) -> Bool:", self.at(span))
            self.ctx_init(f"pattern{k}", size)
            o.line(f"    return r2gb_p{k}_s0(g, c, pos)")
            o.line("")
            done += 1

    @staticmethod
    def chain(aut: Automaton) -> list[Action] | None:
        """The actions of ``aut`` when it is one chain of shifts, ons and comparisons
        (``up``, ``down {e}``); None otherwise."""
        chain: list[Action] = []
        q = 0
        while q not in aut.accepting:
            if len(aut.follow[q]) != 1:
                return None
            q = aut.follow[q][0]
            a = aut.actions[q - 1]
            if a.kind not in ("shift", "on", "compare") or len(chain) >= len(aut.actions):
                return None
            chain.append(a)
        if any(aut.follow[j] for j in range(1, aut.size) if j in aut.accepting):
            return None  # an accepting state that goes on: not a plain chain
        return chain

    def straight(self, aut: Automaton, k: int) -> bool:
        """Write pattern ``k`` as straight tests when it is one chain of shifts, ons and
        comparisons (``{! up}``, ``{? down {e}}``): no search, no context. False otherwise."""
        chain = self.chain(aut)
        if chain is None:
            return False
        o = self.o
        span = chain[0].at if chain else self.rules_at
        o.line(f"fun r2gb_pattern{k}(R2gbState g, Int start) -> Bool:", self.at(span))
        o.line("    let pos = start")
        for n, a in enumerate(chain):
            origin = self.at(a.at)
            if a.kind == "shift":
                cond, new = self.step(a.name)
                o.line(f"    if !({cond}):", origin)
                o.line("        return false")
                o.line(f"    pos = {new}")
            elif a.kind == "on":
                o.line(f"    let p{n} = g.cells[pos]", origin)
                o.line(f"    if !({self.on_test(a.pieces, f'p{n}')}):")
                o.line("        return false")
            else:
                assert a.expr is not None and a.other is not None
                left, right = self.arith(a.expr, a.at), self.arith(a.other, a.at)
                o.line(f"    if !({left} {_REL[a.relation]} {right}):", origin)
                o.line("        return false")
        o.line("    return true")
        o.line("")
        self.simple.add(k)
        return True

    def flat(self, aut: Automaton, k: int) -> bool:
        """Write pattern ``k`` as nested tests when it has no cycle and only shifts and
        ons (``four(x)`` of connect four: 16 short lines of squares): every square it reads
        lies a fixed number of rows and columns from its start, so each shift's edge test
        compares the start's row and column with constants (only where no test before it
        already covers that row or column), and an alternative is one more branch of the
        tests it shares a beginning with. No search, no context. False otherwise, or when
        the tests would number more than :data:`FLAT_LIMIT`."""
        if any(a.kind not in ("shift", "on") for a in aut.actions):
            return False
        dirs = self.d.board.directions
        if any(
            abs(dirs[a.name][0]) > 1 or abs(dirs[a.name][1]) > 1
            for a in aut.actions
            if a.kind == "shift"
        ):
            return False
        tests = self._flat_size(aut)
        if tests is None or tests > FLAT_LIMIT:
            return False
        o = self.o
        w, h = self.width, self.cells // self.width
        span = aut.actions[0].at if aut.actions else self.rules_at
        o.line(f"fun r2gb_pattern{k}(R2gbState g, Int start) -> Bool:", self.at(span))
        o.line(f"    let r = start / {w}")
        o.line(f"    let c = start % {w}")
        names = iter(range(tests + 1))

        def emit(q: int, at: tuple[int, int], seen: tuple[int, int, int, int], indent: str) -> None:
            if q in aut.accepting:
                o.line(f"{indent}return true")
                return
            for j in aut.follow[q]:
                a = aut.actions[j - 1]
                origin = self.at(a.at)
                if a.kind == "shift":
                    dr, dc = dirs[a.name]
                    row, col = at[0] + dr, at[1] + dc
                    if not (-h < row < h and -w < col < w):
                        continue  # off every board square whatever the start
                    lo_r, hi_r, lo_c, hi_c = seen
                    conds = []
                    if row < lo_r:
                        conds.append(f"r >= {-row}")
                    if row > hi_r:
                        conds.append(f"r < {h - row}")
                    if col < lo_c:
                        conds.append(f"c >= {-col}")
                    if col > hi_c:
                        conds.append(f"c < {w - col}")
                    known = (min(lo_r, row), max(hi_r, row), min(lo_c, col), max(hi_c, col))
                    if conds:
                        o.line(f"{indent}if {' and '.join(conds)}:", origin)
                        emit(j, (row, col), known, indent + "    ")
                    else:
                        emit(j, (row, col), known, indent)
                else:
                    n = next(names)
                    off = at[0] * w + at[1]
                    square = f"start + {off}" if off >= 0 else f"start - {-off}"
                    o.line(f"{indent}let p{n} = g.cells[{square}]", origin)
                    o.line(f"{indent}if {self.on_test(a.pieces, f'p{n}')}:")
                    emit(j, at, seen, indent + "    ")

        emit(0, (0, 0), (0, 0, 0, 0), "    ")
        o.line("    return false")
        o.line("")
        self.flats.add(k)
        return True

    @staticmethod
    def _flat_size(aut: Automaton) -> int | None:
        """The tests of ``aut`` written out as a tree (every path from the start to an
        accepting state or a dead end), or None when ``aut`` has a cycle."""
        sizes: dict[int, int] = {}
        active: set[int] = set()

        def size(q: int) -> int | None:
            if q in sizes:
                return sizes[q]
            if q in active:
                return None
            if q in aut.accepting:
                sizes[q] = 0
                return 0
            active.add(q)
            total = 0
            for j in aut.follow[q]:
                below = size(j)
                if below is None:
                    return None
                total += 1 + below
                if total > FLAT_LIMIT:
                    break
            active.discard(q)
            sizes[q] = total
            return total

        return size(0)

    # -- the mapping ----------------------------------------------------------------------

    def map_expr(self, node: ast.expr, static: tuple[int, int] | None = None) -> str:
        """The rl of a mapping expression; with ``static`` = (depth, switch) the move's
        modifiers before its switch are known in number, and each ``row(i)`` reads its
        slot directly instead of through ``r2gb_mod_pos``."""
        if isinstance(node, ast.Constant):
            return str(node.value)
        if isinstance(node, ast.Name):
            return f"{static[0] + 1}" if static is not None else "(c.depth + 1)"
        if isinstance(node, ast.UnaryOp):
            return f"(0 - {self.map_expr(node.operand, static)})"
        if isinstance(node, ast.BinOp):
            op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}[type(node.op)]
            a, b = self.map_expr(node.left, static), self.map_expr(node.right, static)
            return f"({a} {op} {b})"
        if isinstance(node, ast.BoolOp):
            op = " and " if isinstance(node.op, ast.And) else " or "
            return "(" + op.join(self.map_expr(v, static) for v in node.values) + ")"
        if isinstance(node, ast.Compare):
            ops = {
                ast.Eq: "==",
                ast.NotEq: "!=",
                ast.Lt: "<",
                ast.LtE: "<=",
                ast.Gt: ">",
                ast.GtE: ">=",
            }
            parts = []
            left = node.left
            for cmp, right in zip(node.ops, node.comparators, strict=True):
                lhs, rhs = self.map_expr(left, static), self.map_expr(right, static)
                parts.append(f"{lhs} {ops[type(cmp)]} {rhs}")
                left = right
            return "(" + " and ".join(parts) + ")"
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        i = index_of(node.args[0])
        fn = node.func.id
        if static is not None:
            depth = static[0]
            k = i if i >= 0 else depth + 1 + i
            if not 0 <= k <= depth:
                return "r2gb_no_mod()"
            if fn == "piece":
                return "-1" if k == depth else f"r2gb_piece_of(c.pnode[{k}])"
            square = "pos" if k == depth else f"c.ppos[{k}]"
        elif fn == "piece":
            return f"r2gb_piece_of(r2gb_mod_node(c, node, {i}))"
        else:
            square = f"r2gb_mod_pos(c, node, pos, {i})"
        return f"({square} / {self.width})" if fn == "row" else f"({square} % {self.width})"

    def span(self, node: ast.expr) -> tuple[int, int] | None:
        """The values a mapping expression can take on any squares (``row``, ``col``
        within the board), or None when that is not known: an argument whose span lies
        within its bounds needs no test."""
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value, node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.span(node.operand)
            return None if inner is None else (-inner[1], -inner[0])
        if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub, ast.Mult):
            a, b = self.span(node.left), self.span(node.right)
            if a is None or b is None:
                return None
            if isinstance(node.op, ast.Add):
                return a[0] + b[0], a[1] + b[1]
            if isinstance(node.op, ast.Sub):
                return a[0] - b[1], a[1] - b[0]
            ends = [x * y for x in a for y in b]
            return min(ends), max(ends)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "row":
                return 0, self.cells // self.width - 1
            if node.func.id == "col":
                return 0, self.width - 1
        return None

    def emit_mapping(self, static: tuple[int, int] | None = None) -> None:
        """``r2gb_action``: the action of the move found; with ``static`` = (depth, switch),
        ``r2gb_action{switch}`` for the moves ending at that switch, all of that depth."""
        o = self.o
        specs = {a.name: a for a in self.interface.actions}
        if static is None:
            o.line("fun r2gb_action(R2gbCtx c, Int node, Int pos) -> Int:")
        else:
            o.line(f"fun r2gb_action{static[1]}(R2gbCtx c, Int pos) -> Int:")
        for rule in self.mapping.moves:
            spec = specs[rule.action]
            indent = "    "
            if rule.when is not None:
                o.line(f"    if {self.map_expr(rule.when, static)}:")
                indent = "        "
            o.line(f"{indent}let index = {self.offsets[rule.action]}")
            stride = 1
            strides = []
            for arg in reversed(spec.args):
                strides.append(stride)
                lo, hi = _bounds(arg)
                stride *= hi - lo + 1
            strides.reverse()
            for (name, expr), arg, s in zip(rule.args, spec.args, strides, strict=True):
                lo, hi = _bounds(arg)
                o.line(f"{indent}let a_{name} = {self.map_expr(expr, static)}")
                span = self.span(expr)
                if span is None or span[0] < lo or span[1] > hi:
                    o.line(
                        f"{indent}assert(a_{name} >= {lo} and a_{name} <= {hi}, "
                        f'"the move mapping: a legal RBG move gives {rule.action} argument '
                        f"{name} a value "
                        f'outside {lo}..{hi} (the mapping misses this move)")'
                    )
                o.line(f"{indent}index = index + (a_{name} - {lo}) * {s}")
            o.line(f"{indent}return index")
            if rule.when is None:
                o.line("")
                return
        o.line(
            '    assert(false, "the move mapping: a legal RBG move matches no [[moves]] entry (the '
            'mapping misses this move)")'
        )
        o.line("    return -1")
        o.line("")

    # -- the program ----------------------------------------------------------------------

    def emit(self) -> Lowered:
        o = self.o
        o.line("# Generated from RBG pages by the rbg target; edit the pages, not this file.")
        for name in ("serialization.print", "bounded_arg", "collections.vector"):
            o.line(f"import {name}")
        o.line("")
        starts = [0] + [j for j, a in enumerate(self.rules.actions, start=1) if a.kind == "switch"]
        self.bases, self.seen_size = self.layout(self.rules, starts, self.depth)
        self.emit_ctx("R2gbCtx", self.depth, self.seen_size, self.bounded)
        o.line("fun r2gb_div(Int a, Int b) -> Int:", self.at(self.rules_at))
        o.line('    assert(b != 0, "division by zero in an RBG expression")')
        o.line("    return a / b")
        o.line("")
        self.emit_push()
        self.emit_found()
        self.search(self.rules, "r2gb_", False, "R2gbCtx", self.bases, self.seen_size)
        self.emit_frontier()
        self.emit_patterns()
        self.emit_pattern_cache()
        self.emit_state()
        self.emit_mapping()
        for j, d in sorted(self.static_depth.items()):
            if self.mover(j) != "keeper":  # the keeper's moves are not mapped to actions
                self.emit_mapping((d, j))
        self.emit_apply()
        self.emit_play()
        # Last: whether an expression counts pieces is known once the rules are emitted.
        o.line("fun r2gb_put(R2gbState g, Int pos, Int piece):")
        if self.counted:
            o.line("    g.counts[g.cells[pos]] = g.counts[g.cells[pos]] - 1")
            o.line("    g.counts[piece] = g.counts[piece] + 1")
        o.line("    g.cells[pos] = piece")
        o.line("")
        return Lowered(o.source(), o.map(), self.rules.size, self.depth, self.bounded)

    def emit_frontier(self) -> None:
        """``r2gb_from{q}``: the search from switch ``q`` at one of its slot squares (the
        frontier states entered there), and ``r2gb_open{q}``, false when the pieces there
        fail every first test of it (a cheap refusal before a search is set up)."""
        o = self.o
        for q, sp in sorted(self.slots.items()):
            o.line(f"fun r2gb_from{q}(R2gbState g, R2gbCtx c, Int pos):", self.at(self.rules_at))
            for j in sp.targets:
                enter = f"r2gb_e{j}" if j in self.bases else f"r2gb_s{j}"
                self.transition(self.rules, j, enter, False)
            o.line("    return")
            o.line("")
            o.line(f"fun r2gb_open{q}(R2gbState g, Int pos) -> Bool:")
            acts = [self.rules.actions[j - 1] for j in sp.targets]
            if all(a.kind == "on" for a in acts):
                pieces = frozenset().union(*(a.pieces for a in acts))
                o.line("    let p = g.cells[pos]")
                o.line(f"    return {self.on_test(pieces, 'p')}")
            else:
                o.line("    return true")
            o.line("")

    def in_group(self, k: int, pos: str) -> str:
        """The condition that square ``pos`` is among group ``k``'s plan squares."""
        sp = self.groups[k][0]
        if sp.first == 0 and sp.step == 1 and sp.count == self.cells:
            return "true"
        last = sp.first + (sp.count - 1) * sp.step
        return f"{pos} >= {sp.first} and {pos} <= {last} and ({pos} - {sp.first}) % {sp.step} == 0"

    def emit_groups(self) -> None:
        """The listed squares of each group, kept in ascending order (a function of the
        board alone, so a parsed state lists them as the original did) by the moves
        applied (``r2gb_track``; the search's own offs are undone and need none), and
        rebuilt from the board (``r2gb_rebuild``)."""
        o = self.o
        for k in range(len(self.groups)):
            o.line(f"fun r2gb_add{k}(R2gbState g, Int pos):")
            o.line(f"    g.at{k}[g.n{k}] = pos")
            o.line(f"    g.ix{k}[pos] = g.n{k}")
            o.line(f"    g.n{k} = g.n{k} + 1")
            o.line("")
            o.line(f"fun r2gb_drop{k}(R2gbState g, Int pos):")
            o.line(f"    let i = g.ix{k}[pos]")
            o.line(f"    let last = g.at{k}[g.n{k} - 1]")
            o.line(f"    g.at{k}[i] = last")
            o.line(f"    g.ix{k}[last] = i")
            o.line(f"    g.n{k} = g.n{k} - 1")
            o.line("")
        o.line("fun r2gb_track(R2gbState g, Int pos, Int old, Int piece):")
        for k, (_, pieces) in enumerate(self.groups):
            o.line(f"    if {self.in_group(k, 'pos')}:")
            o.line(f"        let was = {self.on_test(pieces, 'old')}")
            o.line(f"        let now = {self.on_test(pieces, 'piece')}")
            o.line("        if was and !now:")
            o.line(f"            r2gb_drop{k}(g, pos)")
            o.line("        if now and !was:")
            o.line(f"            r2gb_add{k}(g, pos)")
        o.line("    return")
        o.line("")
        o.line("fun r2gb_rebuild(R2gbState g):")
        for k, (sp, pieces) in enumerate(self.groups):
            o.line(f"    g.n{k} = 0")
            o.line(f"    let i{k} = 0")
            o.line(f"    while i{k} < {sp.count}:")
            o.line(f"        let s{k} = {sp.first} + i{k} * {sp.step}")
            o.line(f"        let p{k} = g.cells[s{k}]")
            o.line(f"        if {self.on_test(pieces, f'p{k}')}:")
            o.line(f"            r2gb_add{k}(g, s{k})")
            o.line(f"        i{k} = i{k} + 1")
        o.line("    return")
        o.line("")

    def emit_slots(self) -> None:
        """The candidate slots (targets/rl/reference.md): slot k of a player's search is
        the (k mod M)-th move found from its (k / M)-th frontier square; and the search
        from one square (``r2gb_from``), which also tells whether the player can move
        (``r2gb_exists``: the squares in order until one has a move)."""
        o = self.o
        o.line("fun r2gb_from(R2gbState g, Int s):", self.at(self.rules_at))
        self.forget_moves("0", listed="0", sq="s")
        if self.big:
            self.put("    ", "first", "0", "0")
        self.ctx_init("search", self.seen_size)
        for q, sp in sorted(self.slots.items()):
            o.line(f"    if g.node == {q}:")
            o.line(f"        r2gb_from{q}(g, c, s)")
            o.line(
                f'        assert(g.nmoves <= {sp.per_square}, "the moves from one square '
                f'outnumber the slots the lowering counted for it")'
            )
            o.line("        return")
        o.line("")
        o.line("fun r2gb_exists(R2gbState g):")
        for q, sp in sorted(self.slots.items()):
            o.line(f"    if g.node == {q}:")
            if q in self.group_of:
                k = self.group_of[q]
                o.line("        let i = 0")
                o.line(f"        while i < g.n{k}:")
                o.line(f"            r2gb_from(g, g.at{k}[i])")
                o.line("            if g.nmoves != 0:")
                o.line("                return")
                o.line("            i = i + 1")
                continue
            o.line("        let i = 0")
            o.line(f"        while i < {sp.count}:")
            o.line(f"            let s = {sp.first} + i * {sp.step}")
            o.line(f"            if r2gb_open{q}(g, s):")
            o.line("                r2gb_from(g, s)")
            o.line("                if g.nmoves != 0:")
            o.line("                    return")
            o.line("            i = i + 1")
        o.line("    r2gb_enumerate(g)  # no square has a move: the list is the whole (empty) one")
        o.line("")
        o.line("# In the native playout loop (r2g_defer_end): no move is known yet, and the")
        o.line("# player is taken to have one until the loop's draws and scan find none.")
        o.line("fun r2gb_unsearched(R2gbState g):")
        self.forget_moves("-1", listed="0", sq="-1")
        o.line("")

    def forget_moves(self, nmoves: str, listed: str, sq: str) -> None:
        """The start of a search (or of not searching): every move found before is
        forgotten (the action slots' base raised past them), ``nmoves`` moves are known,
        and, with slots, whether the list is every move (``listed``) and of which square
        (``sq``)."""
        o = self.o
        o.line(f"    g.moves.base = g.moves.base + {self.actions + 1}")
        o.line(f"    g.nmoves = {nmoves}")
        o.line("    g.nmods = 0")
        if self.slots:
            o.line(f"    g.listed = {listed}")
            o.line(f"    g.sq = {sq}")

    def emit_state(self) -> None:
        """The game state: the paper's semi-state and rules index, the moves found, and
        the search contexts (left out of observation tensors)."""
        o = self.o
        room = self.room
        o.line("# The moves found by the last search (at most one per action, one for the keeper):")
        o.line("# move k applies modifiers first[k] .. first[k + 1] - 1; slot[a] is base + 1 + the")
        o.line("# move of action a, or at most base when no move found has action a (each search")
        o.line("# raises base past every slot written before, so no slot is ever cleared).")
        o.line("cls R2gbMoves:")
        if self.big:
            for field in ("node", "pos", "acts", "first"):
                o.line(f"    Vector<Int> {field}")
        else:
            o.line(f"    Int[{room}] node")
            o.line(f"    Int[{room}] pos")
            o.line(f"    Int[{self.most_moves}] acts")
            o.line(f"    Int[{self.most_moves + 1}] first")
        o.line(f"    Int[{self.actions}] slot")
        o.line("    Int base")
        if self.slots:
            o.line("    Int defer  # 1: a move leaves unsearched whether the next player can move")
        if self.in_place and self.groups:
            for field in ("kpos", "kold", "kpiece"):
                o.line(f"    Int[{self.depth}] {field}")
            o.line("    Int nkept")
        o.line("")
        o.line("fun r2g_write(R2gbMoves obj, Int observer, Vector<Float> out, Int index):")
        o.line("    return")
        o.line("")
        o.line("fun r2g_size(R2gbMoves obj) -> Int:")
        o.line("    return 0")
        o.line("")
        slots = max(len(self.patterns), 1)
        o.line("# The last result of each pattern the rules' search tested (r2gb_cpattern).")
        o.line("cls R2gbPatternCache:")
        o.line(f"    Int[{slots}] stamp")
        o.line(f"    Int[{slots}] pos")
        o.line(f"    Int[{slots}] val")
        o.line("")
        o.line("fun r2g_write(R2gbPatternCache obj, Int observer, Vector<Float> out, Int index):")
        o.line("    return")
        o.line("")
        o.line("fun r2g_size(R2gbPatternCache obj) -> Int:")
        o.line("    return 0")
        o.line("")
        d = self.d
        n_vars = max(len(d.variables), 1)
        o.line("cls R2gbState:")
        o.line(f"    Int[{self.cells}] cells")
        o.line(f"    Int[{len(d.pieces)}] counts")
        o.line(f"    Int[{n_vars}] vars")
        o.line("    Int player")
        o.line("    Int node")
        o.line("    Int pos")
        o.line("    Int nmoves")
        o.line("    Int nmods")
        o.line("    R2gbMoves moves")
        o.line("    R2gbCtx search")
        o.line("    R2gbPatternCache pc")
        if self.slots:
            o.line("    Int listed  # 1: moves holds every move of the player (else one square's)")
            o.line("    Int sq  # the square whose moves alone moves holds, or -1")
            for k, (sp, _) in enumerate(self.groups):
                o.line(f"    Int[{sp.count}] at{k}  # the squares of group {k}, ascending")
                o.line(f"    Int n{k}")
                o.line(f"    Int[{self.cells}] ix{k}")
        for k in range(len(self.patterns)):
            if k not in self.simple and k not in self.flats:
                o.line(f"    R2gbCtxP{k} pattern{k}")
        o.line("")
        self.emit_text_form()

    SEMI_STATE = ("cells", "vars", "player", "node", "pos")
    """The fields of the paper's semi-state and rules index: the state's text form (the
    pieces' counts follow from the cells)."""

    def emit_text_form(self) -> None:
        """The state's text (serialization, and what a scenario's ``[setup]`` edits)
        holds the semi-state and rules index alone: the moves found, the searches'
        contexts and the listed squares are the engine's own (a state of chess held
        thousands of integers of them), and with slots asking for legal moves fills the
        moves found lazily, which must not change the text. Parsing a text forgets every
        move found (the action slots' base raised past them), counts the pieces on the
        cells (``counts``, which the text leaves out: it follows the board), lists the
        squares again, and a game that lists its moves lists the player's again: a
        ``set`` that changes the board changes the legal moves."""
        o = self.o
        o.line("fun append_to_string(R2gbState g, String output):")
        for n, field in enumerate(self.SEMI_STATE):
            o.line(f'    output.append("{", " if n else "{"}{field}: ")')
            o.line(f"    append_to_string(g.{field}, output)")
        o.line('    output.append("}")')
        o.line("")
        o.line("fun r2gb_consume(String buffer, StringLiteral literal, Int index) -> Bool:")
        o.line("    while index < buffer.size() and is_space(buffer.get(index)):")
        o.line("        index = index + 1")
        o.line("    if !buffer.substring_matches(literal, index):")
        o.line("        return false")
        o.line("    index = index + length(literal)")
        o.line("    return true")
        o.line("")
        o.line("fun parse_string(R2gbState g, String buffer, Int index) -> Bool:")
        o.line('    if !r2gb_consume(buffer, "{", index):')
        o.line("        return false")
        for field in self.SEMI_STATE:
            o.line(f'    if !r2gb_consume(buffer, "{field}", index):')
            o.line("        return false")
            o.line('    if !r2gb_consume(buffer, ":", index):')
            o.line("        return false")
            o.line(f"    if !parse_string(g.{field}, buffer, index):")
            o.line("        return false")
            o.line('    r2gb_consume(buffer, ",", index)')
        o.line('    if !r2gb_consume(buffer, "}", index):')
        o.line("        return false")
        o.line(f"    g.moves.base = g.moves.base + {self.actions + 1}")
        o.line("    let p = 0")
        o.line(f"    while p < {len(self.d.pieces)}:")
        o.line("        g.counts[p] = 0")
        o.line("        p = p + 1")
        o.line("    let i = 0")
        o.line(f"    while i < {self.cells}:")
        o.line(f"        if g.cells[i] < 0 or g.cells[i] >= {len(self.d.pieces)}:")
        o.line("            return false")
        o.line("        g.counts[g.cells[i]] = g.counts[g.cells[i]] + 1")
        o.line("        i = i + 1")
        if self.slots:
            o.line("    g.listed = 0")
            o.line("    g.sq = -1")
            if self.groups:
                o.line("    r2gb_rebuild(g)")
        else:
            o.line("    g.nmoves = 0")
            o.line(f"    if g.player != {self.keeper}:")
            o.line("        r2gb_enumerate(g)")
        o.line("    return true")
        o.line("")

    def emit_push(self) -> None:
        o = self.o
        o.line("fun r2gb_mod_node(R2gbCtx c, Int node, Int i) -> Int:")
        o.line("    let k = i")
        o.line("    if k < 0:")
        o.line("        k = c.depth + 1 + k")
        o.line(
            '    assert(k >= 0 and k <= c.depth, "the move mapping names a modifier the move '
            'does not have")'
        )
        o.line("    if k == c.depth:")
        o.line("        return node")
        o.line("    return c.pnode[k]")
        o.line("")
        o.line("fun r2gb_mod_pos(R2gbCtx c, Int node, Int pos, Int i) -> Int:")
        o.line("    let k = i")
        o.line("    if k < 0:")
        o.line("        k = c.depth + 1 + k")
        o.line(
            '    assert(k >= 0 and k <= c.depth, "the move mapping names a modifier the move '
            'does not have")'
        )
        o.line("    if k == c.depth:")
        o.line("        return pos")
        o.line("    return c.ppos[k]")
        o.line("")
        o.line("fun r2gb_no_mod() -> Int:")
        o.line('    assert(false, "the move mapping names a modifier the move does not have")')
        o.line("    return 0")
        o.line("")
        o.line("fun r2gb_piece_of(Int node) -> Int:")
        for j, a in enumerate(self.rules.actions, start=1):
            if a.kind == "off":
                o.line(f"    if node == {j}:")
                o.line(f"        return {self.piece[a.name]}")
        o.line("    return -1")
        o.line("")

    def emit_found(self) -> None:
        o = self.o
        if self.big:
            o.line("fun r2gb_vput(Vector<Int> v, Int i, Int x):")
            o.line("    while v.size() <= i:")
            o.line("        v.append(0)")
            o.line("    v.set(i, x)")
            o.line("")
        o.line("fun r2gb_store(R2gbState g, Int node, Int pos):")
        self.put("    ", "node", "g.nmods", "node")
        self.put("    ", "pos", "g.nmods", "pos")
        o.line("    g.nmods = g.nmods + 1")
        o.line("")
        o.line("fun r2gb_same(R2gbState g, R2gbCtx c, Int move, Int node, Int pos) -> Bool:")
        o.line(f"    let start = {self.got('first', 'move')}")
        o.line(f"    if {self.got('first', 'move + 1')} - start != c.depth + 1:")
        o.line("        return false")
        o.line("    let k = 0")
        o.line("    while k < c.depth:")
        o.line(
            f"        if {self.got('node', 'start + k')} != c.pnode[k] or "
            f"{self.got('pos', 'start + k')} != c.ppos[k]:"
        )
        o.line("            return false")
        o.line("        k = k + 1")
        o.line(
            f"    return {self.got('node', 'start + k')} == node and "
            f"{self.got('pos', 'start + k')} == pos"
        )
        o.line("")
        o.line("fun r2gb_found(R2gbState g, R2gbCtx c, Int node, Int pos):", self.at(self.rules_at))
        self.emit_found_slot("r2gb_action(c, node, pos)", "node")
        o.line("    let k = 0")
        o.line("    while k < c.depth:")
        o.line("        r2gb_store(g, c.pnode[k], c.ppos[k])")
        o.line("        k = k + 1")
        o.line("    r2gb_store(g, node, pos)")
        self.put("    ", "acts", "g.nmoves", "a")
        self.put("    ", "first", "g.nmoves + 1", "g.nmods")
        o.line("    g.nmoves = g.nmoves + 1")
        o.line("")
        for j, d in sorted(self.static_depth.items()):
            self.emit_static_found(j, d)

    def emit_found_slot(self, action: str, node: str, mover: str = "") -> None:
        """The start of a ``r2gb_found`` function: the keeper keeps its first move only;
        a player's move claims the slot of its action ``a`` (computed by ``action``), and a
        second move mapped to the same action is the same move (``node``'s) or a fault.
        With ``mover`` ("keeper" or "player") only that one's part is written: the
        switch is reached only in that one's searches."""
        o = self.o
        o.line("    let a = -1")
        if mover == "keeper":
            o.line("    if g.nmoves != 0:")
            o.line("        return")
            self.emit_keeper_switch("    ", node)
            return
        indent = "    "
        if mover != "player":
            o.line(f"    if g.player == {self.keeper}:")
            o.line("        if g.nmoves != 0:")
            o.line("            return")
            self.emit_keeper_switch("        ", node)
            o.line("    else:")
            indent = "        "
        for line in (
            f"a = {action}",
            "let s = g.moves.slot[a] - g.moves.base",
            "if s > 0:",
            f"    if r2gb_same(g, c, s - 1, {node}, pos):",
            "        return",
            '    assert(false, "the move mapping: two different legal RBG moves map to the '
            "same action (the mapping leaves out what tells them apart, or the rules allow "
            'one of them wrongly)")',
            "g.moves.slot[a] = g.moves.base + g.nmoves + 1",
        ):
            o.line(indent + line)

    def emit_keeper_switch(self, indent: str, node: str) -> None:
        """With :attr:`in_place`, the keeper's switch at ``node`` made at once: its
        modifiers are in place already, and the search ends on ``g.nmoves`` 1."""
        if not self.in_place:
            return
        o = self.o
        if node.isdigit():
            a = self.rules.actions[int(node) - 1]
            who = self.keeper if a.name == KEEPER else self.player[a.name]
            o.line(f"{indent}g.player = {who}")
            o.line(f"{indent}g.node = {node}")
            o.line(f"{indent}g.pos = pos")
        else:
            o.line(f"{indent}r2gb_modify(g, {node}, pos)")
        o.line(f"{indent}g.nmoves = 1")
        o.line(f"{indent}return")

    def mover(self, j: int) -> str:
        """Whose searches reach switch ``j``: "keeper" or "player" when only theirs,
        else ""."""
        before = {q for q in range(self.rules.size) if j in self.rules.follow[q]}
        if before and before <= self.keeper_only:
            return "keeper"
        if before and before <= self.player_only:
            return "player"
        return ""

    def emit_static_found(self, j: int, d: int) -> None:
        """``r2gb_found{j}``: ``r2gb_found`` for switch ``j``, whose moves all apply ``d``
        modifiers before it: the action is computed from fixed slots and the modifiers
        are copied without a loop."""
        o = self.o
        a = self.rules.actions[j - 1]
        o.line(f"fun r2gb_found{j}(R2gbState g, R2gbCtx c, Int pos):", self.at(a.at))
        self.emit_found_slot(f"r2gb_action{j}(c, pos)", str(j), self.mover(j))
        if self.in_place and self.mover(j) == "keeper":
            o.line("")
            return
        o.line("    let m = g.nmods")
        for k in range(d):
            self.put("    ", "node", f"m + {k}", f"c.pnode[{k}]")
            self.put("    ", "pos", f"m + {k}", f"c.ppos[{k}]")
        self.put("    ", "node", f"m + {d}", str(j))
        self.put("    ", "pos", f"m + {d}", "pos")
        o.line(f"    g.nmods = m + {d + 1}")
        self.put("    ", "acts", "g.nmoves", "a")
        self.put("    ", "first", "g.nmoves + 1", "g.nmods")
        o.line("    g.nmoves = g.nmoves + 1")
        o.line("")

    def modifier(self, j: int, pos: str, indent: str, n: int = 0) -> None:
        """The code of modifier (or switch) state ``j`` applied at square ``pos``."""
        o = self.o
        a = self.rules.actions[j - 1]
        if a.kind == "off" and self.groups:
            o.line(f"{indent}let old{n} = g.cells[{pos}]", self.at(a.at))
            o.line(f"{indent}r2gb_put(g, {pos}, {self.piece[a.name]})")
            o.line(f"{indent}r2gb_track(g, {pos}, old{n}, {self.piece[a.name]})")
        elif a.kind == "off":
            o.line(f"{indent}r2gb_put(g, {pos}, {self.piece[a.name]})", self.at(a.at))
        elif a.kind == "assign":
            assert a.expr is not None
            value = self.arith(a.expr, a.at)
            o.line(f"{indent}g.vars[{self.var[a.name]}] = {value}", self.at(a.at))
        else:
            who = self.keeper if a.name == KEEPER else self.player[a.name]
            o.line(f"{indent}g.player = {who}", self.at(a.at))
            o.line(f"{indent}g.node = {j}")
            o.line(f"{indent}g.pos = {pos}")

    def _static_mods(self) -> dict[int, tuple[int, ...]]:
        """The switches every move ending at which applies the same modifiers (states) in
        the same order: such a move is replayed without asking what each modifier is."""
        if not self.static_depth:
            return {}
        aut = self.rules
        starts = [0] + [j for j, a in enumerate(aut.actions, start=1) if a.kind == "switch"]
        seen: set[tuple[int, tuple[int, ...]]] = set()
        todo: list[tuple[int, tuple[int, ...]]] = [(q, ()) for q in starts]
        found: dict[int, set[tuple[int, ...]]] = {}
        while todo:
            q, mods = todo.pop()
            for j in aut.follow[q]:
                a = aut.actions[j - 1]
                if a.kind == "switch":
                    found.setdefault(j, set()).add(mods)
                    continue
                key = (j, (*mods, j) if a.modifier else mods)
                if len(key[1]) > self.depth or key in seen:
                    continue
                if len(seen) >= EXPLORE_LIMIT:
                    return {}
                seen.add(key)
                todo.append(key)
        return {
            j: next(iter(seqs))
            for j, seqs in sorted(found.items())
            if len(seqs) == 1 and j in self.static_depth
        }

    def emit_apply(self) -> None:
        o = self.o
        o.line("fun r2gb_modify(R2gbState g, Int node, Int pos):")
        for j, a in enumerate(self.rules.actions, start=1):
            if not a.modifier:
                continue
            o.line(f"    if node == {j}:", self.at(a.at))
            self.modifier(j, "pos", "        ")
            o.line("        return")
        o.line("")
        fixed = self._static_mods()
        for j, mods in fixed.items():
            o.line(f"# A move ending at switch {j}: always modifiers {list(mods)}, then it.")
            o.line(f"fun r2gb_apply{j}(R2gbState g, Int i):")
            for k, m in enumerate((*mods, j)):
                self.modifier(m, self.got("pos", f"i + {k}"), "    ", k)
            o.line("")
        o.line("fun r2gb_apply_move(R2gbState g, Int move):")
        o.line(f"    let i = {self.got('first', 'move')}")
        o.line(f"    let end = {self.got('first', 'move + 1')}")
        if fixed:
            o.line(f"    let last = {self.got('node', 'end - 1')}")
            for j in fixed:
                o.line(f"    if last == {j}:")
                o.line(f"        r2gb_apply{j}(g, i)")
                o.line("        return")
        o.line("    while i < end:")
        o.line(f"        r2gb_modify(g, {self.got('node', 'i')}, {self.got('pos', 'i')})")
        o.line("        i = i + 1")
        o.line("")
        starts = [0] + [j for j, a in enumerate(self.rules.actions, start=1) if a.kind == "switch"]
        o.line("fun r2gb_enumerate(R2gbState g):")
        self.forget_moves("0", listed="1", sq="-1")
        if self.big:
            self.put("    ", "first", "0", "0")
        self.ctx_init("search", self.seen_size)
        for q in starts:
            o.line(f"    if g.node == {q}:")
            o.line(f"        r2gb_s{q}(g, c, g.pos)")
            o.line("        return")
        o.line("")
        if self.slots:
            self.emit_groups()
            self.emit_slots()
        if self.in_place and self.groups:
            o.line("# A piece the keeper's move puts down, kept as applied (r2gb_kept lists it).")
            o.line("fun r2gb_keep(R2gbState g, Int pos, Int old, Int piece):")
            o.line("    let k = g.moves.nkept")
            o.line("    g.moves.kpos[k] = pos")
            o.line("    g.moves.kold[k] = old")
            o.line("    g.moves.kpiece[k] = piece")
            o.line("    g.moves.nkept = k + 1")
            o.line("")
            o.line("# The listed squares follow the pieces the keeper's move put down, first")
            o.line("# to last (kept last to first, as its search returned).")
            o.line("fun r2gb_kept(R2gbState g):")
            o.line("    while g.moves.nkept != 0:")
            o.line("        let k = g.moves.nkept - 1")
            o.line("        r2gb_track(g, g.moves.kpos[k], g.moves.kold[k], g.moves.kpiece[k])")
            o.line("        g.moves.nkept = k")
            o.line("")
        o.line("fun r2gb_settle(R2gbState g):", self.at(self.rules_at))
        o.line("    let rounds = 0")
        o.line("    while true:")
        if self.slots:
            o.line(f"        if g.player != {self.keeper}:")
            o.line("            if g.moves.defer != 0:")
            o.line("                r2gb_unsearched(g)")
            o.line("            else:")
            o.line("                r2gb_exists(g)")
            o.line("            return")
        o.line(f"        let keeper = g.player == {self.keeper}")
        o.line("        r2gb_enumerate(g)")
        o.line("        if !keeper or g.nmoves == 0:")
        o.line("            return")
        if not self.in_place:
            o.line("        r2gb_apply_move(g, 0)")
        elif self.groups:  # the keeper's move is applied: its pieces' squares listed
            o.line("        r2gb_kept(g)")
        o.line("        rounds = rounds + 1")
        o.line(
            f'        assert(rounds < {KEEPER_BOUND}, "the keeper keeps moving: it never switches '
            'to a player or ends the play")'
        )
        o.line("")
        o.line("fun r2gb_setup(R2gbState g):")
        for i, piece in enumerate(self.d.board.cells):
            if self.piece[piece] != 0:
                o.line(f"    g.cells[{i}] = {self.piece[piece]}")
        for p in range(len(self.d.pieces)):
            count = sum(1 for c in self.d.board.cells if self.piece[c] == p)
            if count:
                o.line(f"    g.counts[{p}] = {count}")
        o.line(f"    g.player = {self.keeper}")
        if self.groups:
            o.line("    r2gb_rebuild(g)")
        o.line("    r2gb_settle(g)")
        o.line("")
        o.line("fun r2gb_has(R2gbState g, Int a) -> Bool:")
        if self.slots:
            o.line("    if g.moves.slot[a] > g.moves.base:")
            o.line("        return true")
            o.line("    if g.listed == 0:  # only one square's moves are known: find them all")
            o.line("        r2gb_enumerate(g)")
            o.line("        return g.moves.slot[a] > g.moves.base")
            o.line("    return false")
        else:
            o.line("    return g.moves.slot[a] > g.moves.base")
        o.line("")
        o.line("fun r2gb_play(R2gbState g, Int a):")
        if self.slots:
            o.line("    if g.moves.slot[a] <= g.moves.base:")
            o.line("        r2gb_enumerate(g)")
        o.line("    r2gb_apply_move(g, g.moves.slot[a] - g.moves.base - 1)")
        o.line("    r2gb_settle(g)")
        o.line("")

    def emit_slot_hooks(self) -> None:
        """``r2g_candidate_slots`` and ``r2g_candidate_at`` (see :meth:`emit_slots`). A
        square's search is kept until another square's is needed, so the slots of one
        square read it once.

        And the runtime's ``R2GEndsWithoutMoves`` hooks: an RBG play ends exactly when the
        player to move has no move, and the native playout loop draws among the slots and
        then scans them all before it gives up, so a move there need not search whether
        the next player can move (``r2gb_exists``: a whole square's search per move that
        the draws then mostly repeat elsewhere)."""
        o = self.o
        o.line("fun r2g_defer_end(Game game):")
        o.line("    game.g.moves.defer = 1")
        o.line("")
        o.line("fun r2g_can_move(Game game) -> Bool:")
        o.line("    r2gb_exists(game.g)")
        o.line("    return game.g.nmoves != 0")
        o.line("")
        o.line("fun r2g_returns_without_moves(Game game, Int player) -> Float:")
        o.line(
            f"    return (float(game.g.vars[player]) - {self.mapping.offset!r})"
            f" / {self.mapping.scale!r}"
        )
        o.line("")
        o.line("# Candidate slots (targets/rl/reference.md): slot k is the (k mod M)-th move found")
        o.line("# from the (k / M)-th square where the player's search can begin, or -1.")
        o.line("fun r2g_candidate_slots(Game game) -> Int:")
        for q, sp in sorted(self.slots.items()):
            o.line(f"    if game.g.node == {q}:")
            if q in self.group_of:
                o.line(f"        return game.g.n{self.group_of[q]} * {sp.per_square}")
            else:
                o.line(f"        return {sp.slots}")
        o.line("    return 0")
        o.line("")
        o.line("fun r2g_candidate_at(Game game, Int k) -> Int:")
        o.line("    ref g = game.g")
        for q, sp in sorted(self.slots.items()):
            m = sp.per_square
            o.line(f"    if g.node == {q}:")
            if q in self.group_of:
                o.line(f"        let s = g.at{self.group_of[q]}[k / {m}]")
                o.line("        if g.sq != s:")
                o.line("            r2gb_from(g, s)")
            else:
                o.line(f"        let s = {sp.first} + (k / {m}) * {sp.step}")
                o.line("        if g.sq != s:")
                o.line(f"            if !r2gb_open{q}(g, s):")
                o.line("                return -1")
                o.line("            r2gb_from(g, s)")
            i = f"k % {m}" if m > 1 else "0"
            o.line(f"        if {i} < g.nmoves:")
            o.line(f"            return {self.got('acts', i)}")
            o.line("        return -1")
        o.line("    return -1")
        o.line("")

    def emit_play(self) -> None:
        o = self.o
        d = self.d
        o.line("@classes")
        o.line("act play() -> Game:")
        o.line("    frm g : R2gbState")
        o.line("    r2gb_setup(g)")
        o.line("    while g.nmoves != 0:")
        o.line("        actions:")
        for spec in self.interface.actions:
            args = ", ".join(
                f"BInt<{_bounds(a)[0]}, {_bounds(a)[1] + 1}> {a.name}" for a in spec.args
            )
            stride = 1
            terms = []
            for a in reversed(spec.args):
                lo, hi = _bounds(a)
                terms.append(f"({a.name}.value - {lo}) * {stride}")
                stride *= hi - lo + 1
            index = " + ".join([str(self.offsets[spec.name]), *reversed(terms)])
            o.line(f"            act {spec.name}({args}) {{ r2gb_has(g, {index}) }}")
            o.line(f"                r2gb_play(g, {index})")
        o.line("")
        if self.slots:
            self.emit_slot_hooks()
        else:
            o.line("# Legal action indices (into enumerate(AnyGameAction)), in search order, for")
            o.line("# the runtime (which needs no order).")
            o.line("fun r2g_moves(Game game, Vector<Int> out) -> Int:")
            o.line("    if game.is_done():")
            o.line("        return 0")
            o.line("    let n = game.g.nmoves")
            o.line("    let i = 0")
            o.line("    while i < n:")
            o.line(f"        out.set(i, {self.got('acts', 'i', 'game.g')})")
            o.line("        i = i + 1")
            o.line("    return n")
            o.line("")
        o.line("fun get_current_player(Game game) -> Int:")
        o.line("    if game.is_done():")
        o.line("        return -4")
        o.line("    return game.g.player")
        o.line("")
        o.line("fun get_num_players() -> Int:")
        o.line(f"    return {len(d.players)}")
        o.line("")
        o.line("fun score(Game game, Int player) -> Float:")
        o.line("    if !game.is_done():")
        o.line("        return 0.0")
        o.line(
            f"    return (float(game.g.vars[player]) - {self.mapping.offset!r})"
            f" / {self.mapping.scale!r}"
        )
        o.line("")
        o.line("fun pretty_print(Game game):")
        o.line('    let text = ""s')
        o.line("    let i = 0")
        o.line(f"    while i < {self.cells}:")
        o.line("        text = text + r2gb_piece_name(game.g.cells[i])")
        o.line(f"        if i % {self.width} == {self.width - 1}:")
        o.line('            text = text + "\\n"s')
        o.line("        else:")
        o.line('            text = text + " "s')
        o.line("        i = i + 1")
        o.line("    print(text)")
        o.line("")
        o.line("fun r2gb_piece_name(Int piece) -> String:")
        for i, p in enumerate(d.pieces):
            o.line(f"    if piece == {i}:")
            o.line(f'        return "{p}"s')
        o.line('    return "?"s')


def lower(desc: Description, interface: Interface, mapping: Mapping) -> Lowered:
    """The rl program of ``desc`` speaking ``interface`` through ``mapping``."""
    return _Lowering(desc, interface, mapping).emit()
