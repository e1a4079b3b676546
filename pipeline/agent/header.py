"""The rule-page header as the agent checks it: ``# page: NAME`` and ``# implements: CITES``.

The header is parsed by :mod:`rulebook2game.check.findings`, so the agent, the checks
and ``diff`` agree on what a page cites: section ids (``4.1``) or sentence ids
(``4.2#3``), separated by commas or spaces.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook2game.check.findings import parse_header as header_fields
from rulebook2game.check.findings import parse_section_ids


@dataclass(frozen=True)
class PageHeader:
    """What a page's header declares."""

    name: str | None
    cites: tuple[str, ...]


def parse_header(source: str) -> PageHeader:
    """Read the header from a page's leading comment lines."""
    fields = header_fields(source)
    cited = fields.get("implements") or fields.get("sections") or fields.get("cites") or ""
    name = fields.get("page") or None
    return PageHeader(name.split()[0] if name else None, parse_section_ids(cited))
