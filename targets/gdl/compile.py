"""Compile GDL pages: parse, check (seed 003 §2, §5), lower to clingo, ground once under a bound.

The build is a folder ``build/gdl/<hash>/`` holding the clingo program (``game.lp``), the
names it renamed (``game.names.json``), the move map (``gdl.toml``) and what the probe
found (``meta.json``: grounding seconds, atoms, roles, moves). It is keyed by a hash of
the program, the move map and the interface, so an unchanged game is not grounded again.
"""

from __future__ import annotations

import hashlib
import json
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulebook2game.errors import CompileError, Rulebook2GameError
from rulebook2game.targets.base import compiled_line
from rulebook2game.targets.gdl import asp
from rulebook2game.targets.gdl.checks import CHANCE_ROLE, check_rules
from rulebook2game.targets.gdl.kif import (
    Const,
    Distinct,
    Fn,
    KifError,
    Literal,
    Neg,
    Pos,
    Rule,
    Term,
    expand_or,
    parse_kif,
)
from rulebook2game.targets.gdl.moves import (
    MOVES_FILE,
    MoveMap,
    interface_moves,
    parse_moves,
    read_moves,
)
from rulebook2game.targets.gdl.probe import probe
from rulebook2game.targets.rl.diagnostics import Diagnostic
from rulebook2game.trace import write_text_atomic
from rulebook2game.workspace import Interface, Workspace

PAGE_SUFFIX = ".kif"
BUILD_DIR = "gdl"


@dataclass(frozen=True)
class Description:
    """A parsed and checked description: its rules, roles in seat order, clingo program."""

    rules: tuple[Rule, ...]
    roles: tuple[str, ...]
    program: str
    names: dict[str, str]


@dataclass(frozen=True)
class GdlBuild:
    """A grounded GDL game (the folder that holds its program and move map)."""

    directory: Path
    optimized: bool
    roles: tuple[str, ...]
    ground_seconds: float
    atoms: int

    @property
    def program(self) -> Path:
        """The clingo program."""
        return self.directory / "game.lp"

    @property
    def names(self) -> Path:
        """clingo name -> GDL name, for names clingo cannot spell."""
        return self.directory / "game.names.json"

    @property
    def moves(self) -> Path:
        """The game's ``gdl.toml``."""
        return self.directory / MOVES_FILE

    def move_map(self) -> MoveMap:
        """The move map, with the interface's return range as the default scale."""
        meta = json.loads((self.directory / "meta.json").read_text(encoding="utf-8"))
        default = meta.get("returns_range")
        return read_moves(self.moves, tuple(default) if default else None)


@dataclass(frozen=True)
class GdlCompile:
    """The outcome of compiling GDL pages."""

    ok: bool
    optimized: bool
    diagnostics: tuple[Diagnostic, ...] = ()
    build: GdlBuild | None = None
    seconds: float = 0.0
    cached: bool = False
    complete: bool = True

    def summary(self) -> str:
        """One line: ``compiled ...`` or the first error's location and message."""
        if self.ok:
            grounded = ""
            if self.build is not None:
                grounded = (
                    f"; grounded {self.build.atoms} atoms in {self.build.ground_seconds:.2f} s"
                )
            return compiled_line("gdl", self.cached, self.seconds) + grounded
        if not self.diagnostics:
            return "compile failed"
        first = self.diagnostics[0]
        return f"{first.location}: {first.message}"

    def require(self) -> GdlBuild:
        """The build; raise :class:`CompileError` when the compile failed."""
        if self.build is None:
            raise CompileError(self.summary())
        return self.build


def _names(rules: list[Rule]) -> dict[str, str]:
    """clingo name -> GDL name, for every name clingo cannot spell as it is."""
    out: dict[str, str] = {}

    def visit(t: Term) -> None:
        if isinstance(t, Fn):
            out[asp.function(t.name)] = t.name
            for a in t.args:
                visit(a)
        elif isinstance(t, Const):
            out[asp.function(t.name)] = t.name

    def literal(lit: Literal) -> None:
        if isinstance(lit, (Pos, Neg)):
            visit(lit.atom)
        elif isinstance(lit, Distinct):
            visit(lit.left)
            visit(lit.right)
        else:
            for option in lit.options:
                literal(option)

    for rule in rules:
        visit(rule.head)
        for lit in rule.body:
            literal(lit)
    return {k: v for k, v in out.items() if k != v}


