"""Compile RulePage pages: parse, compose, lower to one rl program, build it with the rl target.

The generated program is written to ``build/rulepage/pages/generated.rl`` (a workspace of
its own) and compiled by :func:`rulebook2game.targets.rl.compile.compile_workspace`, so
it gets the same checked and optimized builds, cached by a hash of the program, and
runs in the same sandboxed worker. Every diagnostic that points into the generated
program is mapped back to the page line it came from.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from pathlib import Path

from rulebook2game.errors import CompileError, Rulebook2GameError
from rulebook2game.targets.base import compiled_line
from rulebook2game.targets.rl.compile import CompileResult, RlBuild, check_syntax, compile_workspace
from rulebook2game.targets.rl.coverage import read_probes
from rulebook2game.targets.rl.diagnostics import Diagnostic, Remark
from rulebook2game.targets.rulepage.lower import Lowered, compose
from rulebook2game.targets.rulepage.sourcemap import GENERATED, SourceMap
from rulebook2game.targets.rulepage.syntax import Page, PageProblem, parse_page
from rulebook2game.trace import write_text_atomic
from rulebook2game.workspace import Workspace

PAGE_SUFFIX = ".page"
GENERATED_DIR = "rulepage"
"""Folder of ``build/`` holding the generated program's own workspace."""
SLOT_DRAW = "loop/r2g_slot_draw.rl"
"""The generated program's slot draw, in its workspace (not among its pages: it is
compiled into the library only)."""
NOTE = "rlc stops at the first error in the generated program; fix it and compile again"


@dataclass(frozen=True)
class RulePageBuild:
    """A compiled RulePage game: the rl build of the generated program and its source map."""

    rl: RlBuild
    source_map: SourceMap

    @property
    def directory(self) -> Path:
        return self.rl.directory

    @property
    def optimized(self) -> bool:
        return self.rl.optimized


@dataclass(frozen=True)
class RulePageCompile:
    """The outcome of compiling RulePage pages."""

    ok: bool
    optimized: bool
    diagnostics: tuple[Diagnostic, ...] = ()
    build: RulePageBuild | None = None
    seconds: float = 0.0
    cached: bool = False
    complete: bool = True
    """False when the errors came from rlc, which stops at the first."""

    def summary(self) -> str:
        """One line: ``compiled ...`` or the first error's location and message."""
        if self.ok:
            flavour = "optimized" if self.optimized else "checked"
            return compiled_line(flavour, self.cached, self.seconds)
        if not self.diagnostics:
            return "compile failed"
        first = self.diagnostics[0]
        return f"{first.location}: {first.message}"

    def require(self) -> RulePageBuild:
        """The build; raise :class:`CompileError` when the compile failed."""
        if self.build is None:
            raise CompileError(self.summary())
        return self.build


def read_pages(ws: Workspace) -> list[Page]:
    """Every page of ``ws``, parsed."""
    return [
        parse_page(p.stem, f"pages/{p.name}", p.read_text(encoding="utf-8", errors="replace"))
        for p in sorted(ws.pages_dir.glob(f"*{PAGE_SUFFIX}"))
    ]


def source_line(root: Path, file: str, line: int) -> str | None:
    """Line ``line`` of page ``file`` (tabs expanded), for a diagnostic; ``None`` if absent."""
    try:
        lines = (root / file).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return lines[line - 1].expandtabs(4) if 1 <= line <= len(lines) else None


def problem_diagnostic(root: Path, problem: PageProblem) -> Diagnostic:
    """A page problem as a diagnostic (with the offending source line)."""
    at = problem.at
    return Diagnostic(
        at.file,
        at.line,
        at.column,
        problem.message,
        "error",
        (),
        source_line(root, at.file, at.line),
    )


def map_diagnostic(root: Path, d: Diagnostic, source_map: SourceMap) -> Diagnostic:
    """``d`` at the page line the generated line came from."""
    message = source_map.rewrite(d.message)
    remarks = tuple(
        Remark(*found, source_map.rewrite(r.message))
        if r.file == GENERATED and (found := source_map.find(r.line, r.column))
        else replace(r, message=source_map.rewrite(r.message))
        for r in d.remarks
    )
    found = source_map.find(d.line, d.column) if d.file == GENERATED else None
    if found is None:
        return replace(d, message=message, remarks=remarks)
    file, line, column = found
    return Diagnostic(
        file, line, column, message, d.severity, remarks, source_line(root, file, line)
    )


