"""``load``: a game directory's optimized build, in this process, once it passed check."""

from __future__ import annotations

from pathlib import Path

from rulebook2game.errors import CompileError, NotCheckedError
from rulebook2game.game._game import Game
from rulebook2game.game._native import native_game
from rulebook2game.game._trust import check_status
from rulebook2game.targets import get_target
from rulebook2game.workspace import open_workspace


def load(game_dir: str | Path, *, trust: bool = False) -> Game:
    """Load a game directory for play from Python, in this process.

    The game runs as native code inside the calling process, built with ``-O2``
    (no precondition or bounds checks): fast, and unprotected. Rule pages are
    generated code and untrusted until ``rulebook2game check GAME_DIR`` has passed on
    exactly these pages, so ``load`` refuses a game whose latest check report did not
    pass or is older than its pages. ``trust=True`` loads it anyway: only for pages
    you wrote or reviewed yourself.

    Args:
        game_dir: a game directory (``game.toml``, ``pages/``).
        trust: load even without a passing check of the current pages.

    Returns:
        The loaded :class:`~rulebook2game.game.Game`.

    Raises:
        BadWorkspaceError: ``game_dir`` is not a game directory.
        NotCheckedError: the current pages have not passed ``check`` (and not ``trust``).
        CompileError: the pages do not compile.
    """
    ws = open_workspace(Path(game_dir))
    if not trust:
        status = check_status(ws)
        if not status.passed:
            raise NotCheckedError(
                f"{ws.root}: {status.why} (or load it with trust=True if you trust the pages)"
            )
    config = ws.config()
    target = get_target(config.target)
    compiled = target.compile(ws, optimized=True)
    if compiled.build is None:
        raise CompileError(compiled.summary())
    wrapper = target.native_wrapper(compiled.build)
    return Game(native_game(wrapper), config.name, ws.root, config.max_game_length)
