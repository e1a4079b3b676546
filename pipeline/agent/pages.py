"""The rule pages of a workspace as the agent sees them: named, headed, written atomically.

A page name is a file stem (``scoring`` is ``pages/scoring.rl``): lowercase letters,
digits and underscores, so no name can leave the ``pages/`` folder. A page opens with
its header (see :mod:`rulebook2game.agent.header`)::

    # page: scoring
    # implements: 4.1, 4.2#3
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.agent.errors import ToolRetry
from rulebook2game.agent.header import parse_header
from rulebook2game.trace import write_text_atomic

PAGE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
PAGE_SUFFIX = ".rl"
MAX_PAGE_CHARS = 40_000
"""Longest page accepted; bigger ones must be split (keeps pages reviewable)."""


@dataclass(frozen=True)
class PageChange:
    """One page write or delete, with both versions."""

    name: str
    old: str | None
    new: str | None
    suffix: str = PAGE_SUFFIX

    def diff(self) -> str:
        """``diff -u`` from the old version to the new one."""
        lines = difflib.unified_diff(
            (self.old or "").splitlines(keepends=True),
            (self.new or "").splitlines(keepends=True),
            fromfile=f"a/pages/{self.name}{self.suffix}" if self.old is not None else "/dev/null",
            tofile=f"b/pages/{self.name}{self.suffix}" if self.new is not None else "/dev/null",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def check_name(name: str, suffix: str = PAGE_SUFFIX) -> str:
    """``name`` if it is a valid page name; otherwise ask the model for another."""
    stem = name.removesuffix(suffix)
    if not PAGE_NAME.fullmatch(stem):
        raise ToolRetry("bad_page_name", name=name, pattern=PAGE_NAME.pattern)
    return stem


def check_content(name: str, content: str, max_chars: int = MAX_PAGE_CHARS) -> None:
    """Reject pages that are too big or lack the header convention."""
    if len(content) > max_chars:
        raise ToolRetry("page_too_large", name=name, size=len(content), limit=max_chars)
    header = parse_header(content)
    if header.name is None:
        raise ToolRetry("header_missing", name=name)
    if header.name != name:
        raise ToolRetry("header_name_mismatch", name=name, header_name=header.name)
    if not header.cites:
        raise ToolRetry("header_no_cites", name=name)


@dataclass(frozen=True)
class PageStore:
    """The ``pages/`` folder of one workspace."""

    root: Path
    max_chars: int = MAX_PAGE_CHARS
    suffix: str = PAGE_SUFFIX
    """Page file suffix of the workspace's target."""

    def path(self, name: str) -> Path:
        return self.root / f"{check_name(name, self.suffix)}{self.suffix}"

    def names(self) -> list[str]:
        """Every page name, sorted."""
        if not self.root.is_dir():
            return []
        return sorted(
            p.stem for p in self.root.glob(f"*{self.suffix}") if PAGE_NAME.fullmatch(p.stem)
        )

    def read(self, name: str) -> str:
        """A page's source; a missing page is a correction listing the existing ones."""
        path = self.path(name)
        if not path.is_file():
            raise ToolRetry("no_such_page", name=name, pages=self.names())
        return path.read_text(encoding="utf-8")

    def sources(self) -> dict[str, str]:
        """Every page's source by name."""
        return {name: self.read(name) for name in self.names()}

    def write(self, name: str, content: str) -> PageChange:
        """Create or replace a page atomically (after checking name, size and header)."""
        stem = check_name(name, self.suffix)
        check_content(stem, content, self.max_chars)
        path = self.path(stem)
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if not content.endswith("\n"):
            content += "\n"
        write_text_atomic(path, content)
        return PageChange(stem, old, content, self.suffix)

    def delete(self, name: str) -> PageChange:
        """Remove a page; a missing page is a correction."""
        old = self.read(name)
        self.path(name).unlink()
        return PageChange(check_name(name, self.suffix), old, None, self.suffix)
