"""The engine of an RBG game: the rl engine of its generated program, speaking RBG pages."""

from __future__ import annotations

from rulebook2game.targets.rbg.compile import RbgBuild
from rulebook2game.targets.rl.worker import WorkerLimits
from rulebook2game.targets.rulepage.engine import RulePageEngine


class RbgEngine(RulePageEngine):
    """A compiled RBG game as an :class:`~rulebook2game.engine.Engine`; faults at page lines."""

    def __init__(
        self, build: RbgBuild, *, game: str = "game", limits: WorkerLimits | None = None
    ) -> None:
        super().__init__(build, game=game, limits=limits)
        self._name = f"rbg:{game}"
        self.candidate_hook = "the slots read from the rules' search (targets/rbg/slots.py)"
