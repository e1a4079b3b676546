"""Extraction scored against the structured sources of the rendered fixture variants.

Every variant (reportlab and typst layouts, one difficulty each, plus the held-out
family) is rendered into a temporary directory and must score at least 0.95.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook2game.extract import Rulebook, extract_rulebook
from rulebook2game.extract.pdf import open_pdf
from rulebook2game.extract_eval.score import score
from rulebook2game.extract_eval.variants import VARIANTS, Variant, variant

THRESHOLD = 0.95


class _Extracted:
    """Renders and extracts each variant once per test module."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._done: dict[str, tuple[Path, Rulebook]] = {}

    def __call__(self, v: Variant) -> tuple[Path, Rulebook]:
        if v.name not in self._done:
            pdf = v.render(self.directory)
            self._done[v.name] = (pdf, extract_rulebook(pdf))
        return self._done[v.name]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> _Extracted:
    return _Extracted(tmp_path_factory.mktemp("extract-fixtures"))


@pytest.mark.parametrize("v", VARIANTS, ids=lambda v: v.name)
def test_variant_scores(v: Variant, extracted: _Extracted) -> None:
    _, rulebook = extracted(v)
    result = score(v.book, rulebook)
    detail = "\n".join(result.problems[:12])
    assert result.overall >= THRESHOLD, detail
    assert result.sections >= THRESHOLD, detail
    assert result.sentences >= THRESHOLD, detail
    assert result.order >= THRESHOLD, detail


def test_drawing_order_does_not_matter(extracted: _Extracted) -> None:
    plain = extracted(variant("two-column"))[1]
    shuffled = extracted(variant("shuffled-drawing"))[1]
    assert [(s.id, s.text) for s in shuffled.sentences] == [(s.id, s.text) for s in plain.sentences]


def test_running_heads_and_page_numbers_are_set_aside(extracted: _Extracted) -> None:
    v = variant("headers-footers")
    _, rulebook = extracted(v)
    assert [p.labels for p in rulebook.pages] == [[str(p.number)] for p in rulebook.pages]
    texts = [b.text for s in rulebook.sections for b in s.blocks]
    assert not any(v.book.header in t for t in texts)


def test_two_pages_on_one_sheet_are_read_one_after_the_other(extracted: _Extracted) -> None:
    _, rulebook = extracted(variant("two-up"))
    assert rulebook.pages[0].panels == 2
    assert rulebook.pages[0].labels == ["1", "2"]
    assert any("one sheet" in r for f in rulebook.low_confidence for r in f.reasons)


def test_ligature_and_hyphenation_fixture_exercises_both(extracted: _Extracted) -> None:
    pdf, rulebook = extracted(variant("ligatures-hyphenation"))
    with open_pdf(pdf) as doc:
        glyphs = [g.text for i in range(doc.page_count) for g in doc.page(i).glyphs]
    assert {"fi", "ffl", "fl"} & set(glyphs), "typst should draw ligature glyphs"
    assert "\u00ad" in glyphs, "typst should hyphenate the justified columns"
    text = " ".join(s.text for s in rulebook.sentences)
    assert "\u00ad" not in text and "\ufb01" not in text
    assert "Unfulfilled contracts" in text


def test_sidebars_tables_and_diagrams_have_their_kinds(extracted: _Extracted) -> None:
    _, rulebook = extracted(variant("two-column"))
    kinds = {b.kind for s in rulebook.sections for b in s.blocks}
    assert {"table", "diagram", "caption", "rule", "list_item", "paragraph"} <= kinds
    _, boxed = extracted(variant("sidebars"))
    sidebars = [b for s in boxed.sections for b in s.blocks if b.kind == "sidebar"]
    assert len(sidebars) == 5


def test_extraction_is_stable(extracted: _Extracted) -> None:
    pdf, first = extracted(variant("three-column"))
    again = extract_rulebook(pdf)
    assert again.model_dump_json() == first.model_dump_json()
    ids = [s.id for s in first.sentences]
    assert len(ids) == len(set(ids))
