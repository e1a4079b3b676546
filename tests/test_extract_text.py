"""Text rules of the extractor: sentences, de-hyphenation, list and rule markers, glyphs."""

from __future__ import annotations

import pytest

from rulebook2game.extract.records import Glyph, Word
from rulebook2game.extract.sentences import split_sentences
from rulebook2game.extract.text import Joiner, find_marker, vocabulary
from rulebook2game.extract.words import rows_of_words


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Move first. Then score.", ["Move first.", "Then score."]),
        (
            "See 3.2.1 for details, e.g. fog. Rule 3.2 applies.",
            ["See 3.2.1 for details, e.g. fog.", "Rule 3.2 applies."],
        ),
        (
            "It holds 2.5 tons, i.e. Four cubes. Done!",
            ["It holds 2.5 tons, i.e. Four cubes.", "Done!"],
        ),
        ("As in Fig. 2 and p. 4, No. 3 wins.", ["As in Fig. 2 and p. 4, No. 3 wins."]),
        ('He said "stop." Then he left.', ['He said "stop."', "Then he left."]),
        ("Ready? Go (see 4.1). 3 players win.", ["Ready?", "Go (see 4.1).", "3 players win."]),
        (
            "J. Smith wrote it. cards, tokens etc. are fine.",
            ["J. Smith wrote it. cards, tokens etc. are fine."],
        ),
        ("Ends without a stop", ["Ends without a stop"]),
        ("", []),
    ],
)
def test_split_sentences(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


def _word(text: str, x0: float = 0.0, size: float = 10.0) -> Word:
    width = 5.0 * len(text)
    return Word(text, x0, x0 + width, 0.0, size, size * 0.8, size, False, False, "Serif")


def test_hyphens_at_line_ends() -> None:
    vocab = vocabulary(
        [
            (_word("three-player"), _word("game")),
            (_word("the"), _word("reinforcements")),
            (_word("even"), _word("numbered")),
        ]
    )
    joiner = Joiner(vocab)
    assert joiner.join("the rein\u00ad", "forcements arrive") == "the reinforcements arrive"
    assert joiner.join("a mountain-", "eer climbs") == "a mountaineer climbs"
    assert joiner.join("a three\u00ad", "player game") == "a three-player game"
    assert joiner.join("an even-", "numbered space") == "an even-numbered space"
    assert joiner.join("pre-", "Game setup") == "pre- Game setup"
    assert joiner.join("ends", "here") == "ends here"


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["•", "Draw", "a", "card."], ("bullet", "•", "Draw")),
        (["•Draw", "a", "card."], ("bullet", "•", "Draw")),
        (["(cid:127)", "Draw"], ("bullet", "•", "Draw")),
        (["3.2.1", "A", "unit", "moves."], ("rule", "3.2.1", "A")),
        (["4.1.", "Build."], ("rule", "4.1", "Build.")),
        (["2.", "Shuffle."], ("number", "2.", "Shuffle.")),
        (["b)", "Pass."], ("number", "b)", "Pass.")),
        (["The", "rules."], None),
        (["2", "players"], None),
    ],
)
def test_markers(words: list[str], expected: tuple[str, str, str] | None) -> None:
    line: list[Word] = []
    for w in words:  # single spaces between words
        line.append(_word(w, x0=line[-1].x1 + 3.0 if line else 0.0))
    marker = find_marker(tuple(line))
    if expected is None:
        assert marker is None
    else:
        assert marker is not None
        assert (marker.kind, marker.label, marker.words[0].text) == expected


def test_bare_number_with_a_wide_gap_is_a_list_marker() -> None:
    line = (_word("1", x0=0.0), _word("Setup", x0=20.0))
    marker = find_marker(line)
    assert marker is not None and marker.label == "1"


def _glyph(text: str, x0: float, baseline: float, width: float = 5.0) -> Glyph:
    return Glyph(text, x0, x0 + width, baseline - 8, baseline + 2, baseline, "F", 10.0, True)


def test_words_come_from_positions_not_drawing_order() -> None:
    glyphs = [
        _glyph("b", 105, 20),
        _glyph("a", 100, 20),
        _glyph("y", 105, 40),
        _glyph("c", 112, 20),  # a gap of 2pt (0.2 em): a new word
        _glyph("x", 100, 40),
        _glyph("\ufb01", 110, 40),
    ]
    rows = rows_of_words(glyphs)
    assert [[w.text for w in row] for row in rows] == [["ab", "c"], ["xyfi"]]


def test_fake_bold_glyphs_are_kept_once() -> None:
    glyphs = [
        _glyph("a", 100, 20),
        _glyph("a", 100.4, 20),
        _glyph("l", 105, 20),
        _glyph("l", 109, 20),
    ]
    assert [w.text for w in rows_of_words(glyphs)[0]] == ["all"]
