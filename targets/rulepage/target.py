"""The ``rulepage`` target behind the plug-in interface of :mod:`rulebook2game.targets.base`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulebook2game.targets.base import CoverageBuild, MutationOperator
from rulebook2game.targets.rl.target import worker_limits
from rulebook2game.targets.rulepage.compile import (
    NOTE,
    PAGE_SUFFIX,
    RulePageBuild,
    RulePageCompile,
    check_page_syntax,
    compile_pages,
    coverage_lines,
)
from rulebook2game.targets.rulepage.engine import RulePageEngine
from rulebook2game.targets.rulepage.mutate import OPERATORS
from rulebook2game.workspace import Workspace

_HERE = Path(__file__).resolve().parent


class RulePageTarget:
    """RulePage pages lowered to one rl program, compiled by ``rlc``."""

    name = "rulepage"
    page_suffix = PAGE_SUFFIX
    reference = _HERE / "reference.md"
    one_error_note: str | None = NOTE
    mutation_operators: tuple[tuple[str, MutationOperator], ...] = OPERATORS
    presentation = frozenset({"show"})

    def compile(self, ws: Workspace, *, optimized: bool = False) -> RulePageCompile:
        """See :func:`~rulebook2game.targets.rulepage.compile.compile_pages`."""
        return compile_pages(ws, optimized=optimized)

    def native_wrapper(self, build: Any) -> Path:
        """The wrapper of the generated rl program's build."""
        if not isinstance(build, RulePageBuild):
            raise TypeError(f"not a rulepage build: {build!r}")
        return build.rl.wrapper

    def check_syntax(self, ws: Workspace) -> RulePageCompile:
        """See :func:`~rulebook2game.targets.rulepage.compile.check_page_syntax`."""
        return check_page_syntax(ws)

    def coverage_build(self, ws: Workspace) -> CoverageBuild | str:
        """The probed build of the generated program, its probes at page lines."""
        made = compile_pages(ws, coverage=True)
        if not isinstance(made.build, RulePageBuild):
            return f"the coverage build failed: {made.summary()}"
        return CoverageBuild(made.build, coverage_lines(made.build.rl, made.build.source_map))

    def start_engine(
        self, build: Any, *, game: str, request_timeout: float | None = None
    ) -> RulePageEngine:
        """A :class:`RulePageEngine` on ``build`` (a :class:`RulePageBuild`)."""
        if not isinstance(build, RulePageBuild):
            raise TypeError(f"not a rulepage build: {build!r}")
        return RulePageEngine(build, game=game, limits=worker_limits(request_timeout))


TARGET = RulePageTarget()
