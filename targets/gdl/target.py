"""The ``gdl`` target behind the plug-in interface of :mod:`rulebook2game.targets.base`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulebook2game.errors import CompileError
from rulebook2game.targets.base import CoverageBuild, MutationOperator
from rulebook2game.targets.gdl.compile import (
    PAGE_SUFFIX,
    GdlBuild,
    GdlCompile,
    check_page_syntax,
    compile_pages,
)
from rulebook2game.targets.gdl.engine import GdlEngine
from rulebook2game.targets.gdl.mutate import OPERATORS
from rulebook2game.workspace import Workspace

_HERE = Path(__file__).resolve().parent


class GdlTarget:
    """Game Description Language pages (KIF), grounded once by clingo."""

    name = "gdl"
    page_suffix = PAGE_SUFFIX
    reference = _HERE / "reference.md"
    one_error_note: str | None = None
    mutation_operators: tuple[tuple[str, MutationOperator], ...] = OPERATORS
    presentation: frozenset[str] = frozenset()

    def compile(self, ws: Workspace, *, optimized: bool = False) -> GdlCompile:
        """See :func:`~rulebook2game.targets.gdl.compile.compile_pages`."""
        return compile_pages(ws, optimized=optimized)

    def check_syntax(self, ws: Workspace) -> GdlCompile:
        """See :func:`~rulebook2game.targets.gdl.compile.check_page_syntax`."""
        return check_page_syntax(ws)

    def coverage_build(self, ws: Workspace) -> CoverageBuild | str:
        """None: the grounded program runs in the engine, with no probes to read."""
        return "the gdl target has no coverage build"

    def native_wrapper(self, build: Any) -> Path:
        """GDL has no native library: ``load`` uses the engine itself."""
        raise CompileError("the gdl target builds no native library; use its engine")

    def start_engine(
        self, build: Any, *, game: str, request_timeout: float | None = None
    ) -> GdlEngine:
        """A :class:`GdlEngine` on ``build`` (a :class:`GdlBuild`)."""
        if not isinstance(build, GdlBuild):
            raise TypeError(f"not a gdl build: {build!r}")
        return GdlEngine.from_build(build, game=game)


TARGET = GdlTarget()
