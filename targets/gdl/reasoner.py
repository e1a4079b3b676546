"""One grounding of a GDL description, asked about any state without grounding again.

:class:`Reasoner` grounds the program of :mod:`rulebook2game.targets.gdl.asp` once with
clingo. A state is a frozenset of fluent indices; :meth:`Reasoner.query` and
:meth:`Reasoner.transition` each make one ``solve`` call whose assumptions fix every
``true`` atom (and, for a transition, every ``does`` atom): the program is stratified, so
the answer is the one stable model, found by propagation alone.

Assumptions were measured against ``assign_external`` of only the atom that changed
(Connect Four, 2,000 solves each): 216 us and 180 us per call, both dominated by the
fixed cost of one ``solve`` call. Assumptions keep the control free of state between
calls, so they stay; the speed comes from the compiled network
(:mod:`~rulebook2game.targets.gdl.propnet`), which answers from this same grounding
when a C compiler is at hand, and clingo remains the fallback and the network's
second opinion in the tests.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import clingo

from rulebook2game.errors import Rulebook2GameError
from rulebook2game.targets.gdl.propnet import (
    COMPILE_SECONDS,
    TRUE_SLOT,
    Layout,
    Propnet,
    PropnetError,
    _Observer,
    build_library,
    c_source,
    observe,
)


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

    def __init__(
        self,
        program: str,
        names: dict[str, str],
        roles: tuple[str, ...],
        *,
        noop: frozenset[str] = frozenset(),
        cache: Path | None = None,
    ) -> None:
        started = time.perf_counter()
        ctl = clingo.Control(["--warn=none"])
        observer = observe(ctl)
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
        self.propnet: Propnet | None = None
        self.propnet_note = "no build folder given"
        if cache is not None:
            self._compile_network(observer, noop, cache)

    def _compile_network(self, observer: _Observer, noop: frozenset[str], cache: Path) -> None:
        """Build the C network of the grounding (see :mod:`.propnet`); keep clingo if not."""
        if observer.unsupported:
            self.propnet_note = "the grounding has choice or weight rules"
            return
        started = time.perf_counter()
        atoms = self.ctl.symbolic_atoms
        top = max(
            [h for h, _ in observer.rules]
            + [abs(lit) for _, b in observer.rules for lit in b]
            + list(self.true_literal)
            + list(self.does_literal)
            + [1]
        )
        false_slot = top + 1

        def atom_of(symbol: clingo.Symbol) -> int:
            found = atoms[symbol]
            if found is None:
                return false_slot
            return TRUE_SLOT if found.is_fact else found.literal

        role_sym = {i: clingo.Function("", []) for i in range(len(self.roles))}
        for a in atoms.by_signature("g_role", 1):
            seat = self.role_index.get(a.symbol.arguments[0])
            if seat is not None:
                role_sym[seat] = a.symbol.arguments[0]
        goals: list[tuple[int, int, int]] = []
        for a in atoms.by_signature("g_goal", 2):
            role, value = a.symbol.arguments
            if role in self.role_index and value.type == clingo.SymbolType.Number:
                goals.append((self.role_index[role], value.number, atom_of(a.symbol)))
        layout = Layout(
            true_atoms=self.true_literal,
            does_atoms=self.does_literal,
            legal_atoms=tuple(
                atom_of(clingo.Function("g_legal", [role_sym[r], m])) for r, m in self.moves
            ),
            next_atoms=tuple(atom_of(clingo.Function("g_next", [f])) for f in self.fluents),
            terminal_atom=atom_of(clingo.Function("g_terminal", [])),
            goal_atoms=tuple(goals),
            move_role=tuple(r for r, _ in self.moves),
            noop=tuple(text in noop for text in self.move_text),
            roles=len(self.roles),
        )
        try:
            library = build_library(c_source(observer.rules, layout, top), cache)
        except subprocess.TimeoutExpired:
            self.propnet_note = f"the network did not compile within {COMPILE_SECONDS:.0f} s"
            return
        except (PropnetError, OSError, subprocess.SubprocessError) as exc:
            self.propnet_note = str(exc)
            return
        initial = bytes(1 if i in self.initial else 0 for i in range(len(self.fluents)))
        self.propnet = Propnet(library, layout, initial)
        self.propnet_seconds = time.perf_counter() - started
        self.propnet_note = f"propnet built in {self.propnet_seconds:.2f} s"

    def _bytes(self, state: frozenset[int]) -> bytes:
        return bytes(1 if i in state else 0 for i in range(len(self.fluents)))

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
        """Legal moves, terminal and goals of ``state`` (one sweep, or one solve)."""
        if self.propnet is not None:
            legal_moves, terminal_now, held = self.propnet.query(self._bytes(state))
            per_role: list[list[int]] = [[] for _ in self.roles]
            for m in legal_moves:
                per_role[self.moves[m][0]].append(m)
            goal_values: list[list[int]] = [[] for _ in self.roles]
            for seat, value in held:
                goal_values[seat].append(value)
            return StateAnswer(
                tuple(tuple(x) for x in per_role),
                terminal_now,
                tuple(tuple(g) for g in goal_values),
            )
        return self.solve_query(state)

    def solve_query(self, state: frozenset[int]) -> StateAnswer:
        """:meth:`query` answered by clingo (one solve)."""
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
        if self.propnet is not None:
            after = self.propnet.next(self._bytes(state), joint)
            return frozenset(i for i, bit in enumerate(after) if bit)
        return self.solve_transition(state, joint)

    def solve_transition(self, state: frozenset[int], joint: tuple[int, ...]) -> frozenset[int]:
        """:meth:`transition` answered by clingo (one solve)."""
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
