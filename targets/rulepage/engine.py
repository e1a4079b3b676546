"""The engine of a RulePage game: the rl engine of its generated program, speaking pages.

Everything runs as in :class:`~rulebook2game.targets.rl.engine.RlEngine` (the sandboxed
worker, native playouts); a fault raised by generated code is reported at the page
line it came from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rulebook2game.errors import EngineFault, WorkerError
from rulebook2game.targets.rl.engine import RlEngine, RlState
from rulebook2game.targets.rl.worker import RlWorker, WorkerLimits
from rulebook2game.targets.rulepage.compile import RulePageBuild

T = TypeVar("T")


class RulePageEngine(RlEngine):
    """A compiled RulePage game as an :class:`~rulebook2game.engine.Engine`."""

    def __init__(
        self, build: RulePageBuild, *, game: str = "game", limits: WorkerLimits | None = None
    ) -> None:
        self.source_map = build.source_map
        try:
            super().__init__(build.rl, game=game, limits=limits)
        except WorkerError as exc:
            raise WorkerError(self.source_map.rewrite(str(exc))) from None
        self._name = f"rulepage:{game}"
        self.candidate_hook = "a `slots` clause"

    def _call(self, request: Callable[[RlWorker], T], what: str, state: RlState | None = None) -> T:
        try:
            return super()._call(request, what, state)
        except EngineFault as exc:
            raise EngineFault(exc.kind, self.source_map.rewrite(exc.message)) from None
