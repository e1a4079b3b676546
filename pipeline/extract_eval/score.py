"""Score an extracted rulebook against the source it was rendered from.

Every metric is in 0..1:

- ``sections``: sections found with the right id, title, level and parent, over the
  larger of the expected and found counts (spurious sections cost as much as missed ones);
- ``order``: the longest run of expected blocks found in the same relative order (blocks
  matched by their words, so one typo does not break the order), over expected blocks;
- ``text``: blocks whose text is exactly right, over the larger of expected and found;
- ``kinds``: of the blocks matched for ``order``, those with the right kind;
- ``cells``: table cells with exactly the right text at the right row and column;
- ``sentences``: ledger entries with exactly the right section and text, over the larger
  of expected and found.

``overall`` is their mean.
"""

from __future__ import annotations

import bisect
import statistics
import unicodedata
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from rulebook2game.extract.model import Rulebook
from rulebook2game.extract_eval.source import SourceRulebook


@dataclass(frozen=True)
class Score:
    """The scores of one extraction."""

    sections: float
    order: float
    text: float
    kinds: float
    cells: float
    sentences: float
    problems: tuple[str, ...] = field(default=(), compare=False)
    """Human-readable mismatches, for debugging a low score."""

    @property
    def overall(self) -> float:
        """The mean of all metrics."""
        return statistics.fmean(
            (self.sections, self.order, self.text, self.kinds, self.cells, self.sentences)
        )


def norm(text: str) -> str:
    """Text compared for equality: Unicode NFC, single spaces."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def score(source: SourceRulebook, found: Rulebook) -> Score:
    """Compare ``found`` with what ``source`` says it should be."""
    problems: list[str] = []
    expected = source.expected_sections()
    want = [(s.id, s.title, s.level, s.parent) for s in expected]
    got = [(s.id, s.title, s.level, s.parent) for s in found.sections]
    sections = _overlap(want, got)
    problems += [f"section missing: {w}" for w in want if w not in got]
    problems += [f"section spurious: {g}" for g in got if g not in want]

    want_blocks = [(b.kind, norm(b.text)) for s in expected for b in s.blocks]
    got_blocks = [(b.kind, norm(b.text)) for s in found.sections for b in s.blocks]
    text = _overlap([t for _, t in want_blocks], [t for _, t in got_blocks])
    got_texts = Counter(t for _, t in got_blocks)
    problems += [f"block text wrong: {t[:90]!r}" for _, t in want_blocks if not got_texts[t]]
    matches = _match(want_blocks, got_blocks)
    order = _longest_increasing([j for _, j in matches]) / max(1, len(want_blocks))
    kinds = sum(want_blocks[i][0] == got_blocks[j][0] for i, j in matches) / max(1, len(matches))
    problems += [
        f"kind {got_blocks[j][0]} for {want_blocks[i][0]}: {want_blocks[i][1][:60]!r}"
        for i, j in matches
        if want_blocks[i][0] != got_blocks[j][0]
    ]

    want_tables = [b.rows for s in expected for b in s.blocks if b.kind == "table"]
    got_tables = [b.rows or [] for s in found.sections for b in s.blocks if b.kind == "table"]
    cells = _cells(want_tables, got_tables)

    want_ledger = [(s.id, norm(t)) for s in expected for b in s.blocks for t in b.ledger]
    got_ledger = [(s.section, norm(s.text)) for s in found.sentences]
    sentences = _overlap(want_ledger, got_ledger)
    got_set = Counter(got_ledger)
    problems += [f"sentence missing: {w}" for w in want_ledger if not got_set[w]]
    return Score(sections, order, text, kinds, cells, sentences, tuple(problems))


def _overlap(want: Sequence[Hashable], got: Sequence[Hashable]) -> float:
    """Multiset intersection over the larger of the two sizes (1.0 when both are empty)."""
    if not want and not got:
        return 1.0
    common = sum((Counter(want) & Counter(got)).values())
    return common / max(len(want), len(got))


def _words(text: str) -> frozenset[str]:
    return frozenset(text.lower().split())


def _match(
    want: Sequence[tuple[str, str]], got: Sequence[tuple[str, str]]
) -> list[tuple[int, int]]:
    """Each expected block paired with the found block sharing most of its words."""
    got_words = [_words(t) for _, t in got]
    out = []
    for i, (_, text) in enumerate(want):
        mine = _words(text)
        best, best_j = 0.0, -1
        for j, theirs in enumerate(got_words):
            union = len(mine | theirs)
            sim = len(mine & theirs) / union if union else 1.0
            if sim > best:
                best, best_j = sim, j
        if best >= 0.6:
            out.append((i, best_j))
    return out


def _longest_increasing(values: list[int]) -> int:
    tails: list[int] = []
    for v in values:
        k = bisect.bisect_left(tails, v)
        if k == len(tails):
            tails.append(v)
        else:
            tails[k] = v
    return len(tails)


def _cells(want: list[tuple[tuple[str, ...], ...]], got: list[list[list[str]]]) -> float:
    """Fraction of expected cells found at the same position of the best-matching table."""
    total = sum(len(row) for table in want for row in table)
    if not total:
        return 1.0
    right = 0
    for table in want:
        best = 0
        for candidate in got:
            hits = sum(
                1
                for r, row in enumerate(table)
                for c, cell in enumerate(row)
                if r < len(candidate)
                and c < len(candidate[r])
                and norm(candidate[r][c]) == norm(cell)
            )
            best = max(best, hits)
        right += best
    return right / total
