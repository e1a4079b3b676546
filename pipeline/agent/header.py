"""The rule-page header as the agent checks it: ``# page: NAME`` and ``# implements: CITES``.

Only the leading block of ``#`` comment lines counts; the first ``page`` and the first
``implements`` line (``sections``/``cites`` are accepted spellings) are read, as the
checks read them. Citations are section ids (``4.1``) or sentence ids (``4.2#3``),
separated by commas, semicolons or spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADER_KEY = re.compile(r"^#\s*([A-Za-z_-]+)\s*:\s*(.*?)\s*$")
_CITE_SPLIT = re.compile(r"[,\s;]+")


@dataclass(frozen=True)
class PageHeader:
    """What a page's header declares."""

    name: str | None
    cites: tuple[str, ...]


def parse_header(source: str) -> PageHeader:
    """Read the header from a page's leading comment lines."""
    fields: dict[str, str] = {}
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        match = _HEADER_KEY.match(stripped)
        if match:
            fields.setdefault(match.group(1).lower(), match.group(2))
    cited = fields.get("implements") or fields.get("sections") or fields.get("cites") or ""
    cites = tuple(dict.fromkeys(c for c in _CITE_SPLIT.split(cited.strip()) if c))
    name = fields.get("page", "").split()
    return PageHeader(name[0] if name else None, cites)
