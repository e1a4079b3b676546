"""Saving and loading ``rulebook.json``: atomic writes, validated reads."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from rulebook2game.errors import BadInputError
from rulebook2game.extract.model import Rulebook
from rulebook2game.trace import write_text_atomic


def write_rulebook(rulebook: Rulebook, path: Path) -> None:
    """Write ``rulebook`` as JSON to ``path``; a reader never sees a half-written file."""
    write_text_atomic(Path(path), rulebook.model_dump_json(indent=1) + "\n")


def load_rulebook(path: Path) -> Rulebook:
    """Read a ``rulebook.json`` written by :func:`write_rulebook`.

    Raises:
        BadInputError: the file is missing or is not a valid rulebook.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInputError(f"{path} cannot be read: {exc.strerror or exc}") from exc
    try:
        return Rulebook.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadInputError(f"{path} is not a valid rulebook ({where}: {first['msg']})") from exc
