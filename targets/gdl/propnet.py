"""The ground program as a propositional network, compiled to C: the fast GDL engine.

clingo grounds the description once (:mod:`~rulebook2game.targets.gdl.reasoner`); an
observer records the ground rules (``head :- body``, literals as program atoms). Those
rules are a stratified propositional program, so each atom's value is the disjunction
of its rules' bodies, computed in the topological order of the atom dependency graph
(a positive cycle, as recursion allows, is iterated to its least fixpoint). The network
is written as one C file and built with the system compiler (``gcc -O2``, which the rl
target needs anyway) into ``propnet.so`` beside the build, cached by a hash of its
source. It answers a state in two sweeps: the atoms that do not depend on ``does``
(legal moves, terminal, goals, the ``next`` atoms that only read the state), then the
atoms that do (the rest of ``next``), once the joint move is set. The same
library runs whole random games (:meth:`Propnet.playouts`), the native loop of
``bench``.

The network is generated from a checked description by this package, not written by
anyone: it has fixed arrays, no recursion and a bounded loop per game, and runs in the
pipeline's process (through :mod:`ctypes`).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import signal
import subprocess
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import clingo

from rulebook2game.errors import Rulebook2GameError
from rulebook2game.targets.gdl.graph import strongly_connected

MAX_SOURCE = 512 * 1024
"""Characters of C beyond which the network is not compiled (gcc would take minutes)."""
COMPILE_SECONDS = 120.0
"""Wall-clock bound of the C compile; past it, clingo answers each state."""


class PropnetError(Rulebook2GameError):
    """The network could not be built (no C compiler, or it failed)."""


class _Observer:
    """Records the ground rules clingo passes to its solver."""

    def __init__(self) -> None:
        self.rules: list[tuple[int, tuple[int, ...]]] = []
        self.unsupported = False

    def rule(self, choice: bool, head: list[int], body: list[int]) -> None:
        if choice or len(head) != 1:
            self.unsupported = True
            return
        self.rules.append((head[0], tuple(body)))

    def weight_rule(self, choice: bool, head: list[int], lower: int, body: list[object]) -> None:
        self.unsupported = True


def observe(ctl: clingo.Control) -> _Observer:
    """Register an observer on ``ctl`` before it grounds; read ``rules`` after."""
    obs = _Observer()
    ctl.register_observer(obs)  # type: ignore[arg-type]
    return obs


@dataclass(frozen=True)
class Layout:
    """Where the engine's inputs and outputs live among the network's atoms."""

    true_atoms: tuple[int, ...]
    """Per fluent, its ``g_true`` atom."""
    does_atoms: tuple[int, ...]
    """Per move (role, move index), its ``g_does`` atom."""
    legal_atoms: tuple[int, ...]
    """Per move, its ``g_legal`` atom (the FALSE slot when it can never hold)."""
    next_atoms: tuple[int, ...]
    """Per fluent, its ``g_next`` atom (or the FALSE slot)."""
    terminal_atom: int
    goal_atoms: tuple[tuple[int, int, int], ...]
    """(seat, value, atom) of every goal atom."""
    move_role: tuple[int, ...]
    """Per move, its role's seat."""
    noop: tuple[bool, ...]
    """Per move, whether it is a declared noop."""
    roles: int


TRUE_SLOT = 0
"""Atom 0 stands for a fact (always true)."""


def _order(rules: list[tuple[int, tuple[int, ...]]], inputs: set[int]) -> list[list[int]]:
    """Strongly connected components of the defined atoms, dependencies first."""
    deps: dict[int, set[int]] = defaultdict(set)
    for head, body in rules:
        deps[head].update(abs(lit) for lit in body if abs(lit) not in inputs)
    # an atom no rule defines is always false: not followed
    return [sorted(c) for c in strongly_connected(deps, follow=lambda atom: atom in deps)]


def _depends_on(rules: list[tuple[int, tuple[int, ...]]], roots: set[int]) -> set[int]:
    users: dict[int, set[int]] = defaultdict(set)
    for head, body in rules:
        for lit in body:
            users[abs(lit)].add(head)
    found: set[int] = set()
    todo = list(roots)
    while todo:
        atom = todo.pop()
        for head in users.get(atom, ()):
            if head not in found:
                found.add(head)
                todo.append(head)
    return found


def _array(name: str, values: tuple[int, ...] | list[int]) -> str:
    body = ",".join(str(v) for v in values) or "0"
    return f"static const int {name}[] = {{{body}}};\n"