def _line(root: Path, file: str, line: int) -> str | None:
    try:
        lines = (root / file).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return lines[line - 1] if 1 <= line <= len(lines) else None


def read_description(
    sources: list[tuple[str, str]], root: Path, players: int | None, roles: tuple[str, ...] | None
) -> Description | list[Diagnostic]:
    """Parse and check ``sources`` ((file, text) pairs) into a description, or diagnostics."""
    diagnostics: list[Diagnostic] = []
    rules: list[Rule] = []
    for file, text in sources:
        try:
            for rule in parse_kif(text, file):
                rules.extend(expand_or(rule))
        except KifError as exc:
            at = exc.at
            diagnostics.append(
                Diagnostic(
                    at.file,
                    at.line,
                    at.column,
                    exc.bare,
                    "error",
                    (),
                    _line(root, at.file, at.line),
                )
            )
    if diagnostics:
        return diagnostics
    for problem in check_rules(rules):
        at = problem.at
        message = f"{problem.message}: {problem.rule}" if problem.rule else problem.message
        diagnostics.append(
            Diagnostic(
                at.file, at.line, at.column, message, "error", (), _line(root, at.file, at.line)
            )
        )
    if diagnostics:
        return diagnostics
    declared = [
        str(r.head.args[0])
        for r in rules
        if isinstance(r.head, Fn) and r.head.name == "role" and not r.body
    ]
    declared = list(dict.fromkeys(declared))
    chance = CHANCE_ROLE in declared
    seated = [r for r in declared if r != CHANCE_ROLE]
    order = tuple(roles) if roles else tuple(seated)
    if sorted(order) != sorted(seated):
        return [
            Diagnostic(
                MOVES_FILE,
                0,
                0,
                f"roles {list(order)} do not match the description's {seated}"
                + (f" (the {CHANCE_ROLE} role is chance, not a seat)" if chance else ""),
            )
        ]
    if players is not None and len(order) != players:
        return [
            Diagnostic(
                "game.toml",
                0,
                0,
                f"the description has {len(order)} roles and game.toml {players} players",
            )
        ]
    if chance:
        order = (*order, CHANCE_ROLE)
    return Description(tuple(rules), order, asp.program(rules), _names(rules))


def _returns_range(interface: Interface | None) -> list[float] | None:
    if interface is None:
        return None
    for inv in interface.invariants:
        if inv.kind == "returns_range" and inv.min is not None and inv.max is not None:
            return [inv.min, inv.max]
    return None


def build_description(
    desc: Description,
    build_root: Path,
    moves_text: str,
    extra: dict[str, Any],
    optimized: bool,
    started: float,
) -> GdlCompile:
    """Ground ``desc`` (cached by hash) into ``build_root/<hash>/`` under the probe's bound."""
    key = hashlib.sha256(
        json.dumps([desc.program, desc.names, desc.roles, moves_text, extra]).encode()
    ).hexdigest()[:16]
    folder = build_root / key
    meta_path = folder / "meta.json"
    if meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        build = GdlBuild(folder, optimized, desc.roles, meta["seconds"], meta["atoms"])
        return GdlCompile(True, optimized, (), build, time.perf_counter() - started, True)
    folder.mkdir(parents=True, exist_ok=True)
    write_text_atomic(folder / "game.lp", desc.program)
    write_text_atomic(folder / "game.names.json", json.dumps(desc.names, sort_keys=True))
    write_text_atomic(folder / MOVES_FILE, moves_text)
    found = probe(folder / "game.lp")
    if not found.ok:
        return GdlCompile(
            False,
            optimized,
            (Diagnostic("pages", 0, 0, found.error or "grounding failed"),),
            seconds=time.perf_counter() - started,
        )
    problems: list[str] = []
    bad_goals = [g for g in found.goals if not isinstance(g, int) or not 0 <= g <= 100]
    if bad_goals:
        problems.append(f"goal values {bad_goals} are not integers in 0..100")
    try:
        moves = read_moves(folder / MOVES_FILE)
    except Rulebook2GameError as exc:
        problems.append(str(exc).replace(str(folder / MOVES_FILE), MOVES_FILE))
        moves = None
    if moves is not None and found.inputs:
        for role, inputs in sorted(found.inputs.items()):
            for move in inputs:
                if move not in moves.noop and moves.action(role, move) is None:
                    problems.append(
                        f"{MOVES_FILE}: the move {move} of role {role} (an input of the "
                        "description) matches no [[moves]] row and is not a noop"
                    )
                    break
    if problems:
        return GdlCompile(
            False,
            optimized,
            tuple(Diagnostic("pages", 0, 0, p) for p in problems),
            seconds=time.perf_counter() - started,
        )
    meta = {"seconds": found.seconds, "atoms": found.atoms, "roles": list(desc.roles), **extra}
    write_text_atomic(meta_path, json.dumps(meta, indent=1, sort_keys=True))
    build = GdlBuild(folder, optimized, desc.roles, found.seconds, found.atoms)
    return GdlCompile(True, optimized, (), build, time.perf_counter() - started)


