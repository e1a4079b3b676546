"""Citations checked at compile time: every id a page header cites must exist.

A page that cites ``9.9#9`` when the rulebook has no such sentence points a reader
(and every finding) at nothing. Independent of the target: it reads only the page
headers (:mod:`rulebook2game.page_header`) and the rule text
(:mod:`rulebook2game.check.sentences`). Without rule text nothing can be checked and
nothing is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.check.sentences import load_text
from rulebook2game.diff.rules import RuleText
from rulebook2game.page_header import CITATION_KEYS, split_citations
from rulebook2game.targets import page_suffix_for

_HEADER_KEY = re.compile(r"^#\s*([A-Za-z_-]+)\s*:\s*(.*?)\s*$")
"""A ``# key: value`` header line (as :mod:`rulebook2game.page_header` reads it)."""


@dataclass(frozen=True)
class UnknownCitation:
    """A cited id the rulebook does not have, with the page and header line citing it."""

    page: str
    """Page name (file stem)."""
    line: int
    cite: str
    hint: str = ""

    @property
    def location(self) -> str:
        """``<page>.rl:<line>``."""
        return f"{self.page}.rl:{self.line}"

    def __str__(self) -> str:
        hint = f" ({self.hint})" if self.hint else ""
        return (
            f"pages/{self.page}.rl:{self.line}: error: unknown citation {self.cite}: "
            f"the rulebook has no such section or sentence{hint}"
        )


def header_citations(source: str) -> list[tuple[int, str]]:
    """(line, id) of every citation in the page's leading header block."""
    out: list[tuple[int, str]] = []
    seen_key = False
    for number, line in enumerate(source.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        match = _HEADER_KEY.match(stripped)
        if match and match.group(1).lower() in CITATION_KEYS and not seen_key:
            seen_key = True  # the first citation line wins, as the header reader says
            out.extend((number, cite) for cite in split_citations(match.group(2)))
    return out


def _hint(text: RuleText, cite: str) -> str:
    section = cite.split("#", 1)[0]
    count = sum(1 for s in text.sentences if s.section == section)
    if count and "#" in cite:
        return f"section {section} has sentences {section}#1 to {section}#{count}"
    if not count and section not in text.titles:
        return "no such section"
    return ""


def unknown_citations(root: Path, pages_dir: Path) -> list[UnknownCitation]:
    """Every citation of every page that the rulebook's text does not have."""
    text = load_text(root)
    if text is None or not text.sentences:
        return []
    return check_pages(text, sorted(pages_dir.glob(f"*{page_suffix_for(pages_dir.parent)}")))


def check_pages(text: RuleText, pages: list[Path]) -> list[UnknownCitation]:
    """The unknown citations of ``pages`` against ``text``."""
    out: list[UnknownCitation] = []
    for path in pages:
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the compiler reports unreadable pages
        for line, cite in header_citations(source):
            if not text.resolve(cite) and cite not in text.titles:
                out.append(UnknownCitation(path.stem, line, cite, _hint(text, cite)))
    return out
