"""Mutation operators on rl page source."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook2game.mutate import (
    OPERATORS,
    enumerate_mutants,
    materialize,
    operator_counts,
    page_mutants,
)
from rulebook2game.targets.rl.lexical import code_mask

PAGE = """# page: turn
# implements: 4.1, 4.2
import board

@classes
act play() -> Game:
    frm b : Board
    frm current = 0
    while true:
        act drop(BInt<0, 7> col) {
            col.value >= 0,
            !b.full(col.value)
        }
        b.put(col.value, current)  # a comment with == and 3
        if b.line(current) and current == 0:
            return
        current = 1 - current

fun label() -> String:
    return "a < b == 1"s

fun pretty_print(Game g):
    if g.current == 0:
        print("x"s)
"""


def _by_op(op: str) -> list[tuple[int, str, str]]:
    out = []
    for m in page_mutants("turn", PAGE, [op]):
        changed = [
            line[1:]
            for line in m.diff.splitlines()
            if line.startswith("+") and not line.startswith("+++")
        ]
        out.append((m.line, m.description, "\n".join(changed)))
    return out


def test_code_mask_hides_strings_and_comments() -> None:
    line = 'x = "a == b" # c < d'
    mask = code_mask(line)
    assert (
        len(mask) == len(line) and "==" not in mask and "<" not in mask and mask.startswith("x =")
    )


def test_cmp_flip_skips_generics_strings_and_presentation() -> None:
    got = _by_op("cmp_flip")
    lines = {line for line, _, _ in got}
    assert lines == {11, 15}  # >= in the precondition, == in the condition
    assert (11, "`>=` → `<`", "            col.value < 0,") in got


def test_negate_cond_and_bool_flip() -> None:
    neg = _by_op("negate_cond")
    assert [(line, text.strip()) for line, _, text in neg] == [
        (15, "if !(b.line(current) and current == 0):")
    ]
    flips = {d for _, d, _ in _by_op("bool_flip")}
    assert flips == {"`true` → `false`", "`and` → `or`"}


def test_off_by_one_changes_integers_only_in_code() -> None:
    got = _by_op("off_by_one")
    assert all(line not in (3, 14, 20) for line, _, _ in got)  # import, comment, string
    assert (10, "`7` → `8`", "        act drop(BInt<0, 8> col) {") in got
    texts = {text.strip() for *_, text in got}
    assert {"current = 0 - current", "frm current = (-1)"} <= texts


def test_delete_stmt_replaces_with_noop() -> None:
    got = _by_op("delete_stmt")
    assert [(line, text.strip()) for line, _, text in got] == [(14, "0"), (16, "0"), (17, "0")]


def test_swap_args_and_drop_precondition() -> None:
    swaps = _by_op("swap_args")
    assert [text.strip() for *_, text in swaps] == [
        "b.put(current, col.value)  # a comment with == and 3"
    ]
    drops = page_mutants("turn", PAGE, ["drop_precondition"])
    assert len(drops) == 2
    first = drops[0].source.split("\n")[9:12]
    assert first == [
        "        act drop(BInt<0, 7> col) {",
        "            !b.full(col.value)",
        "        }",
    ]
    assert "col.value >= 0" in drops[1].source and "!b.full" not in drops[1].source


def test_single_precondition_drops_the_braces() -> None:
    page = "act play() -> Game:\n    act mark(BInt<0, 3> x) { x.value != 1 }\n    x = 1\n"
    (m,) = page_mutants("p", page, ["drop_precondition"])
    assert m.source.split("\n")[1] == "    act mark(BInt<0, 3> x)"


def test_enumeration_is_deterministic_and_sampled(tmp_path: Path) -> None:
    seat = "\nfun get_current_player(Game g) -> Int:\n    return g.current\n"
    pages = {"turn": PAGE + seat, "other": "fun f() -> Int:\n    return 1 + 2\n"}
    every = enumerate_mutants(pages)
    assert [m.id for m in every] == [m.id for m in enumerate_mutants(pages)]
    assert len({m.id for m in every}) == len(every)
    assert len({m.source for m in every}) == len(every)
    assert set(operator_counts(every)) == set(OPERATORS)
    sample = enumerate_mutants(pages, cap=10, seed=1)
    assert len(sample) == 10 and [m.id for m in sample] == [
        m.id for m in enumerate_mutants(pages, cap=10, seed=1)
    ]
    assert all(m in every for m in sample)
    with pytest.raises(ValueError):
        enumerate_mutants(pages, operators=["nope"])


def test_materialize_copies_game_and_applies(tmp_path: Path) -> None:
    game = tmp_path / "game"
    (game / "pages").mkdir(parents=True)
    (game / "traces").mkdir()
    (game / "build").mkdir()
    (game / "game.toml").write_text('name = "g"\nplayers = 2\n')
    (game / "pages" / "turn.rl").write_text(PAGE)
    (game / "traces" / "t.jsonl").write_text("{}\n")
    mutant = page_mutants("turn", PAGE, ["delete_stmt"])[0]
    dest = materialize(game, mutant, tmp_path / "m")
    assert (dest / "game.toml").is_file() and (dest / "traces" / "t.jsonl").is_file()
    assert not (dest / "build").exists()
    assert (dest / "pages" / "turn.rl").read_text() == mutant.source
    assert (game / "pages" / "turn.rl").read_text() == PAGE


def test_presentation_only_helpers_are_not_mutated() -> None:
    pages = {
        "show": "fun pretty_print(Game g):\n    print(label(1))\n\n"
        "fun label(Int x) -> String:\n    return decorate(x + 1)\n\n"
        "fun decorate(Int x) -> String:\n    return to_string(x)\n",
        "rules": "fun score(Game g) -> Int:\n    return shared(2)\n\n"
        "fun shared(Int x) -> Int:\n    return x + 1\n",
    }
    pages["show"] += "\nfun both(Int x) -> Int:\n    return shared(x) + 1\n"
    from rulebook2game.mutate.mutants import PRESENTATION_ONLY, presentation_closure

    assert presentation_closure(pages, PRESENTATION_ONLY) == {"pretty_print", "label", "decorate"}
    mutated_lines = {(m.page, m.before) for m in enumerate_mutants(pages)}
    assert ("show", "return decorate(x + 1)") not in mutated_lines
    assert ("rules", "return x + 1") in mutated_lines
