"""The one reader of what part of an rl line is code (strings and comments masked)."""

from __future__ import annotations

from rulebook2game.targets.rl.lexical import code_mask, code_of


def test_a_hash_inside_a_string_is_not_a_comment() -> None:
    line = 'let s = "a # b" # the comment'
    assert code_mask(line) == 'let s = "     "              '
    assert len(code_mask(line)) == len(line)
    assert code_of(line) == 'let s = "     "'


def test_escapes_and_single_quotes_stay_inside_their_literal() -> None:
    inside = r"say \"hi\" # no"
    assert code_of(f'print("{inside}") # yes') == 'print("' + " " * len(inside) + '")'
    assert code_of("let c = '#' + x") == "let c = ' ' + x"


def test_plain_code_is_unchanged() -> None:
    assert code_of("act mark(BInt<0, 3> row) { free(row) }") == (
        "act mark(BInt<0, 3> row) { free(row) }"
    )
