"""The rule-page header: ``# page: NAME`` and ``# implements: CITES``.

``implements`` lists rulebook citations: a section id (``4.1``) or a sentence id
(``4.2#3``), separated by commas or spaces; the line may repeat. Only the leading
comment block counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_IMPLEMENTS = re.compile(r"^\s*(?:#|//)\s*implements\s*:\s*(.*)$", re.IGNORECASE)
_PAGE = re.compile(r"^\s*(?:#|//)\s*page\s*:\s*(\S+)", re.IGNORECASE)


@dataclass(frozen=True)
class PageHeader:
    """What a page's header declares."""

    name: str | None
    cites: tuple[str, ...]


def parse_header(source: str) -> PageHeader:
    """Read the header from a page's leading comment lines."""
    name: str | None = None
    cites: list[str] = []
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith(("#", "//")):
            break
        page = _PAGE.match(stripped)
        if page and name is None:
            name = page.group(1)
        implements = _IMPLEMENTS.match(stripped)
        if implements:
            cites.extend(c for c in re.split(r"[,\s]+", implements.group(1)) if c)
    return PageHeader(name, tuple(dict.fromkeys(cites)))