def _front(ws: Workspace) -> tuple[Description, str, dict[str, Any]] | list[Diagnostic]:
    pages = sorted(ws.pages_dir.glob(f"*{PAGE_SUFFIX}"))
    if not pages:
        return [
            Diagnostic("pages", 0, 0, f"no rule pages: write at least one pages/NAME{PAGE_SUFFIX}")
        ]
    try:
        config = ws.config()
        interface = ws.interface()
        moves_path = ws.root / MOVES_FILE
        if moves_path.is_file():
            moves_text = moves_path.read_text(encoding="utf-8")
            if interface is not None and interface.actions and not _has_move_rows(moves_text):
                # roles, noop or returns only: the moves keep the direct mapping
                moves_text = f"{moves_text.rstrip()}\n\n{interface_moves(interface)}"
            spec = parse_moves(moves_text, MOVES_FILE)
        elif interface is not None and interface.actions:
            moves_text = interface_moves(interface)
            spec = parse_moves(moves_text, MOVES_FILE)
        else:
            message = (
                f"the gdl target needs interface.toml (its actions are the moves) or a "
                f"{MOVES_FILE} that maps GDL moves to actions"
            )
            return [Diagnostic(MOVES_FILE, 0, 0, message)]
    except Rulebook2GameError as exc:
        return [Diagnostic(MOVES_FILE, 0, 0, str(exc).removeprefix(f"{MOVES_FILE}: "))]
    sources = [(f"pages/{p.name}", p.read_text(encoding="utf-8", errors="replace")) for p in pages]
    desc = read_description(sources, ws.root, config.players, spec.roles)
    if isinstance(desc, list):
        return desc
    return desc, moves_text, {"returns_range": _returns_range(interface)}


def compile_pages(ws: Workspace, optimized: bool = False) -> GdlCompile:
    """Compile ``ws``'s GDL pages (``optimized`` changes nothing: there is one build)."""
    started = time.perf_counter()
    ws = Workspace(ws.root.resolve())
    front = _front(ws)
    if isinstance(front, list):
        return GdlCompile(False, optimized, tuple(front), seconds=time.perf_counter() - started)
    desc, moves_text, extra = front
    return build_description(desc, ws.build_dir / BUILD_DIR, moves_text, extra, optimized, started)


def check_page_syntax(ws: Workspace) -> GdlCompile:
    """Parse and check the pages without grounding them (fast)."""
    started = time.perf_counter()
    front = _front(Workspace(ws.root.resolve()))
    if isinstance(front, list):
        return GdlCompile(False, False, tuple(front), seconds=time.perf_counter() - started)
    return GdlCompile(True, False, (), None, time.perf_counter() - started)


def _has_move_rows(text: str) -> bool:
    """Whether a ``gdl.toml`` text has ``[[moves]]`` rows (bad TOML: left to the parser)."""
    try:
        return "moves" in tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return True
