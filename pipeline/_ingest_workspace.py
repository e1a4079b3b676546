"""Preparing the game directory for ``ingest``: validate every input, then write.

Nothing is written until every input has been read and checked, and every file is
written atomically, so bad input never leaves a half-made game directory.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook2game.agent.backends import extract, write_rulebook
from rulebook2game.errors import BadInputError, PdfError, Rulebook2GameError, WorkspaceError
from rulebook2game.trace import FILE_MODE, write_text_atomic
from rulebook2game.workspace import Interface, Workspace, load_interface

if TYPE_CHECKING:
    from rulebook2game.extract import Rulebook
    from rulebook2game.ingest import IngestOptions

DEFAULT_PLAYERS = 2
"""Players when neither ``--players`` nor an oracle says (the agent cannot change it)."""


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string


def _slug(name: str) -> str:
    """``Kōnane`` -> ``konane``: accents dropped, not the letters that carry them."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9_]+", "_", plain.lower()).strip("_") or "game"


def _interface(path: Path | None) -> Interface | None:
    if path is None:
        return None
    try:
        return load_interface(path)
    except WorkspaceError as exc:
        raise BadInputError(str(exc)) from None


def _oracle_players(binding: str | None) -> int | None:
    if binding is None:
        return None
    from rulebook2game.oracle.registry import load_oracle

    try:
        return load_oracle(binding).players
    except Rulebook2GameError as exc:
        raise BadInputError(f"--oracle {binding}: {exc}") from None


def _inventory(module: Path | None) -> str | None:
    if module is None:
        return None
    if not module.is_file():
        raise BadInputError(f"{module}: Vassal module not found")
    from rulebook2game.vassal.module import read_module
    from rulebook2game.vassal.render import render_inventory

    return render_inventory(read_module(module))


def game_toml(name: str, title: str, players: int, target: str, oracle: str | None) -> str:
    """The text of a new ``game.toml``."""
    lines = [
        f"name = {_toml_string(name)}",
        f"title = {_toml_string(title)}",
        f"players = {players}",
        f"target = {_toml_string(target)}",
        'rulebook = "rules.pdf"',
    ]
    if oracle:
        lines.append(f"oracle = {_toml_string(oracle)}")
    return "\n".join(lines) + "\n"


def _copy_atomic(source: Path, target: Path) -> None:
    if target.exists() and source.resolve() == target.resolve():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        dir=target.parent, prefix=f".{target.name}.", delete=False
    ) as tmp:
        temp = Path(tmp.name)
    try:
        shutil.copyfile(source, temp)
        temp.chmod(FILE_MODE)
        temp.replace(target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def prepare_workspace(options: IngestOptions) -> tuple[Workspace, Rulebook, str | None]:
    """Make (or refresh) the game directory; return it, the rulebook and the inventory."""
    if not options.rules.is_file():
        raise PdfError(f"{options.rules}: file not found")
    if options.out.exists() and not options.out.is_dir():
        raise BadInputError(f"{options.out}: exists and is not a directory")
    interface = _interface(options.interface)
    players = options.players or _oracle_players(options.oracle) or DEFAULT_PLAYERS
    inventory = _inventory(options.vassal)
    rulebook = extract(options.rules, options.password)
    ws = Workspace(options.out)
    ws.root.mkdir(parents=True, exist_ok=True)
    ws.pages_dir.mkdir(exist_ok=True)
    _copy_atomic(options.rules, ws.root / "rules.pdf")
    write_rulebook(rulebook, ws.rulebook_json)
    if interface is not None and options.interface is not None:
        _copy_atomic(options.interface, ws.root / "interface.toml")
    # the game is named after its rulebook (printed title, else the PDF's file name),
    # never after the output folder
    title = rulebook.title
    name = _slug(title)
    if name[:1].isdigit():
        name = f"game_{name}"
    text = game_toml(name, title, players, options.target, options.oracle)
    write_text_atomic(ws.root / "game.toml", text)
    return ws, rulebook, inventory
