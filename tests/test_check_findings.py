"""Findings point at pages (by action and by source line) and at the sections they cite."""

from __future__ import annotations

import json
from pathlib import Path

from rulebook2game.check.findings import ORACLE_LEGAL, Finding, PageIndex, find_location
from rulebook2game.check.page_source import parse_header, parse_section_ids

MOVES = """# page: moves
# implements: 4.1, 4.2#3
# How a disc is dropped.
import board

@classes
act play() -> Game:
    frm b : Board
    while true:
        act drop(BInt<0, 7> col) {
            col.value < 7
        }
        b.put(col.value)
"""

SCORE = """# page: scoring
# implements: 6
fun score(Game g, Int p) -> Float:
    return 0.0
"""


def _workspace(tmp_path: Path) -> Path:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "moves.rl").write_text(MOVES)
    (pages / "scoring.rl").write_text(SCORE)
    rulebook = {
        "sections": [
            {"id": "4.2", "title": "Dropping", "blocks": [{"kind": "p", "text": "Drop a disc."}]},
            {"id": "6", "title": "Scoring", "blocks": [{"kind": "p", "text": "Win: +1."}]},
        ]
    }
    (tmp_path / "rulebook.json").write_text(json.dumps(rulebook))
    return tmp_path


def test_header_and_section_ids() -> None:
    assert parse_header(MOVES) == {"page": "moves", "implements": "4.1, 4.2#3"}
    assert parse_section_ids("4.1, 4.2#3 4.1") == ("4.1", "4.2#3")


def test_action_maps_to_declaring_page(tmp_path: Path) -> None:
    index = PageIndex.load(_workspace(tmp_path) / "pages", tmp_path / "rulebook.json")
    (ref,) = index.pages_declaring("drop(col=7)")
    assert (ref.page, ref.line, ref.sections) == ("moves", 10, ("4.1", "4.2#3"))
    assert index.pages_declaring("play") == []  # the game itself is not an action


def test_location_maps_to_page(tmp_path: Path) -> None:
    index = PageIndex.load(_workspace(tmp_path) / "pages")
    text = "/x/build/pages/scoring.rl:4:5 error: function apply called without precondition"
    assert find_location(text) == "scoring.rl:4"
    ref = index.page_at(text)
    assert ref is not None and (ref.page, ref.line, ref.role) == ("scoring", 4, "failing line")
    assert index.page_at("other.rl:3") is None


def test_locate_fills_pages_and_section_text(tmp_path: Path) -> None:
    index = PageIndex.load(_workspace(tmp_path) / "pages", tmp_path / "rulebook.json")
    finding = Finding(
        ORACLE_LEGAL,
        "oracle",
        "extra legal move drop(col=7)",
        actions=("drop(col=7)",),
        location="scoring.rl:4",
    )
    located = index.locate(finding)
    assert located.page_names == ["scoring", "moves"]  # failing line first
    by_id = {s.id: s for s in located.sections}
    # The passage about the action in question comes first, then page order.
    assert list(by_id) == ["4.2#3", "6", "4.1"]
    assert by_id["4.2#3"].title == "Dropping" and by_id["4.2#3"].text == "Drop a disc."
    assert by_id["4.1"].text == ""  # cited but not in the rulebook


def test_functions_map_to_defining_page(tmp_path: Path) -> None:
    index = PageIndex.load(_workspace(tmp_path) / "pages")
    located = index.locate(Finding("oracle_returns", "oracle", "m", functions=("score",)))
    assert [(p.page, p.role, p.line) for p in located.pages] == [("scoring", "defines score", 3)]


def test_missing_rulebook_gives_ids_only(tmp_path: Path) -> None:
    index = PageIndex.load(_workspace(tmp_path) / "pages", tmp_path / "nope.json")
    located = index.locate(Finding("x", "fuzz", "m", actions=("drop",)))
    assert [s.id for s in located.sections] == ["4.1", "4.2#3"]


def test_section_text_from_rules_md(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "moves.rl").write_text(MOVES)
    (tmp_path / "rules.md").write_text(
        "# Game\n\n## 4 Play\n\n### 4.1 Turns\n\nPlayers alternate.\n\n"
        "### 4.2 Dropping\n\nPick a column. Drop a disc. It falls down.\n"
    )
    index = PageIndex.load(pages)
    by_id = {s.id: s for s in index.locate(Finding("x", "fuzz", "m", actions=("drop",))).sections}
    assert by_id["4.1"].title == "Turns" and by_id["4.1"].text == "Players alternate."
    assert by_id["4.2#3"].text == "It falls down."


RULES = """# page: rules
# implements: 5
fun can_drop(Int col) -> Bool:
    return col < 7

fun after_drop(Int col) -> Int:
    return col
"""


def test_a_legal_move_difference_names_the_preconditions_page_first(tmp_path: Path) -> None:
    """Where one side offers an action the other refuses, the precondition decides: the
    page defining what it calls comes before the page that only declares the action.
    Other differences keep the declaring page first."""
    pages = _workspace(tmp_path) / "pages"
    (pages / "moves.rl").write_text(
        MOVES.replace("import board", "import board\nimport rules")
        .replace("col.value < 7", "can_drop(col.value)")
        .replace("b.put(col.value)", "b.put(after_drop(col.value))")
    )
    (pages / "rules.rl").write_text(RULES)
    index = PageIndex.load(pages)
    legal = Finding(ORACLE_LEGAL, "oracle", "m", actions=("drop(col=7)",))
    located = index.locate(legal)
    assert [(p.page, p.role) for p in located.pages] == [
        ("rules", "drop's precondition calls can_drop"),
        ("moves", "declares drop"),
    ]
    replayed = Finding("replay", "replay", "m", actions=("drop(col=7)",), extra={"what": "legal"})
    assert index.locate(replayed).page_names == ["rules", "moves"]
    returns = Finding("oracle_returns", "oracle", "m", actions=("drop(col=7)",))
    assert [(p.page, p.role) for p in index.locate(returns).pages] == [
        ("moves", "declares drop"),
        ("rules", "drop's effect calls after_drop"),
    ]
