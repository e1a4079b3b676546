"""Saving and loading ``rulebook.json``: atomic writes, validated reads."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from pydantic import ValidationError

from rulebook2game.errors import BadInputError
from rulebook2game.extract.model import Rulebook


def write_rulebook(rulebook: Rulebook, path: Path) -> None:
    """Write ``rulebook`` as JSON to ``path``; a reader never sees a half-written file."""
    path = Path(path)
    data = rulebook.model_dump_json(indent=1) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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
