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
from functools import partial
from pathlib import Path

from rulebook2game.check.scope import SCOPE_FILE, read_scope
from rulebook2game.check.sentences import load_text
from rulebook2game.diff.rules import RuleText
from rulebook2game.errors import BadWorkspaceError
from rulebook2game.page_header import CITATION_KEYS, COMMENT_MARKS, split_citations
from rulebook2game.targets import page_suffix_for

_HEADER_KEY = re.compile(r"^(?:#|;+|//)\s*([A-Za-z_-]+)\s*:\s*(.*?)\s*$")
"""A ``# key: value`` header line (as :mod:`rulebook2game.page_header` reads it)."""


@dataclass(frozen=True)
class UnknownCitation:
    """A cited id the rulebook does not have, with the page and header line citing it."""

    page: str
    """Page name (file stem)."""
    line: int
    cite: str
    hint: str = ""
    suffix: str = ".rl"
    """The page file's suffix (the target's)."""
    problem: str = ""
    """What is wrong when it is not an unknown id (a header that hides what the page does)."""
    folder: str = "pages/"
    """Where the file is, from the game directory (``""``: ``scope.toml`` at its top)."""
    what: str = "unknown citation"

    @property
    def location(self) -> str:
        """``<page><suffix>:<line>``."""
        return f"{self.page}{self.suffix}:{self.line}"

    def __str__(self) -> str:
        where = f"{self.folder}{self.location}: error:"
        if self.problem:
            return f"{where} {self.problem}"
        hint = f" ({self.hint})" if self.hint else ""
        return (
            f"{where} {self.what} {self.cite}: the rulebook has no such section or sentence{hint}"
        )


ENDING_CODE: dict[str, re.Pattern[str]] = {
    # rl: the returns hook, or a bare `return` that leaves the play loop (the game ends)
    ".rl": re.compile(r"^fun score\(|^act play\(\)[\s\S]*^\s+return\s*$", re.MULTILINE),
    # RulePage: the end condition or the returns
    ".page": re.compile(r"^(?:end when|returns\()", re.MULTILINE),
    # GDL: a rule or fact for terminal or goal
    ".kif": re.compile(r"\((?:<=\s*)?\(?\s*(?:terminal|goal)\b", re.IGNORECASE),
}
"""Code that ends the game or scores it, per page suffix."""

ENDING_WORDS = re.compile(
    r"\b(?:end|ends|ending|over|win|wins|winner|won|score|scores|scoring|result|results|"
    r"draw|victory|lose|loses|finish)\b",
    re.IGNORECASE,
)
"""Words of a section title (or a cited sentence) about the end of the game and its score."""


def header_citations(source: str) -> list[tuple[int, str]]:
    """(line, id) of every citation in the page's leading header block."""
    out: list[tuple[int, str]] = []
    seen_key = False
    for number, line in enumerate(source.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith(COMMENT_MARKS):
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
    """Every citation of every page, and every id of ``scope.toml``, that the rulebook's
    text does not have."""
    text = load_text(root)
    if text is None or not text.sentences:
        return []
    pages = sorted(pages_dir.glob(f"*{page_suffix_for(pages_dir.parent)}"))
    return check_pages(text, pages) + check_scope(text, root)


def check_scope(text: RuleText, root: Path) -> list[UnknownCitation]:
    """The ids ``root/scope.toml`` declares out of scope that ``text`` does not have."""
    stem, suffix = SCOPE_FILE.rsplit(".", 1)
    scope = partial(UnknownCitation, stem, suffix=f".{suffix}", folder="")
    try:
        declared = read_scope(root)
    except BadWorkspaceError as exc:
        return [scope(1, "", problem=str(exc).removeprefix(f"{root / SCOPE_FILE}: "))]
    return [
        scope(line, cite, _hint(text, cite), what="unknown out-of-scope sentence")
        for entry in declared
        for cite, line in zip(entry.sentences, entry.lines, strict=True)
        if not text.resolve(cite) and cite not in text.titles
    ]


def check_pages(text: RuleText, pages: list[Path]) -> list[UnknownCitation]:
    """The unknown citations of ``pages`` against ``text``, and endings cited nowhere."""
    out: list[UnknownCitation] = []
    for path in pages:
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the compiler reports unreadable pages
        cites = header_citations(source)
        for line, cite in cites:
            if not text.resolve(cite) and cite not in text.titles:
                out.append(UnknownCitation(path.stem, line, cite, _hint(text, cite), path.suffix))
        uncited = _uncited_ending(text, path, source, cites)
        if uncited is not None:
            out.append(uncited)
    return out


def _uncited_ending(
    text: RuleText, path: Path, source: str, cites: list[tuple[int, str]]
) -> UnknownCitation | None:
    """A page whose code ends or scores the game but cites no end-of-game rule.

    Findings quote a page's citations to the translator: a header that leaves the ending
    out sends the wrong rules with every counterexample about how the game ends.
    """
    pattern = ENDING_CODE.get(path.suffix)
    ending_sections = [s for s, title in text.titles.items() if ENDING_WORDS.search(title)]
    if pattern is None or not ending_sections or not pattern.search(source):
        return None
    for _, cite in cites:
        section = cite.split("#", 1)[0]
        parts = section.split(".")
        lineage = [".".join(parts[:n]) for n in range(1, len(parts) + 1)]
        if any(ENDING_WORDS.search(text.titles.get(s, "")) for s in lineage):
            return None
        if "#" in cite and any(ENDING_WORDS.search(t) for _, t in text.citation(cite).sentences):
            return None
    line = cites[0][0] if cites else 1
    shown = ", ".join(f"{s} {text.titles[s]}" for s in ending_sections[:3])
    problem = (
        "this page ends or scores the game but its header cites no end-of-game rule "
        f"(add the sentences it implements, e.g. from {shown})"
    )
    return UnknownCitation(path.stem, line, "", suffix=path.suffix, problem=problem)
