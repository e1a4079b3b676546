"""Rule sentences the engine deliberately does not implement: ``scope.toml``.

A rulebook holds rules an engine of one game has no business with: tournament scoring
over several games, an optional variant, how to shuffle or hold the cards. The
translator declares them in ``GAME_DIR/scope.toml``, each with the reason (by hand, or
with the agent tool ``mark_out_of_scope``)::

    [[out_of_scope]]
    sentences = ["7.2#1", "7.2#2"]    # sentence ids, or a section id for all of its
    why = "tournament scoring over several games: the engine plays one game"

Coverage (:func:`rulebook2game.check.sentences.coverage`) counts them apart: ``N rule
sentences, M cited, K out of scope``, never as uncited and never as covered. An id the
rulebook lacks is a compile error naming the file and line
(:func:`rulebook2game.check.citations.unknown_citations`); a malformed file is a bad
game directory.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebook2game.errors import BadWorkspaceError
from rulebook2game.trace import write_text_atomic

if TYPE_CHECKING:  # the diff package reads scope.toml through this module
    from rulebook2game.diff.rules import RuleText

SCOPE_FILE = "scope.toml"
"""The file of a game directory that declares what is out of scope."""
TABLE = "out_of_scope"
HEADER = (
    "# Rule sentences this engine deliberately does not implement, and why.\n"
    "# `rulebook2game check` counts them apart (out of scope), never as cited or uncited.\n"
    "# `sentences`: sentence ids (7.2#1), or a section id (7.2) for all of its sentences.\n"
)


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sentences: list[str] = Field(min_length=1)
    why: str = Field(min_length=1)


@dataclass(frozen=True)
class OutOfScope:
    """One declaration: the sentences (or sections), why, and where each id is written."""

    sentences: tuple[str, ...]
    why: str
    lines: tuple[int, ...]
    """1-based line of each id in ``scope.toml`` (the entry's header line when not found)."""


def _id_lines(text: str, ids: Sequence[str], start: int) -> tuple[int, ...]:
    """The line of each id, searched from the entry's header line ``start`` on."""
    rows = text.splitlines()
    out = []
    for cite in ids:
        quoted = (json.dumps(cite), f"'{cite}'")
        found = next(
            (n for n in range(start, len(rows) + 1) if any(q in rows[n - 1] for q in quoted)),
            start,
        )
        out.append(found)
    return tuple(out)


def read_scope(root: Path) -> tuple[OutOfScope, ...]:
    """The declarations of ``root/scope.toml`` (none without the file).

    Raises:
        BadWorkspaceError: the file is not TOML, or an entry lacks its sentences or why.
    """
    path = root / SCOPE_FILE
    if not path.is_file():
        return ()
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
        entries = [_Entry.model_validate(e) for e in data.get(TABLE, [])]
        unknown = sorted(set(data) - {TABLE})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValidationError) as exc:
        first = str(exc).splitlines()[0]
        why = f"not a valid list of out-of-scope sentences ({first})"
        raise BadWorkspaceError(f"{path}: {why}") from None
    if unknown:
        raise BadWorkspaceError(f"{path}: unknown key {unknown[0]!r} (expected [[{TABLE}]])")
    headers = [n for n, row in enumerate(text.splitlines(), 1) if row.strip() == f"[[{TABLE}]]"]
    out = []
    for i, entry in enumerate(entries):
        if not entry.why.strip():
            raise BadWorkspaceError(f"{path}: entry {i + 1} has an empty `why`")
        start = headers[i] if i < len(headers) else 1
        ids = tuple(s.strip() for s in entry.sentences)
        out.append(OutOfScope(ids, entry.why.strip(), _id_lines(text, ids, start)))
    return tuple(out)


def reasons(text: RuleText, declared: Sequence[OutOfScope]) -> dict[str, str]:
    """Sentence id -> why, for every sentence a declaration covers (sections expanded)."""
    out: dict[str, str] = {}
    for entry in declared:
        for cite in entry.sentences:
            for sid in text.resolve(cite):
                out.setdefault(sid, entry.why)
    return out


def _entry_text(sentences: Sequence[str], why: str) -> str:
    # a JSON string is a TOML basic string
    ids = ", ".join(json.dumps(s, ensure_ascii=False) for s in sentences)
    return f"[[{TABLE}]]\nsentences = [{ids}]\nwhy = {json.dumps(why, ensure_ascii=False)}\n"


def add_out_of_scope(root: Path, sentences: Sequence[str], why: str) -> Path:
    """Append a declaration to ``root/scope.toml`` (created with a short header)."""
    path = root / SCOPE_FILE
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    if old:
        read_scope(root)  # refuse to append to a broken file
    else:
        old = HEADER
    write_text_atomic(path, old.rstrip("\n") + "\n\n" + _entry_text(sentences, why))
    return path


def remove_out_of_scope(root: Path, sentences: Sequence[str]) -> list[str]:
    """Take ``sentences`` (ids as declared) out of ``root/scope.toml``; the ids removed.

    The file is written again from its entries (comments other than the header go)."""
    gone = set(sentences)
    kept = []
    removed: list[str] = []
    for entry in read_scope(root):
        removed += [s for s in entry.sentences if s in gone]
        left = [s for s in entry.sentences if s not in gone]
        if left:
            kept.append(_entry_text(left, entry.why))
    if removed:
        write_text_atomic(root / SCOPE_FILE, HEADER + "".join(f"\n{e}" for e in kept))
    return removed
