"""What the review view shows: the rulebook with citations, and the latest findings.

The rule text comes from :func:`rulebook2game.diff.rules.load_rule_text` (``rulebook.json``,
else ``rules.md``, else the PDF extracted on the fly); each page's citations come
from its header (``# implements: 4.1, 4.2#3``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulebook2game.check.report import CheckReport, load_report
from rulebook2game.check.sentences import out_of_scope
from rulebook2game.diff.pages import page_cites
from rulebook2game.diff.rules import RuleText, load_rule_text
from rulebook2game.errors import Rulebook2GameError
from rulebook2game.workspace import Workspace

RULEBOOK_FILES = ("rulebook.json", "rules.md", "rules.pdf")
"""The files the rule text may come from."""


@dataclass(frozen=True)
class ReviewSentence:
    """One sentence of the rulebook and the pages that cite it."""

    id: str
    text: str
    is_rule: bool
    pages: tuple[str, ...]
    out_of_scope: str = ""
    """Why the engine deliberately leaves it out (``scope.toml``); empty: in scope."""

    @property
    def uncited(self) -> bool:
        """A rule sentence that no page cites (and not declared out of scope)."""
        return self.is_rule and not self.pages and not self.out_of_scope


@dataclass(frozen=True)
class ReviewSection:
    """A section of the rulebook with its sentences."""

    id: str
    title: str
    sentences: tuple[ReviewSentence, ...]


@dataclass(frozen=True)
class ReviewPage:
    """A rule page and what it cites."""

    name: str
    cites: tuple[str, ...]
    dangling: tuple[str, ...]
    """Citations that name no sentence of the rulebook."""


@dataclass(frozen=True)
class Review:
    """The review of one game directory."""

    source: str
    """Where the rule text came from (``rulebook.json``, ``rules.md``, the PDF or ``none``)."""
    sections: tuple[ReviewSection, ...]
    pages: tuple[ReviewPage, ...]
    report: CheckReport | None
    report_error: str | None

    @property
    def rule_count(self) -> int:
        """How many sentences state rules."""
        return sum(1 for s in self.sections for x in s.sentences if x.is_rule)

    @property
    def uncited_count(self) -> int:
        """How many rule sentences no page cites."""
        return sum(1 for s in self.sections for x in s.sentences if x.uncited)

    @property
    def out_of_scope_count(self) -> int:
        """How many rule sentences ``scope.toml`` declares out of scope."""
        return sum(1 for s in self.sections for x in s.sentences if x.is_rule and x.out_of_scope)

    @property
    def cited_count(self) -> int:
        """How many rule sentences a page cites (out-of-scope ones are not counted)."""
        return self.rule_count - self.uncited_count - self.out_of_scope_count


_RULES_CACHE: dict[tuple[object, ...], RuleText] = {}
"""Rule text by game directory and the times its sources changed (a PDF-only game is
extracted once, not on every page view)."""


def rule_text(root: Path) -> RuleText:
    """The rule text of a game directory (see :func:`load_rule_text`), cached until a
    source file changes; an unreadable ``rulebook.json`` gives none."""
    stamps = tuple(
        (name, path.stat().st_mtime_ns if path.is_file() else None)
        for name in (*RULEBOOK_FILES, "game.toml")
        for path in [root / name]
    )
    key = (root.resolve(), stamps)
    if key not in _RULES_CACHE:
        try:
            _RULES_CACHE[key] = load_rule_text(root)
        except Rulebook2GameError:
            _RULES_CACHE[key] = RuleText("none")
    return _RULES_CACHE[key]


def build_review(ws: Workspace) -> Review:
    """Read the rule text, the pages' citations and ``reports/check.json`` of ``ws``."""
    rules = rule_text(ws.root)
    pages: list[ReviewPage] = []
    citing: dict[str, list[str]] = {}
    for path in ws.pages():
        cites = page_cites(path.read_text(encoding="utf-8", errors="replace"))
        dangling = tuple(c for c in cites if not rules.resolve(c))
        pages.append(ReviewPage(path.stem, cites, dangling))
        for sid in rules.covered(cites):
            citing.setdefault(sid, []).append(path.stem)
    apart = out_of_scope(ws.root, rules)
    by_section: dict[str, list[ReviewSentence]] = {}
    for s in rules.sentences:
        by_section.setdefault(s.section, []).append(
            ReviewSentence(
                s.id, s.text, s.is_rule, tuple(citing.get(s.id, ())), apart.get(s.id, "")
            )
        )
    order = dict.fromkeys([*rules.titles, *by_section])
    sections = tuple(
        ReviewSection(sid, rules.titles.get(sid, ""), tuple(by_section.get(sid, ())))
        for sid in order
    )
    report, error = None, None
    path = ws.reports_dir / "check.json"
    if path.is_file():
        try:
            report = load_report(path)
        except Rulebook2GameError as exc:
            error = str(exc)
    return Review(rules.source, sections, tuple(pages), report, error)
