"""The rule-page header, read the same way by the agent, the checks, diff and eval.

A page opens with a block of ``#`` comment lines::

    # page: scoring
    # implements: 6.1, 6.2#3

A GDL page (KIF, whose comments start with ``;``) and a target whose language comments
with ``//`` (``rbg``) write the same block with their own comment mark::

    ; page: scoring
    // implements: 6.1

Only that leading block counts; the first line of each key wins. ``implements``
(also spelled ``sections`` or ``cites``) lists rulebook citations: a section id
(``6.1``, the whole section) or a sentence id (``6.2#3``, one sentence of the
ledger), separated by commas, semicolons or spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADER_KEY = re.compile(r"^(?:#|;+|//)\s*([A-Za-z_-]+)\s*:\s*(.*?)\s*$")
COMMENT_MARKS = ("#", ";", "//")
"""What starts a header comment line: ``#`` (rl, RulePage), ``;`` (GDL's KIF), ``//`` (rbg)."""
_CITE_SPLIT = re.compile(r"[,\s;]+")
CITATION_KEYS = ("implements", "sections", "cites")


@dataclass(frozen=True)
class PageHeader:
    """What a page's header declares."""

    name: str | None
    """The ``page:`` name (first word), or ``None`` when the header has none."""
    cites: tuple[str, ...]
    """Cited section and sentence ids, in order, without repeats."""


def header_fields(source: str) -> dict[str, str]:
    """The ``# key: value`` lines of the leading comment block (keys lower-cased)."""
    fields: dict[str, str] = {}
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith(COMMENT_MARKS):
            break
        match = _HEADER_KEY.match(stripped)
        if match:
            fields.setdefault(match.group(1).lower(), match.group(2))
    return fields


def split_citations(text: str) -> tuple[str, ...]:
    """``"4.1, 4.2#3 4.1"`` -> ``("4.1", "4.2#3")``."""
    return tuple(dict.fromkeys(c for c in _CITE_SPLIT.split(text.strip()) if c))


def parse_page_header(source: str) -> PageHeader:
    """Read the header of a page's source."""
    fields = header_fields(source)
    cited = next((fields[k] for k in CITATION_KEYS if fields.get(k)), "")
    name = fields.get("page", "").split()
    return PageHeader(name[0] if name else None, split_citations(cited))