def c_source(rules: list[tuple[int, tuple[int, ...]]], layout: Layout, atoms: int) -> str:
    """The C program of the network (see the module notes)."""
    inputs = set(layout.true_atoms) | set(layout.does_atoms)
    by_head: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for head, body in rules:
        by_head[head].append(body)
    comps = _order(rules, inputs)
    on_does = _depends_on(rules, set(layout.does_atoms))
    false_slot = atoms + 1

    def value(lit: int) -> str:
        atom = abs(lit)
        ref = "1" if atom == TRUE_SLOT else f"v[{atom}]"
        return ref if lit > 0 else f"!{ref}"

    def expr(head: int) -> str:
        terms = []
        for body in by_head[head]:
            terms.append("(" + " && ".join(value(lit) for lit in body) + ")" if body else "1")
        return " || ".join(terms) or "0"

    def sweep(name: str, only: set[int] | None) -> str:
        lines = [f"static void {name}(unsigned char *v) {{"]
        for comp in comps:
            members = [a for a in comp if only is None or a in only]
            if not members:
                continue
            cyclic = len(comp) > 1 or any(
                abs(lit) == comp[0] for body in by_head[comp[0]] for lit in body
            )
            if not cyclic:
                lines.append(f"  v[{members[0]}] = {expr(members[0])};")
                continue
            lines.append("  { int changed = 1;")
            lines += [f"    v[{a}] = 0;" for a in members]
            lines.append("    while (changed) { changed = 0;")
            for a in members:
                lines.append(f"      if (!v[{a}] && ({expr(a)})) {{ v[{a}] = 1; changed = 1; }}")
            lines.append("  } }")
        lines.append("}\n")
        return "\n".join(lines)

    moves = len(layout.does_atoms)
    fluents = len(layout.true_atoms)
    goal_seat = [g[0] for g in layout.goal_atoms]
    goal_value = [g[1] for g in layout.goal_atoms]
    goal_atom = [g[2] for g in layout.goal_atoms]
    out = [
        "#include <stdint.h>\n#include <string.h>\n",
        f"#define ATOMS {atoms + 2}\n#define FLUENTS {fluents}\n#define MOVES {moves}\n",
        f"#define ROLES {layout.roles}\n#define GOALS {len(goal_atom)}\n",
        f"#define TERMINAL {layout.terminal_atom}\n#define FALSE_SLOT {false_slot}\n",
        _array("TRUE_ATOM", layout.true_atoms or [0]),
        _array("DOES_ATOM", layout.does_atoms or [0]),
        _array("LEGAL_ATOM", layout.legal_atoms or [0]),
        _array("NEXT_ATOM", layout.next_atoms or [0]),
        _array("MOVE_ROLE", layout.move_role or [0]),
        _array("NOOP", [int(n) for n in layout.noop] or [0]),
        _array("GOAL_SEAT", goal_seat or [0]),
        _array("GOAL_VALUE", goal_value or [0]),
        _array("GOAL_ATOM", goal_atom or [0]),
        sweep("sweep_all", {a for comp in comps for a in comp} - on_does),
        sweep("sweep_does", on_does),
        _RUNTIME,
    ]
    return "".join(out)


_RUNTIME = r"""
static void load(unsigned char *v, const unsigned char *state) {
  memset(v, 0, ATOMS);
  v[0] = 1; /* the TRUE slot: facts */
  v[FALSE_SLOT] = 0;
  for (int i = 0; i < FLUENTS; i++) v[TRUE_ATOM[i]] = state[i];
}

/* legal[m], terminal, goals[g] of a state. */
void pn_query(const unsigned char *state, unsigned char *legal, int *terminal,
              unsigned char *goals) {
  unsigned char v[ATOMS];
  load(v, state);
  sweep_all(v);
  for (int m = 0; m < MOVES; m++) legal[m] = v[LEGAL_ATOM[m]];
  *terminal = v[TERMINAL];
  for (int g = 0; g < GOALS; g++) goals[g] = v[GOAL_ATOM[g]];
}

/* the next state after the joint move (does[m] = 1 for each role's move). */
void pn_next(const unsigned char *state, const unsigned char *does, unsigned char *next) {
  unsigned char v[ATOMS];
  load(v, state);
  sweep_all(v);
  for (int m = 0; m < MOVES; m++) v[DOES_ATOM[m]] = does[m];
  sweep_does(v);
  for (int i = 0; i < FLUENTS; i++) next[i] = v[NEXT_ATOM[i]];
}

static uint64_t split(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* count random games from init; out[0] games, out[1] steps, out[2] terminal,
   out[3] truncated, out[4] stuck (no single mover, or a role without moves). */
void pn_playouts(uint64_t seed, int count, int max_steps, const unsigned char *init,
                 int64_t *out) {
  unsigned char v[ATOMS], state[FLUENTS + 1], chosen[MOVES + 1];
  int options[MOVES + 1];
  uint64_t rng = seed;
  for (int g = 0; g < count; g++) {
    memcpy(state, init, FLUENTS);
    int steps = 0, status = 1;
    for (;;) {
      load(v, state);
      sweep_all(v);
      if (v[TERMINAL]) { status = 0; break; }
      if (steps >= max_steps) { status = 1; break; }
      int mover = -1, movers = 0, n = 0, ok = 1;
      int count_of[ROLES];
      memset(count_of, 0, sizeof count_of);
      for (int m = 0; m < MOVES; m++) if (v[LEGAL_ATOM[m]]) count_of[MOVE_ROLE[m]]++;
      for (int r = 0; r < ROLES; r++) if (count_of[r] == 0) ok = 0;
      for (int m = 0; m < MOVES; m++) {
        if (!v[LEGAL_ATOM[m]]) continue;
        int r = MOVE_ROLE[m];
        if (count_of[r] == 1 && NOOP[m]) continue;
        if (mover == -1) { mover = r; movers = 1; }
        else if (mover != r) movers = 2;
        if (r == mover) options[n++] = m;
      }
      if (!ok || movers != 1 || n == 0) { status = 2; break; }
      int pick = options[split(&rng) % (uint64_t)n];
      memset(chosen, 0, MOVES);
      for (int m = 0; m < MOVES; m++)
        if (v[LEGAL_ATOM[m]] && MOVE_ROLE[m] != mover) chosen[m] = 1;
      chosen[pick] = 1;
      for (int m = 0; m < MOVES; m++) v[DOES_ATOM[m]] = chosen[m];
      sweep_does(v);
      for (int i = 0; i < FLUENTS; i++) state[i] = v[NEXT_ATOM[i]];
      steps++;
    }
    out[0]++; out[1] += steps; out[2 + status]++;
  }
}
"""


