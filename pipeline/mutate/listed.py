"""Hand-written mutants listed in a TOML file (a second mutant set, not made by the operators).

::

    [[connect_four]]
    id = "draw-scores-loss"
    page = "win"
    before = "if !g.is_done() or g.winner == -1:"
    after = "if !g.is_done():"
    why = "A drawn game scores -1 for both players."

``before`` must occur exactly once in the page; the mutant replaces it with ``after``.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from rulebook2game.errors import BadInputError
from rulebook2game.mutate.mutants import Mutant

OPERATOR = "listed"


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    page: str
    before: str
    after: str
    why: str


def listed_mutants(path: Path, game: str, pages: Mapping[str, str]) -> list[Mutant]:
    """The mutants listed for ``game`` in ``path``, applied to ``pages`` (by name).

    Raises :class:`BadInputError` for an unreadable file, a malformed entry, or an
    entry whose page is missing or whose ``before`` text is not found exactly once.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BadInputError(f"{path}: cannot read ({exc})") from None
    out: list[Mutant] = []
    for raw in data.get(game, []):
        try:
            entry = _Entry.model_validate(raw)
        except ValidationError as exc:
            raise BadInputError(f"{path}: [[{game}]]: {exc.errors()[0]['msg']}") from None
        text = pages.get(entry.page)
        if text is None:
            raise BadInputError(f"{path}: {game}/{entry.id}: no page {entry.page!r}")
        if text.count(entry.before) != 1:
            found = text.count(entry.before)
            raise BadInputError(
                f"{path}: {game}/{entry.id}: `before` occurs {found} times in {entry.page}"
            )
        source = text.replace(entry.before, entry.after)
        line = text[: text.index(entry.before)].count("\n") + 1
        diff = "".join(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                source.splitlines(keepends=True),
                f"a/pages/{entry.page}.rl",
                f"b/pages/{entry.page}.rl",
                n=1,
            )
        )
        before_line = text.splitlines()[line - 1].strip()
        at = text.index(entry.before)
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        out.append(
            Mutant(
                id=f"{entry.page}:{line}:{OPERATOR}:{entry.id}",
                page=entry.page,
                line=line,
                operator=OPERATOR,
                description=entry.why,
                source=source,
                diff=diff,
                before=before_line,
                column=column,
            )
        )
    return out
