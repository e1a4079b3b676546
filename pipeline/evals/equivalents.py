"""Surviving mutants reviewed as equivalent: changes no check can see, because the
game's observable behaviour (legal moves, players, chance, terminal states, returns)
is the same in every reachable state.

The review lives in ``evals/mutants/equivalent.toml``, one table array per game::

    [[tic_tac_toe]]
    page = "turn"
    before = "return -4"              # the original line, stripped
    change = "`4` → `5`"              # optional: the mutant's description; all if absent
    why = "the engine reports -4 for a finished game whatever the hook returns"

Entries match by page, original line text and change, so they survive edits that
only move lines. A reviewed mutant that the checks start killing is simply killed.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from rulebook2game.errors import WorkspaceError
from rulebook2game.mutate import Mutant
from rulebook2game.resources import EVALS_DIR

REVIEW_FILE = EVALS_DIR / "mutants" / "equivalent.toml"


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    page: str
    before: str
    change: str | None = None
    why: str


@dataclass(frozen=True)
class Reviews:
    """The reviewed-equivalent mutants of one game."""

    entries: tuple[_Entry, ...] = ()

    def reason(self, mutant: Mutant) -> str | None:
        """Why ``mutant`` is equivalent, if the review says it is."""
        for entry in self.entries:
            if (
                entry.page == mutant.page
                and entry.before.strip() == mutant.before
                and entry.change in (None, mutant.description)
            ):
                return entry.why
        return None


def load_reviews(game: str, path: Path = REVIEW_FILE) -> Reviews:
    """The review entries of ``game`` (none when the file or the game is absent)."""
    if not path.is_file():
        return Reviews()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        entries = tuple(_Entry.model_validate(e) for e in data.get(game, []))
    except (tomllib.TOMLDecodeError, ValidationError, TypeError) as exc:
        raise WorkspaceError(f"{path}: not a valid review of equivalent mutants ({exc})") from None
    return Reviews(entries)