class Propnet:
    """A compiled network, called through :mod:`ctypes`."""

    def __init__(self, library: Path, layout: Layout, initial: bytes) -> None:
        self.layout = layout
        self.initial = initial
        self._lib = ctypes.CDLL(str(library))
        self._query = self._lib.pn_query
        self._next = self._lib.pn_next
        self._playouts = self._lib.pn_playouts
        self._playouts.argtypes = [
            ctypes.c_uint64,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_int64),
        ]
        moves = len(layout.does_atoms)
        self._legal = ctypes.create_string_buffer(max(moves, 1))
        self._goals = ctypes.create_string_buffer(max(len(layout.goal_atoms), 1))
        self._terminal = ctypes.c_int(0)
        self._does = ctypes.create_string_buffer(max(moves, 1))
        self._out = ctypes.create_string_buffer(max(len(layout.true_atoms), 1))

    def query(self, state: bytes) -> tuple[list[int], bool, list[tuple[int, int]]]:
        """Legal move indices, terminal, and (seat, value) of every goal that holds."""
        self._query(state, self._legal, ctypes.byref(self._terminal), self._goals)
        raw = self._legal.raw
        legal = [m for m in range(len(self.layout.does_atoms)) if raw[m]]
        goals_raw = self._goals.raw
        goals = [(s, val) for k, (s, val, _) in enumerate(self.layout.goal_atoms) if goals_raw[k]]
        return legal, bool(self._terminal.value), goals

    def next(self, state: bytes, joint: tuple[int, ...]) -> bytes:
        """The next state after the joint move (move indices)."""
        does = bytearray(len(self.layout.does_atoms) or 1)
        for m in joint:
            does[m] = 1
        self._next(state, bytes(does), self._out)
        return self._out.raw[: len(self.layout.true_atoms)]

    def playouts(self, seed: int, count: int, max_steps: int) -> tuple[int, ...]:
        """(games, steps, terminal, truncated, stuck) of ``count`` random games."""
        out = (ctypes.c_int64 * 5)()
        self._playouts(seed & (2**64 - 1), count, max_steps, self.initial, out)
        return tuple(out)


def build_library(source: str, folder: Path) -> Path:
    """``source`` compiled into ``folder/propnet-<hash>.so`` (reused when it exists).

    Raises:
        PropnetError: no C compiler, or the compile failed.
    """
    key = hashlib.sha256(source.encode()).hexdigest()[:16]
    library = folder / f"propnet-{key}.so"
    if library.is_file():
        return library
    if len(source) > MAX_SOURCE:
        raise PropnetError(
            f"the network is too large to compile ({len(source) >> 10} KiB of C, bound "
            f"{MAX_SOURCE >> 10} KiB); clingo answers each state"
        )
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise PropnetError("no C compiler (gcc) to build the network")
    folder.mkdir(parents=True, exist_ok=True)
    c_file = folder / f"propnet-{key}.c"
    c_file.write_text(source, encoding="utf-8")
    partial = folder / f"propnet-{key}.{time.monotonic_ns()}.so"
    with subprocess.Popen(
        [compiler, "-O2", "-shared", "-fPIC", "-o", str(partial), str(c_file)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # so a timeout ends cc1 too, not only the driver
    ) as proc:
        try:
            _, stderr = proc.communicate(timeout=COMPILE_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            partial.unlink(missing_ok=True)
            raise
    done = subprocess.CompletedProcess(proc.args, proc.returncode, "", stderr)
    if done.returncode != 0:
        raise PropnetError(f"the network did not compile: {done.stderr.strip()[-300:]}")
    partial.replace(library)
    return library
