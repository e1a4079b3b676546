"""The ``rl`` target behind the plug-in interface of :mod:`rulebook2game.targets.base`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulebook2game.targets.base import CoverageBuild, MutationOperator
from rulebook2game.targets.rl.compile import CompileResult, RlBuild, check_syntax, compile_workspace
from rulebook2game.targets.rl.coverage import read_probes
from rulebook2game.targets.rl.diagnostics import ONE_ERROR_NOTE
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.targets.rl.worker import WorkerLimits
from rulebook2game.workspace import Workspace

_HERE = Path(__file__).resolve().parent


def worker_limits(request_timeout: float | None) -> WorkerLimits | None:
    """Worker limits for ``request_timeout`` CPU seconds a request (``None``: defaults)."""
    if request_timeout is None:
        return None
    return WorkerLimits(cpu_seconds=float(request_timeout), wall_seconds=2.0 * request_timeout)


class RlTarget:
    """Pages written in rl, compiled by ``rlc``, run in the sandboxed worker."""

    name = "rl"
    page_suffix = ".rl"
    reference = _HERE / "reference.md"
    one_error_note: str | None = ONE_ERROR_NOTE
    mutation_operators: tuple[tuple[str, MutationOperator], ...] = ()
    presentation = frozenset({"pretty_print"})

    def compile(self, ws: Workspace, *, optimized: bool = False) -> CompileResult:
        """See :func:`~rulebook2game.targets.rl.compile.compile_workspace`."""
        return compile_workspace(ws, optimized=optimized)

    def native_wrapper(self, build: Any) -> Path:
        """The rlc-generated ``wrapper.py`` of an :class:`RlBuild`."""
        return Path(build.wrapper)

    def check_syntax(self, ws: Workspace) -> CompileResult:
        """See :func:`~rulebook2game.targets.rl.compile.check_syntax`."""
        return check_syntax(ws)

    def coverage_build(self, ws: Workspace) -> CoverageBuild | str:
        """The probed build of the pages (:mod:`rulebook2game.targets.rl.coverage`)."""
        result = compile_workspace(ws, coverage=True)
        if result.build is None:
            return f"the coverage build failed: {result.summary()}"
        return CoverageBuild(result.build, read_probes(result.build.directory))

    def start_engine(
        self, build: Any, *, game: str, request_timeout: float | None = None
    ) -> RlEngine:
        """An :class:`RlEngine` on ``build`` (an :class:`RlBuild`)."""
        if not isinstance(build, RlBuild):
            raise TypeError(f"not an rl build: {build!r}")
        return RlEngine(build, game=game, limits=worker_limits(request_timeout))


TARGET = RlTarget()
