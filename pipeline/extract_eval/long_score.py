"""Count what goes wrong in the ledger of a long fixture: the errors a reader meets.

- ``figure_rows``: ledger entries outside a figure that are rows of a text diagram
  (their text lies inside one of the expected figures);
- ``spliced``: entries holding text of two or more expected entries (two columns, a
  rule and an example, a caption and a diagram);
- ``split``: expected sentences cut into two or more entries (at a line, column or page
  break);
- ``misfiled``: expected sentences found whole, but only under another section;
- ``sections_wrong``: expected sections missing plus sections found that are not
  headings of the rulebook (id, title, level and parent compared);
- ``roles_wrong``: sentences found whole whose role (rule, example, framing, figure)
  differs from the expected one.

Texts are compared with white space collapsed. Which expected entry a piece of found
text comes from is decided by runs of three words that occur in one expected entry only.
"""

from __future__ import annotations

import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from rulebook2game.extract import extract_rulebook
from rulebook2game.extract.model import Rulebook
from rulebook2game.extract_eval.long_source import LONG_BOOKS, ExpectedSentence, LongRulebook
from rulebook2game.resources import PROJECT_DIR

LONG_DIR = PROJECT_DIR / "tests" / "data" / "extract" / "long"
"""Where the long fixtures (groff PDFs, their sources and expected ledgers) are kept."""

_N = 3


@dataclass(frozen=True)
class LedgerScore:
    """Error counts of one long fixture (all 0 when the extraction is right)."""

    expected: int
    found: int
    exact: int
    """Expected entries found with the right section and text."""
    figure_rows: int
    spliced: int
    split: int
    misfiled: int
    sections_wrong: int
    roles_wrong: int
    problems: tuple[str, ...] = field(default=(), compare=False)

    @property
    def errors(self) -> int:
        """All error counts added up."""
        return (
            self.figure_rows
            + self.spliced
            + self.split
            + self.misfiled
            + self.sections_wrong
            + self.roles_wrong
        )


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2010", "-").replace("\u2212", "-")
    return " ".join(text.replace("’", "'").split())


def _grams(text: str) -> list[tuple[str, ...]]:
    words = _norm(text).lower().split()
    if len(words) < _N:
        return [tuple(words)] if words else []
    return [tuple(words[i : i + _N]) for i in range(len(words) - _N + 1)]


def score_ledger(book: LongRulebook, found: Rulebook) -> LedgerScore:
    """Compare the ledger of ``found`` with the expected ledger of ``book``."""
    want = book.expected_ledger()
    got = found.sentences
    problems: list[str] = []

    owners: dict[tuple[str, ...], set[int]] = defaultdict(set)
    for i, e in enumerate(want):
        for g in _grams(e.text):
            owners[g].add(i)
    unique = {g: next(iter(s)) for g, s in owners.items() if len(s) == 1}

    figures = [_norm(e.text) for e in want if e.role == "figure" and "\n" in e.text]
    figure_rows = 0
    hits: dict[int, set[int]] = defaultdict(set)
    spliced = 0
    for j, s in enumerate(got):
        text = _norm(s.text)
        role = getattr(s, "role", None)
        if role != "figure" and s.kind != "figure" and any(text in f for f in figures):
            figure_rows += 1
            problems.append(f"figure row as a sentence: {s.id} {text[:60]!r}")
            continue
        mine = {unique[g] for g in _grams(s.text) if g in unique}
        for i in mine:
            hits[i].add(j)
        if len(mine) >= 2:
            spliced += 1
            problems.append(f"spliced: {s.id} {text[:100]!r}")

    split = 0
    for i, e in enumerate(want):
        if e.role == "figure" and "\n" in e.text:
            continue
        if len(hits[i]) >= 2 and not any(_norm(got[j].text) == _norm(e.text) for j in hits[i]):
            split += 1
            problems.append(f"split: {e.section} {_norm(e.text)[:80]!r}")

    got_pairs = Counter((s.section, _norm(s.text)) for s in got)
    got_texts: dict[str, set[str]] = defaultdict(set)
    roles: dict[tuple[str, str], str | None] = {}
    for s in got:
        got_texts[_norm(s.text)].add(s.section)
        roles[(s.section, _norm(s.text))] = getattr(s, "role", None)
    exact = misfiled = roles_wrong = 0
    for e in want:
        key = (e.section, _norm(e.text))
        if got_pairs[key]:
            exact += 1
            if roles.get(key) != e.role:
                roles_wrong += 1
                problems.append(f"role {roles.get(key)} for {e.role}: {key[1][:60]!r}")
        elif got_texts.get(key[1]):
            misfiled += 1
            problems.append(f"misfiled in {sorted(got_texts[key[1]])}: {e.section} {key[1][:60]!r}")
        else:
            problems.append(f"sentence missing: {e.section} {key[1][:80]!r}")

    want_secs = set(book.section_ids())
    got_secs = {(s.id, s.title, s.level, s.parent) for s in found.sections}
    wrong = want_secs ^ got_secs
    problems += [f"section {'missing' if w in want_secs else 'spurious'}: {w}" for w in wrong]
    return LedgerScore(
        expected=len(want),
        found=len(got),
        exact=exact,
        figure_rows=figure_rows,
        spliced=spliced,
        split=split,
        misfiled=misfiled,
        sections_wrong=len(wrong),
        roles_wrong=roles_wrong,
        problems=tuple(problems),
    )


def expected_json(book: LongRulebook) -> dict[str, object]:
    """The expected ledger and sections as JSON, committed next to the fixture PDF."""
    return {
        "title": book.title,
        "sections": [
            {"id": i, "title": t, "level": lvl, "parent": p} for i, t, lvl, p in book.section_ids()
        ],
        "sentences": [_entry(e) for e in book.expected_ledger()],
    }


def _entry(e: ExpectedSentence) -> dict[str, str]:
    return {"section": e.section, "role": e.role, "text": e.text}


@dataclass(frozen=True)
class LongResult:
    """One long fixture: its error counts and the extraction's speed."""

    book: LongRulebook
    score: LedgerScore
    pages: int
    cpu_ms_per_page: float


def run_long(directory: Path = LONG_DIR) -> list[LongResult]:
    """Extract and score every long fixture kept in ``directory`` (none outside a source
    checkout, where the fixtures are not installed)."""
    if not directory.is_dir():
        return []
    out = []
    for book in LONG_BOOKS:
        pdf = directory / f"{book.name}.pdf"
        start = time.process_time()
        rulebook = extract_rulebook(pdf)
        cpu = time.process_time() - start
        pages = rulebook.metadata.pages
        out.append(LongResult(book, score_ledger(book, rulebook), pages, 1000 * cpu / pages))
    return out
