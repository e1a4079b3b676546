"""Compile RBG pages: parse, expand macros, check, lower to rl, build with the rl target.

The route is the rulepage target's: the generated program is an rl game directory of its
own under ``build/rbg/`` compiled (and cached) by
:func:`rulebook2game.targets.rl.compile.compile_workspace`; its diagnostics and runtime
faults are mapped back to the RBG page line by the same source map.
"""

from __future__ import annotations

import time

from rulebook2game.errors import Rulebook2GameError
from rulebook2game.targets.rbg.lower import Lowered, lower
from rulebook2game.targets.rbg.mapping import FILE as MAPPING_FILE
from rulebook2game.targets.rbg.mapping import MappingError, mapping_from_pages, read_mapping
from rulebook2game.targets.rbg.model import describe
from rulebook2game.targets.rbg.syntax import RbgProblem
from rulebook2game.targets.rl.compile import CompileResult, check_syntax, compile_workspace
from rulebook2game.targets.rl.diagnostics import Diagnostic
from rulebook2game.targets.rulepage.compile import (
    RulePageBuild,
    RulePageCompile,
    generated_workspace,
    map_diagnostic,
    source_line,
)
from rulebook2game.workspace import Workspace

PAGE_SUFFIX = ".rbg"
GENERATED_DIR = "rbg"
"""Folder of ``build/`` holding the generated program's own workspace."""
NOTE = (
    "the first fault stops the RBG front end (and rlc stops at its first error); "
    "fix it and compile again"
)

RbgBuild = RulePageBuild
"""A compiled RBG game: the rl build of the generated program and its source map."""
RbgCompile = RulePageCompile
"""The outcome of compiling RBG pages (same shape as a RulePage compile)."""


def _problem(ws: Workspace, exc: RbgProblem) -> Diagnostic:
    at = exc.at
    return Diagnostic(
        at.file,
        at.line,
        at.column,
        exc.message,
        "error",
        (),
        source_line(ws.root, at.file, at.line),
    )


def lower_workspace(ws: Workspace) -> Lowered | list[Diagnostic]:
    """The generated program of ``ws``'s RBG pages, or the diagnostics that prevent it."""
    files = sorted(ws.pages_dir.glob(f"*{PAGE_SUFFIX}"))
    if not files:
        return [
            Diagnostic("pages", 0, 0, f"no rule pages: write at least one pages/NAME{PAGE_SUFFIX}")
        ]
    pages = [(f"pages/{p.name}", p.read_text(encoding="utf-8", errors="replace")) for p in files]
    try:
        desc = describe(pages)
    except RbgProblem as exc:
        return [_problem(ws, exc)]
    try:
        interface = ws.interface()
        config = ws.config()
    except Rulebook2GameError as exc:
        return [Diagnostic("game", 0, 0, str(exc))]
    if interface is None:
        return [Diagnostic("interface.toml", 0, 0, "the rbg target needs interface.toml")]
    if interface.chance.actions:
        return [
            Diagnostic(
                "interface.toml",
                0,
                0,
                "RBG describes deterministic games with perfect information: a game with "
                "chance actions cannot be an rbg game",
            )
        ]
    if len(desc.players) != config.players:
        return [
            Diagnostic(
                desc.spans["players"].file,
                desc.spans["players"].line,
                desc.spans["players"].column,
                f"#players names {len(desc.players)} players, game.toml says {config.players}",
            )
        ]
    ranged = [
        f"{a.name}.{x.name}" for a in interface.actions for x in a.args if x.values is not None
    ]
    if ranged:
        return [
            Diagnostic(
                "interface.toml",
                0,
                0,
                f"the rbg target needs min/max arguments; {ranged[0]} lists values",
            )
        ]
    has_file = (ws.root / MAPPING_FILE).is_file()
    if "moves" in desc.extras:
        at = desc.spans["moves"]
        if has_file:
            return [
                Diagnostic(
                    at.file,
                    at.line,
                    at.column,
                    f"#moves and {MAPPING_FILE} both map the moves: keep one",
                )
            ]
        try:
            mapping = mapping_from_pages(desc.extras, desc.spans, interface)
        except RbgProblem as exc:
            return [_problem(ws, exc)]
    else:
        try:
            mapping = read_mapping(ws.root, interface)
        except MappingError as exc:
            message = str(exc).removeprefix(f"{MAPPING_FILE}: ")
            if not has_file:
                message += " (or write `#moves = ...` on a page)"
            return [Diagnostic(MAPPING_FILE, 0, 0, message)]
    return lower(desc, interface, mapping)


def _finish(ws: Workspace, lowered: Lowered, result: CompileResult, started: float) -> RbgCompile:
    seconds = time.perf_counter() - started
    if not result.ok:
        mapped = tuple(map_diagnostic(ws.root, d, lowered.source_map) for d in result.diagnostics)
        return RbgCompile(False, result.optimized, mapped, seconds=seconds, complete=False)
    if result.build is None:
        return RbgCompile(True, result.optimized, (), None, seconds)
    build = RbgBuild(result.build, lowered.source_map)
    return RbgCompile(True, result.optimized, (), build, seconds, result.cached)


def compile_pages(ws: Workspace, optimized: bool = False, *, coverage: bool = False) -> RbgCompile:
    """Compile ``ws``'s RBG pages (checked build unless ``optimized``; ``coverage``: the
    rl coverage build of the generated program, whose probes map to page lines through
    the source map)."""
    started = time.perf_counter()
    ws = Workspace(ws.root.resolve())
    lowered = lower_workspace(ws)
    if isinstance(lowered, list):
        return RbgCompile(False, optimized, tuple(lowered), seconds=time.perf_counter() - started)
    generated = generated_workspace(ws, lowered.source, GENERATED_DIR)
    compiled = compile_workspace(generated, optimized=optimized, coverage=coverage)
    return _finish(ws, lowered, compiled, started)


def check_page_syntax(ws: Workspace) -> RbgCompile:
    """Parse, check and lower the pages and type-check the program without building it."""
    started = time.perf_counter()
    ws = Workspace(ws.root.resolve())
    lowered = lower_workspace(ws)
    if isinstance(lowered, list):
        return RbgCompile(False, False, tuple(lowered), seconds=time.perf_counter() - started)
    generated = generated_workspace(ws, lowered.source, GENERATED_DIR)
    return _finish(ws, lowered, check_syntax(generated), started)
