"""``gdl:PATH``: any GDL description as the reference engine of a game directory.

``PATH`` is a ``.kif`` file (or a folder of them), taken relative to the game directory
when it exists there, else to the working directory. The move map is the game
directory's ``gdl.toml`` (:mod:`~rulebook2game.targets.gdl.moves`), so the description
itself stays as its authors wrote it. It is parsed, checked and grounded (under the same
bound) exactly as GDL pages are, and its build is kept in the game's
``build/gdl-oracle/``.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from rulebook2game.errors import OracleError, Rulebook2GameError
from rulebook2game.targets.gdl.compile import _returns_range, build_description, read_description
from rulebook2game.targets.gdl.engine import GdlEngine
from rulebook2game.targets.gdl.moves import MOVES_FILE, read_moves
from rulebook2game.workspace import Workspace

ORACLE_BUILD = "gdl-oracle"


def _resolve(path: str, game_dir: Path | None) -> Path:
    candidate = Path(path).expanduser()
    if not candidate.is_absolute() and game_dir is not None and (game_dir / candidate).exists():
        return game_dir / candidate
    if candidate.exists():
        return candidate
    raise OracleError(f"gdl:{path}: no such file")


def load_gdl_oracle(path: str, game_dir: Path | None) -> GdlEngine:
    """The engine of the description at ``path``, speaking ``game_dir``'s interface.

    Raises:
        OracleError: no such file, no ``gdl.toml``, or the description does not compile
            (the first error, with its file and line).
    """
    if not path.strip():
        raise OracleError("gdl: needs a path to a .kif file (gdl:PATH.kif)")
    source = _resolve(path.strip(), game_dir)
    files = sorted(source.glob("*.kif")) if source.is_dir() else [source]
    if not files:
        raise OracleError(f"gdl:{path}: no .kif file in that folder")
    if game_dir is None or not (game_dir / MOVES_FILE).is_file():
        raise OracleError(
            f"gdl:{path}: the game directory needs a {MOVES_FILE} that maps the "
            "description's moves to its actions (see the README)"
        )
    ws = Workspace(game_dir.resolve())
    started = time.perf_counter()
    try:
        config = ws.config()
        moves_text = (game_dir / MOVES_FILE).read_text(encoding="utf-8")
        spec = read_moves(game_dir / MOVES_FILE)
        sources = [(str(f), f.read_text(encoding="utf-8", errors="replace")) for f in files]
        desc = read_description(sources, Path("."), config.players, spec.roles)
        if isinstance(desc, list):
            first = desc[0]
            raise OracleError(f"gdl:{path}: {first.location}: {first.message}")
        extra = {"returns_range": _returns_range(ws.interface()), "oracle": True}
        build_root = ws.build_dir / ORACLE_BUILD
        try:
            build_root.mkdir(parents=True, exist_ok=True)
        except OSError:
            build_root = Path(tempfile.mkdtemp(prefix="r2g-gdl-oracle-"))
        result = build_description(desc, build_root, moves_text, extra, False, started)
        build = result.build
        if build is None:
            raise OracleError(f"gdl:{path}: {result.summary()}")
        return GdlEngine.from_build(build, game=source.stem)
    except OracleError:
        raise
    except Rulebook2GameError as exc:
        raise OracleError(f"gdl:{path}: {exc}") from exc
