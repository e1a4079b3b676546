"""One grounding of a GDL description, asked about any state without grounding again.

:class:`Reasoner` grounds the program of :mod:`rulebook2game.targets.gdl.asp` once with
clingo. A state is a frozenset of fluent indices; :meth:`Reasoner.query` and
:meth:`Reasoner.transition` each make one ``solve`` call whose assumptions fix every
``true`` atom (and, for a transition, every ``does`` atom): the program is stratified, so
the answer is the one stable model, found by propagation alone.

Assumptions were measured against ``assign_external`` of only the atoms that changed
(see ``evals/reports/gdl.md``): on Connect Four both cost the same to within a few
percent, and assumptions keep the control free of state between calls.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import clingo

from rulebook2game.errors import Rulebook2GameError


class GroundingError(Rulebook2GameError):
    """The description could not be grounded (one line saying why)."""


@dataclass(frozen=True)
class StateAnswer:
    """What the rules say about one state."""

    legal: tuple[tuple[int, ...], ...]
    """Per role (seat order), indices into :attr:`Reasoner.moves` of its legal moves."""
    terminal: bool
    goals: tuple[tuple[int, ...], ...]
    """Per role, every goal value the rules give it in this state."""


def symbol_text(symbol: clingo.Symbol, names: dict[str, str]) -> str:
    """A ground clingo term as GDL's KIF text (``(cell 1 1 b)``)."""
    if symbol.type == clingo.SymbolType.Number:
        return str(symbol.number)
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    name = names.get(symbol.name, symbol.name)
    if not symbol.arguments:
        return name
    return f"({name} {' '.join(symbol_text(a, names) for a in symbol.arguments)})"


def _literal(atoms: clingo.SymbolicAtoms, symbol: clingo.Symbol) -> int:
    found = atoms[symbol]
    if found is None:
        raise GroundingError(f"the grounding has no atom {symbol}")
    return found.literal


class Reasoner:
    """A grounded description: fluents, moves, the initial state, and solve calls."""

    def __init__(self, program: str, names: dict[str, str], roles: tuple[str, ...]) -> None:
        started = time.perf_counter()
        ctl = clingo.Control(["--warn=none", "--solve-limit=umax"])
        try:
            ctl.add("base", [], program)
            ctl.ground([("base", [])])
        except RuntimeError as exc:
            raise GroundingError(f"clingo could not ground the description: {exc}") from None
        self.ground_seconds = time.perf_counter() - started
        self.ctl = ctl
        self.names = names
        atoms = ctl.symbolic_atoms
        self.atom_count = len(atoms)
        role_syms = {
            symbol_text(a.symbol.arguments[0], names): a.symbol.arguments[0]
            for a in atoms.by_signature("g_role", 1)
        }
        self.roles = roles
        missing = [r for r in roles if r not in role_syms]
        if missing or len(roles) != len(role_syms):
            raise GroundingError(
                f"roles {sorted(role_syms)} of the description do not match {list(roles)}"
            )
        self.role_index = {role_syms[r]: i for i, r in enumerate(roles)}
        fluents = [a.symbol.arguments[0] for a in atoms.by_signature("g_true", 1)]
        fluents.sort(key=lambda s: symbol_text(s, names))
        self.fluents = tuple(fluents)
        self.fluent_text = tuple(symbol_text(f, names) for f in fluents)
        self.fluent_index = {f: i for i, f in enumerate(fluents)}
        self.true_literal = tuple(_literal(atoms, clingo.Function("g_true", [f])) for f in fluents)
        moves: list[tuple[int, clingo.Symbol]] = []
        for a in atoms.by_signature("g_does", 2):
            role = a.symbol.arguments[0]
            if role in self.role_index:
                moves.append((self.role_index[role], a.symbol.arguments[1]))
        moves.sort(key=lambda m: (m[0], symbol_text(m[1], names)))
        self.moves = tuple(moves)
        self.move_text = tuple(symbol_text(m, names) for _, m in moves)
        self.move_index = {m: i for i, m in enumerate(moves)}
        self.does_literal = tuple(
            _literal(atoms, clingo.Function("g_does", [role_syms[roles[r]], m])) for r, m in moves
        )
        self._off = [-lit for lit in self.does_literal]
        self.initial = frozenset(
            self.fluent_index[a.symbol.arguments[0]]
            for a in atoms.by_signature("g_init", 1)
            if a.symbol.arguments[0] in self.fluent_index
        )
        self.solves = 0
        self.solve_seconds = 0.0

    def _assume(self, state: frozenset[int]) -> list[int]:
        return [lit if i in state else -lit for i, lit in enumerate(self.true_literal)]

    def _model(self, assumptions: list[int]) -> list[clingo.Symbol]:
        started = time.perf_counter()
        self.solves += 1
        out: list[clingo.Symbol] = []
        with self.ctl.solve(assumptions=assumptions, yield_=True) as handle:
            for model in handle:
                out = model.symbols(shown=True)
                break
            else:
                raise GroundingError("the description has no answer for this state")
        self.solve_seconds += time.perf_counter() - started
        return out

    def query(self, state: frozenset[int]) -> StateAnswer:
        """Legal moves, terminal and goals of ``state`` (one solve)."""
        legal: list[list[int]] = [[] for _ in self.roles]
        goals: list[list[int]] = [[] for _ in self.roles]
        terminal = False
        for sym in self._model(self._assume(state) + self._off):
            name = sym.name
            if name == "g_legal":
                role, move = sym.arguments
                index = self.move_index.get((self.role_index.get(role, -1), move))
                if index is None:
                    raise GroundingError(
                        f"legal move {symbol_text(move, self.names)} of "
                        f"{symbol_text(role, self.names)} is not a move of any role"
                    )
                legal[self.role_index[role]].append(index)
            elif name == "g_terminal":
                terminal = True
            elif name == "g_goal":
                role, value = sym.arguments
                if role in self.role_index:
                    number = value.number if value.type == clingo.SymbolType.Number else -1
                    goals[self.role_index[role]].append(number)
        return StateAnswer(
            tuple(tuple(sorted(x)) for x in legal), terminal, tuple(tuple(g) for g in goals)
        )

    def transition(self, state: frozenset[int], joint: tuple[int, ...]) -> frozenset[int]:
        """The state after every role made its move (``joint``: indices into ``moves``)."""
        assumptions = self._assume(state)
        chosen = set(joint)
        assumptions += [lit if i in chosen else -lit for i, lit in enumerate(self.does_literal)]
        out: set[int] = set()
        for sym in self._model(assumptions):
            if sym.name == "g_next":
                index = self.fluent_index.get(sym.arguments[0])
                if index is not None:
                    out.add(index)
        return frozenset(out)
