"""Rendering of the jinja2 templates in ``prompts/`` (strict: a missing value is an error)."""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from pydantic import ValidationError

from rulebook2game.errors import WorkspaceError
from rulebook2game.resources import PROMPTS_DIR
from rulebook2game.workspace import SeatsSpec


@lru_cache(maxsize=4)
def environment(root: Path = PROMPTS_DIR) -> jinja2.Environment:
    """The template environment over ``root`` (``StrictUndefined``, no autoescape)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(root),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, **context: Any) -> str:
    """Render ``prompts/<template>`` with ``context``."""
    try:
        return environment().get_template(template).render(**context).strip() + "\n"
    except jinja2.TemplateNotFound as exc:
        raise WorkspaceError(f"prompt template {exc.name} not found in {PROMPTS_DIR}") from None


@dataclass(frozen=True)
class PromptContext:
    """Everything the system prompt and ``AGENTS.md`` speak about."""

    game: str
    """The game's title."""
    players: int
    target: str
    reference: str
    """The target language notes (``targets/<target>/reference.md``)."""
    toc: str
    """The rulebook's table of contents, with section ids."""
    interface: str | None = None
    """The text of ``interface.toml`` when the action vocabulary is fixed."""
    inventory: str | None = None
    """The Vassal component inventory when a module was given."""
    oracle: str | None = None
    max_page_chars: int = 40_000
    page_suffix: str = ".rl"
    """Suffix of a page file of the target (``.rl``, ``.page``)."""
    independent: bool = False
    """This is a second opinion: another translation exists and is compared with this one."""

    def as_dict(self) -> dict[str, Any]:
        """The fields, and ``seats`` (``[seats]`` of the interface, or ``None``)."""
        return {**asdict(self), "seats": self.seats()}

    def seats(self) -> dict[str, Any] | None:
        """``{"names": [...], "first": ...}`` from the interface's ``[seats]``, if declared."""
        if self.interface is None:
            return None
        try:
            table = tomllib.loads(self.interface).get("seats")
            return SeatsSpec.model_validate(table).model_dump() if table else None
        except (tomllib.TOMLDecodeError, ValidationError):
            return None


def target_reference(target: str) -> str:
    """The language notes of a target, which every prompt includes."""
    from rulebook2game.targets import get_target

    path = get_target(target).reference
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        raise WorkspaceError(f"target {target!r} has no language notes ({path})") from None
