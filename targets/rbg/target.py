"""The ``rbg`` target behind the plug-in interface of :mod:`rulebook2game.targets.base`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulebook2game.targets.base import CoverageBuild, MutationOperator
from rulebook2game.targets.rbg.compile import (
    NOTE,
    PAGE_SUFFIX,
    RbgBuild,
    RbgCompile,
    check_page_syntax,
    compile_pages,
)
from rulebook2game.targets.rbg.engine import RbgEngine
from rulebook2game.targets.rbg.mutate import OPERATORS
from rulebook2game.targets.rl.target import worker_limits
from rulebook2game.targets.rulepage.compile import coverage_lines
from rulebook2game.workspace import Workspace

_HERE = Path(__file__).resolve().parent


class RbgTarget:
    """Regular Boardgames pages lowered to one rl program, compiled by ``rlc``."""

    name = "rbg"
    page_suffix = PAGE_SUFFIX
    reference = _HERE / "reference.md"
    one_error_note: str | None = NOTE
    mutation_operators: tuple[tuple[str, MutationOperator], ...] = OPERATORS
    presentation: frozenset[str] = frozenset()

    def compile(self, ws: Workspace, *, optimized: bool = False) -> RbgCompile:
        """See :func:`~rulebook2game.targets.rbg.compile.compile_pages`."""
        return compile_pages(ws, optimized=optimized)

    def native_wrapper(self, build: Any) -> Path:
        """The wrapper of the generated rl program's build."""
        if not isinstance(build, RbgBuild):
            raise TypeError(f"not an rbg build: {build!r}")
        return build.rl.wrapper

    def check_syntax(self, ws: Workspace) -> RbgCompile:
        """See :func:`~rulebook2game.targets.rbg.compile.check_page_syntax`."""
        return check_page_syntax(ws)

    def coverage_build(self, ws: Workspace) -> CoverageBuild | str:
        """The probed build of the generated program, its probes at page lines."""
        made = compile_pages(ws, coverage=True)
        if not isinstance(made.build, RbgBuild):
            return f"the coverage build failed: {made.summary()}"
        return CoverageBuild(made.build, coverage_lines(made.build.rl, made.build.source_map))

    def start_engine(
        self, build: Any, *, game: str, request_timeout: float | None = None
    ) -> RbgEngine:
        """An :class:`RbgEngine` on ``build``."""
        if not isinstance(build, RbgBuild):
            raise TypeError(f"not an rbg build: {build!r}")
        return RbgEngine(build, game=game, limits=worker_limits(request_timeout))


TARGET = RbgTarget()
