"""The long fixtures laid out by groff: whole sentences, figures, roles, sections, title.

``tests/data/extract/long/`` holds two rulebooks rendered by groff (a layout engine the
generated fixtures do not use) from ``extract_eval.long_source``: *Jackal Run* (a dice
race, one column, four pages, a board drawn in text) and *Marsh Draughts* (two columns,
coordinate diagrams, worked examples). Their expected ledgers are committed next to
them; ``python -m rulebook2game.extract_eval.render_groff`` writes all of it again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook2game.extract import (
    Rulebook,
    example_sentence_ids,
    extract_rulebook,
    rule_sentence_ids,
)
from rulebook2game.extract.blocks import BlockBuilder
from rulebook2game.extract.confidence import spliced_lines
from rulebook2game.extract.figures import find_figures, is_token
from rulebook2game.extract.records import Line, Word
from rulebook2game.extract.roles import block_roles, section_role
from rulebook2game.extract.text import Joiner, vocabulary
from rulebook2game.extract_eval.long_score import expected_json, score_ledger
from rulebook2game.extract_eval.long_source import (
    JACKAL_RUN,
    LONG_BOOKS,
    MARSH_DRAUGHTS,
    OVERPRINTED,
)
from rulebook2game.extract_eval.render_groff import groff_source

DATA = Path(__file__).resolve().parent / "data" / "extract" / "long"

_cache: dict[str, Rulebook] = {}


def _extracted(name: str) -> Rulebook:
    if name not in _cache:
        _cache[name] = extract_rulebook(DATA / f"{name}.pdf")
    return _cache[name]


@pytest.mark.parametrize("book", LONG_BOOKS, ids=lambda b: b.name)
def test_committed_fixture_matches_its_source(book: object) -> None:
    from rulebook2game.extract_eval.long_source import LongRulebook

    assert isinstance(book, LongRulebook)
    assert (DATA / f"{book.name}.ms").read_text(encoding="utf-8") == groff_source(book)
    committed = json.loads((DATA / f"{book.name}.expected.json").read_text(encoding="utf-8"))
    assert committed == expected_json(book)
    assert (DATA / f"{book.name}.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("book", LONG_BOOKS, ids=lambda b: b.name)
def test_ledger_has_no_cut_spliced_or_misfiled_sentence(book: object) -> None:
    from rulebook2game.extract_eval.long_source import LongRulebook

    assert isinstance(book, LongRulebook)
    result = score_ledger(book, _extracted(book.name))
    detail = "\n".join(result.problems[:15])
    assert result.figure_rows == 0, detail
    assert result.spliced == 0, detail
    assert result.split == 0, detail
    assert result.misfiled == 0, detail
    assert result.sections_wrong == 0, detail
    assert result.roles_wrong == 0, detail
    assert result.exact == result.expected == result.found, detail


def test_four_pages_and_two_columns() -> None:
    jackal, marsh = _extracted(JACKAL_RUN.name), _extracted(MARSH_DRAUGHTS.name)
    assert jackal.metadata.pages == 4
    assert max(p.columns for p in marsh.pages) == 2
    assert not jackal.low_confidence and not marsh.low_confidence


def test_a_figure_printed_over_the_other_column_flags_the_page() -> None:
    assert (DATA / f"{OVERPRINTED.name}.ms").read_text(encoding="utf-8") == groff_source(
        OVERPRINTED
    )
    rulebook = _extracted(OVERPRINTED.name)
    (flag,) = rulebook.low_confidence
    assert flag.page == 1
    assert any("reading order uncertain" in r and "gutter" in r for r in flag.reasons)


def test_a_board_drawn_in_text_is_one_figure_read_whole() -> None:
    marsh = _extracted(MARSH_DRAUGHTS.name)
    figures = [s for s in marsh.sentences if s.kind == "figure"]
    assert len(figures) == 4
    board = figures[0]
    assert board.role == "figure" and board.id == "2#7"
    rows = board.text.splitlines()
    assert rows[0].split() == list("abcdefgh")
    assert rows[1].split() == ["8", ".", "x", ".", "x", ".", "x", ".", "x", "8"]
    assert len(rows) == 10
    text = marsh.section_text("2")
    assert "figure:\n[2#7]\n" in text and "8   . x . x . x . x   8" in text
    assert board.id not in rule_sentence_ids(marsh)


def test_a_table_set_with_tab_stops_in_the_body_font_is_one_figure() -> None:
    jackal = _extracted(JACKAL_RUN.name)
    (table,) = [s for s in jackal.sentences if s.kind == "figure" and "dice" in s.text]
    assert [r.split("  ")[0] for r in table.text.splitlines()] == [
        "dice", "2 and 5", "4 and 4", "6 and 6, third time",
    ]  # fmt: skip
    assert table.text.splitlines()[3].split()[-3:] == ["back", "to", "1"]


def test_a_table_of_numbers_set_in_type_is_one_figure() -> None:
    jackal = _extracted(JACKAL_RUN.name)
    (table,) = [s for s in jackal.sentences if s.kind == "figure" and "sandstorm" in s.text]
    assert [r.split()[0] for r in table.text.splitlines()] == [
        "card", "breeze", "gust", "whirlwind", "sandstorm",
    ]  # fmt: skip


def test_roles_and_the_ledger_helpers() -> None:
    jackal = _extracted(JACKAL_RUN.name)
    by_id = {s.id: s for s in jackal.sentences}
    rules, examples = rule_sentence_ids(jackal), example_sentence_ids(jackal)
    assert by_id[examples[0]].text == "Example: Amira rolls a 2 and a 5."
    assert all(by_id[i].role == "rule" for i in rules)
    assert {by_id[i].section for i in examples} >= {"playing-a-turn", "example-of-play"}
    framing = {s.section for s in jackal.sentences if s.role == "framing"}
    assert framing == {"front", "introduction", "history-of-the-game"}
    assert "components#1" in rules


def test_subtitle_and_bold_leads_open_no_section() -> None:
    jackal = _extracted(JACKAL_RUN.name)
    ids = [s.id for s in jackal.sections]
    assert ids[0] == "front" and jackal.sections[0].title == "Jackal Run"
    assert jackal.section("front").sentences[0].text == JACKAL_RUN.subtitle
    assert not any(i.startswith("variants/") for i in ids)
    assert jackal.section("variants").sentences[0].text.startswith("Long race: play two laps")


def test_title_comes_from_the_rulebook_or_the_file_name() -> None:
    jackal = _extracted(JACKAL_RUN.name)
    assert jackal.title == "Jackal Run"
    untitled = jackal.model_copy(
        update={"metadata": jackal.metadata.model_copy(update={"title": None})}
    )
    assert untitled.title == "jackal run"


def test_ledger_files_with_fewer_or_more_fields_still_load() -> None:
    data = _extracted(JACKAL_RUN.name).model_dump(mode="json")
    for sec in data["sections"]:
        for s in sec["sentences"]:
            del s["role"]
    old = Rulebook.model_validate(data)
    assert {s.role for s in old.sentences} == {"rule"}
    data["sections"][0]["sentences"][0]["added_later"] = 1
    assert Rulebook.model_validate(data).sentences[0].text == old.sentences[0].text


# -- the rules behind it, one by one ---------------------------------------------------------


def _w(text: str, x0: float, base: float = 100.0, font: str = "Times-Roman") -> Word:
    width = 5.0 * len(text)
    return Word(text, x0, x0 + width, base - 8, base + 2, base, 10.0, False, False, font)


def test_figure_rows_need_two_lines_and_leave_prose_alone() -> None:
    board = [
        [_w(t, 50 + 10 * i, 100 + 12 * r) for i, t in enumerate([".", "x", ".", "x"])]
        for r in range(3)
    ]
    prose = [
        [_w(t, 50 + 30 * i, 150) for i, t in enumerate(["b3,", "g3,", "d4,", "e4,", "d5,", "e5"])]
    ]
    objects, left = find_figures(board + prose)
    assert [o.kind for o in objects] == ["figure"]
    assert left == prose
    single = [[_w(t, 50 + 10 * i, 100) for i, t in enumerate([".", "x", ".", "x"])]]
    assert find_figures(single)[0] == []
    assert is_token("+----+") and is_token("4*") and not is_token("board")


def test_fixed_width_rows_are_a_figure_in_proportional_text() -> None:
    rows = [
        [_w("card", 50, 100, "Courier"), _w("count", 120, 100, "Courier")],
        [_w("gust", 50, 112, "Courier"), _w("4", 130, 112, "Courier")],
    ]
    prose = [
        [_w(t, 50 + 60 * i, 140) for i, t in enumerate(["Running", "text", "of", "the", "rules"])]
    ]
    objects, left = find_figures(rows + prose)
    assert len(objects) == 1
    assert objects[0].rows == (("card          count",), ("gust            4",))
    assert left == prose


def test_lines_with_a_gutter_wide_gap_flag_the_page() -> None:
    def line(*words: Word) -> Line:
        return Line(words, 1, (0,), 50, 500)

    plain = line(_w("one", 50), _w("two", 72), _w("three", 94))
    assert spliced_lines([plain]) == []
    spliced = line(_w("touches", 50), _w("the", 90), _w("Jumps", 300), _w("are", 330))
    (reason,) = spliced_lines([spliced])
    assert "reading order uncertain" in reason and "two columns" in reason


def test_a_broken_word_is_not_part_of_the_vocabulary() -> None:
    lines = [(_w("spring", 0), _w("be-", 40)), (_w("tween", 0), _w("the", 40))]
    joiner = Joiner(vocabulary(lines))
    assert joiner.join("spring be-", "tween the") == "spring between the"
    assert joiner.join("so it car -", "ries a star") == "so it carries a star"


def test_role_rules() -> None:
    assert section_role(["Introduction"], front=False) == "framing"
    assert section_role(["Setup", "History of the game"], front=False) == "framing"
    assert section_role(["Example of play"], front=False) == "example"
    assert section_role(["Moving"], front=True) == "framing"
    assert section_role(["Moving"], front=False) is None
    assert block_roles("sidebar", ["Example: Ann rolls 3.", "She moves."], None) == [
        "example", "example",
    ]  # fmt: skip
    assert block_roles("paragraph", ["Move 2 squares.", "She moves 4 + 4 = 8."], None) == [
        "rule", "example",
    ]  # fmt: skip
    assert block_roles("caption", ["Figure 1: The board."], None) == ["figure"]


def test_a_number_that_continues_a_sentence_is_no_list_marker() -> None:
    def line(text: str, base: float, full: bool = False) -> Line:
        words, x = [], 50.0
        for t in text.split():
            words.append(_w(t, x, base))
            x += 5.0 * len(t) + 3.0
        return Line(tuple(words), 1, (0,), 50, words[-1].x1 if full else 400)

    lines = [
        line("With the pawns on e5 (Player 1) and e4 (Player", 100, full=True),
        line("2) and no wall behind e4, the pawn may jump", 112, full=True),
        line("forward as in step", 124, full=True),
        line("3. of the setup, then stop.", 136),
        line("Then do this for each player", 148),
        line("1. Roll the die.", 160),
        line("2) Move the pawn.", 172),
    ]
    drafts = BlockBuilder(list(lines), 10.0).build()
    assert [(d.kind, d.text) for d in drafts] == [
        (
            "paragraph",
            "With the pawns on e5 (Player 1) and e4 (Player 2) and no wall behind e4, "
            "the pawn may jump forward as in step 3. of the setup, then stop.",
        ),
        ("paragraph", "Then do this for each player"),
        ("list_item", "Roll the die."),
        ("list_item", "Move the pawn."),
    ]
