"""Surviving mutants reviewed as equivalent: changes no check can see, because the
game's observable behaviour (legal moves, players, chance, terminal states, returns)
is the same in every reachable state.

A game keeps its own review in ``GAME_DIR/mutants.toml`` (what a translator writes,
by hand or with ``rulebook2game mutants GAME_DIR --equivalent ID --why TEXT``)::

    [[equivalent]]
    page = "turn"
    before = "return -4"              # the original line, stripped
    change = "`4` → `5`"              # optional: the mutant's description; all if absent
    column = 16                       # optional: where on the line (two equal changes)
    why = "the engine reports -4 for a finished game whatever the hook returns"

The corpus's reviews also live in ``evals/mutants/equivalent.toml``, one table array
per game name (``[[tic_tac_toe]]``, same fields). Both are read.

Entries match by page, original line text and change, never by line number, so they
survive edits that only move lines. A reviewed mutant is not run again (its review
says why it cannot be killed); one whose line text or change no longer matches is run,
and killed or listed as a survivor like any other.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from rulebook2game.errors import WorkspaceError
from rulebook2game.mutate import Mutant
from rulebook2game.resources import EVALS_DIR
from rulebook2game.trace import write_text_atomic

REVIEW_FILE = EVALS_DIR / "mutants" / "equivalent.toml"
GAME_REVIEW = "mutants.toml"
"""The review file of a game directory."""
GAME_TABLE = "equivalent"
"""Its table array."""


class ReviewEntry(BaseModel):
    """One reviewed-equivalent mutant: where, which change, and why nothing observable differs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    page: str
    before: str
    change: str | None = None
    column: int | None = None
    why: str

    def matches(self, mutant: Mutant) -> bool:
        """Same page, original line text, change and column (each of the last two if set)."""
        return (
            self.page == mutant.page
            and self.before.strip() == mutant.before
            and self.change in (None, mutant.description)
            and self.column in (None, mutant.column)
        )


@dataclass(frozen=True)
class Reviews:
    """The reviewed-equivalent mutants of one game."""

    entries: tuple[ReviewEntry, ...] = ()

    def reason(self, mutant: Mutant) -> str | None:
        """Why ``mutant`` is equivalent, if the review says it is."""
        for entry in self.entries:
            if entry.matches(mutant):
                return entry.why
        return None


def _read(path: Path, table: str) -> tuple[ReviewEntry, ...]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return tuple(ReviewEntry.model_validate(e) for e in data.get(table, []))
    except (OSError, tomllib.TOMLDecodeError, ValidationError, TypeError) as exc:
        first = str(exc).splitlines()[0]
        raise WorkspaceError(
            f"{path}: not a valid review of equivalent mutants ({first})"
        ) from None


def load_reviews(game: str, path: Path = REVIEW_FILE, game_dir: Path | None = None) -> Reviews:
    """The review entries of ``game``: from ``path`` (by game name) and ``game_dir``'s file."""
    entries: tuple[ReviewEntry, ...] = ()
    if path.is_file():
        entries += _read(path, game)
    if game_dir is not None and (game_dir / GAME_REVIEW).is_file():
        entries += _read(game_dir / GAME_REVIEW, GAME_TABLE)
    return Reviews(entries)


def _quote(text: str) -> str:
    """A TOML basic string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def add_review(game_dir: Path, entry: ReviewEntry) -> Path:
    """Append ``entry`` to ``game_dir/mutants.toml`` (created with a short header)."""
    path = game_dir / GAME_REVIEW
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    if old:
        _read(path, GAME_TABLE)  # refuse to append to a broken file
    else:
        old = (
            "# Surviving mutants of these pages reviewed as equivalent: no legal move, seat to\n"
            "# move, chance outcome, ending or return changes in any reachable state.\n"
            "# `rulebook2game mutants` does not run them again. Entries match by page, the\n"
            "# original line (stripped) and the change, so they survive edits that move lines.\n"
        )
    lines = [
        f"[[{GAME_TABLE}]]",
        f"page = {_quote(entry.page)}",
        f"before = {_quote(entry.before)}",
    ]
    if entry.change is not None:
        lines.append(f"change = {_quote(entry.change)}")
    if entry.column is not None:
        lines.append(f"column = {entry.column}")
    lines.append(f"why = {_quote(entry.why)}")
    write_text_atomic(path, old.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n")
    return path