def lower_workspace(ws: Workspace) -> Lowered | list[Diagnostic]:
    """The generated program of ``ws``'s pages, or the diagnostics that prevent it."""
    pages = read_pages(ws)
    if not pages:
        return [
            Diagnostic("pages", 0, 0, f"no rule pages: write at least one pages/NAME{PAGE_SUFFIX}")
        ]
    try:
        interface = ws.interface()
        players = ws.config().players
    except Rulebook2GameError as exc:
        return [Diagnostic("game", 0, 0, str(exc))]
    if interface is None:
        return [Diagnostic("interface.toml", 0, 0, "the rulepage target needs interface.toml")]
    lowered = compose(pages, interface, players)
    if isinstance(lowered, list):
        return [problem_diagnostic(ws.root, p) for p in lowered]
    return lowered


def _write_if_changed(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    if old != text:
        write_text_atomic(path, text)


def generated_workspace(ws: Workspace, source: str, folder: str = GENERATED_DIR) -> Workspace:
    """The generated program ``source`` as an rl game directory of its own in
    ``build/FOLDER`` (same name, players and action interface), so the rl target
    compiles and checks it like any rl game."""
    root = ws.build_dir / folder
    (root / GENERATED).parent.mkdir(parents=True, exist_ok=True)
    _write_if_changed(root / GENERATED, source)
    config = ws.config()
    _write_if_changed(
        root / "game.toml",
        f'name = {json.dumps(config.name)}\nplayers = {config.players}\ntarget = "rl"\n',
    )
    interface = ws.root / "interface.toml"
    if interface.is_file():
        _write_if_changed(root / "interface.toml", interface.read_text(encoding="utf-8"))
    return Workspace(root)


def _finish(
    ws: Workspace, lowered: Lowered, result: CompileResult, started: float
) -> RulePageCompile:
    seconds = time.perf_counter() - started
    if not result.ok:
        mapped = tuple(map_diagnostic(ws.root, d, lowered.source_map) for d in result.diagnostics)
        return RulePageCompile(False, result.optimized, mapped, seconds=seconds, complete=False)
    if result.build is None:  # a syntax check: nothing was built
        return RulePageCompile(True, result.optimized, (), None, seconds)
    build = RulePageBuild(result.build, lowered.source_map)
    return RulePageCompile(True, result.optimized, (), build, seconds, result.cached)


def coverage_lines(build: RlBuild, source_map: SourceMap) -> tuple[tuple[str, int], ...]:
    """The page line of each probe of a coverage build of a generated program (through
    its source map; ``("", 0)`` for a probe in glue the target wrote on its own)."""
    return tuple(source_map.written(line) or ("", 0) for _, line in read_probes(build.directory))


def compile_pages(
    ws: Workspace, optimized: bool = False, *, coverage: bool = False
) -> RulePageCompile:
    """Compile ``ws``'s RulePage pages (checked build unless ``optimized``; ``coverage``:
    the rl coverage build of the generated program, whose probes map to page lines
    through the source map)."""
    started = time.perf_counter()
    ws = Workspace(ws.root.resolve())
    lowered = lower_workspace(ws)
    if isinstance(lowered, list):
        return RulePageCompile(
            False, optimized, tuple(lowered), seconds=time.perf_counter() - started
        )
    generated = generated_workspace(ws, lowered.source)
    compiled = compile_workspace(
        generated, optimized=optimized, coverage=coverage, slot_draw=slot_draw(generated, lowered)
    )
    return _finish(ws, lowered, compiled, started)


def slot_draw(generated: Workspace, lowered: Lowered) -> Path | None:
    """The lowered program's slot draw as a file beside the generated workspace's pages
    (for ``compile_workspace``), or None when no page gives slots."""
    path = generated.root / SLOT_DRAW
    if not lowered.slot_draw:
        path.unlink(missing_ok=True)
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_if_changed(path, lowered.slot_draw)
    return path


def check_page_syntax(ws: Workspace) -> RulePageCompile:
    """Parse, compose and type-check the generated program without building a library."""
    started = time.perf_counter()
    ws = Workspace(ws.root.resolve())
    lowered = lower_workspace(ws)
    if isinstance(lowered, list):
        return RulePageCompile(False, False, tuple(lowered), seconds=time.perf_counter() - started)
    generated = generated_workspace(ws, lowered.source)
    return _finish(ws, lowered, check_syntax(generated), started)
