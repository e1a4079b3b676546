"""The sequence encoding and the save-file obfuscation, against Vassal's documented rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from vassal_builders import chain, enc
from vassal_builders import obfuscate as reference_obfuscate

from rulebook2game.errors import ModuleError
from rulebook2game.vassal.obfuscation import deobfuscate, obfuscate
from rulebook2game.vassal.sequence import SequenceDecoder, decode, encode, split_nested
from rulebook2game.vassal.traits import split_chain

TRICKY = st.text(alphabet="ab;,/\t\\'\x1b", max_size=12)


def _pairwise(text: str, delimiter: str) -> list[str]:
    """How Vassal reads a nested chain: this token, then all the rest, repeatedly."""
    parts: list[str] = []
    rest: str | None = text
    while rest is not None:
        decoder = SequenceDecoder(rest, delimiter)
        parts.append(decoder.next())
        rest = decoder.next() if decoder.has_more() else None
    return parts


def test_the_documented_example() -> None:
    # Vassal's own example: {A,{B,C}} encodes as A,B\,C
    inner = encode(["B", "C"], ",")
    assert encode(["A", inner], ",") == "A,B\\,C"
    outer = decode("A,B\\,C", ",")
    assert outer == ["A", "B,C"]
    assert decode(outer[1], ",") == ["B", "C"]


@pytest.mark.parametrize(
    ("tokens", "encoded"),
    [
        (["a;b", "c"], "a\\;b;c"),
        (["ends\\", "x"], "'ends\\';x"),
        (["'quoted'", "x"], "''quoted'';x"),
        (["", ""], ";"),
        (["a\\;b"], "a\\\\;b"),
    ],
)
def test_escapes_and_quotes(tokens: list[str], encoded: str) -> None:
    assert encode(tokens, ";") == encoded
    assert decode(encoded, ";") == tokens


def test_decoder_reads_one_token_at_a_time_with_defaults() -> None:
    decoder = SequenceDecoder("7;x", ";")
    assert decoder.next_int(0) == 7
    assert decoder.next_int(5) == 5  # "x" is not a number
    assert not decoder.has_more()
    assert decoder.next("fallback") == "fallback"
    with pytest.raises(IndexError):
        decoder.next()


@given(st.lists(TRICKY, min_size=1, max_size=6), st.sampled_from([";", ",", "/", "\t", "\x1b"]))
def test_round_trip(tokens: list[str], delimiter: str) -> None:
    encoded = encode(tokens, delimiter)
    assert encoded == enc(tokens, delimiter)
    assert decode(encoded, delimiter) == tokens


@given(TRICKY)
def test_one_pass_chain_split_reads_like_vassal(text: str) -> None:
    # Arbitrary text, well-formed or not, splits exactly as the pair-by-pair reading does.
    assert split_nested(text, "\t") == _pairwise(text, "\t")


def _bare_piece(text: str) -> bool:
    return "\t" not in text and not (len(text) > 1 and text[0] == text[-1] == "'")


@given(st.lists(TRICKY, max_size=7), TRICKY.filter(_bare_piece))
def test_nested_chain_round_trip(outer: list[str], innermost: str) -> None:
    # The innermost piece is stored bare, so (in Vassal too) it cannot hold a tab
    # or be wrapped in quotes on its own.
    traits = [*outer, innermost]
    assert split_chain(chain(traits)) == traits


def test_deep_chain_keeps_escapes_at_every_level() -> None:
    traits = [f"t{i};a\\;b;tab\there;end\\" for i in range(40)] + ["piece;;;img.png;Name"]
    text = chain(traits)
    assert "\\" * 39 + "\t" in text  # the innermost separator carries 39 backslashes
    assert split_chain(text) == traits


@pytest.mark.parametrize("key", [0, 0x21, 0xFF])
def test_obfuscation_round_trip(key: int) -> None:
    text = "begin_save\x1bCHAT<ann> héllo ✓"
    data = obfuscate(text, key)
    assert data == reference_obfuscate(text, key)
    assert data.startswith(b"!VCSK")
    assert deobfuscate(data) == text


def test_plain_text_passes_through() -> None:
    assert deobfuscate(b"begin_save\x1bend_save") == "begin_save\x1bend_save"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"!VCSK2", "odd number"),
        (b"!VCSK21zz", "not hex"),
        (b"\xff\xfe\x00garbage", "not readable text"),
    ],
)
def test_bad_obfuscated_data(data: bytes, message: str) -> None:
    with pytest.raises(ModuleError, match=message):
        deobfuscate(data)
