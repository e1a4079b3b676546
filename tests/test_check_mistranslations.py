"""Hand-made mistranslations of every corpus game are caught, with a short counterexample
that names the page holding the mistake.

Each case edits one gold page the way a careless translation would (a wrong win
condition, a missing rule, an extra legal move, a wrong scoring rule, a wrong player
order), compiles it once and runs the full check with small, seeded budgets.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulebook2game.check.report import CheckReport, FindingRecord
from rulebook2game.check.run import ALL_STAGES, run_check
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import open_workspace

OPTIONS = {"fuzz": 200, "oracle": 40, "request_timeout": 3.0, "batch_timeout": 5.0}


@dataclass(frozen=True)
class Mistranslation:
    game: str
    what: str
    page: str
    old: str
    new: str
    max_steps: int
    """The longest counterexample accepted (hearts needs 65 steps before the first trick)."""

    def __str__(self) -> str:
        return f"{self.game}-{self.what}"


M = Mistranslation
# Bounds: the shortest possible counterexample is about 9 steps in tic-tac-toe, 7 to 12 in
# connect four and breakthrough, 35 in pig (reaching 100 points) and 66 in hearts (one
# pass-direction draw, 52 deal steps, 12 passes before the first card is played).
# fmt: off
CASES = [
    M("tic_tac_toe", "win", "win", " or _line(b, mark, 0, 2, 1, -1)", "", 9),
    M("tic_tac_toe", "missing", "turn", "        if board.full():\n            return\n", "", 9),
    M("tic_tac_toe", "extra", "turn", "board.get(row.value, col.value) == EMPTY",
      "board.get(row.value, col.value) != CROSS", 4),
    M("tic_tac_toe", "scoring", "win", "    return -1.0", "    return 0.0", 9),
    M("tic_tac_toe", "order", "turn", "frm current = 0", "frm current = 1", 2),
    M("connect_four", "win", "win", ") >= 4", ") >= 5", 12),
    M("connect_four", "missing", "win", " or _line_through(b, row, col, 1, -1)", "", 12),
    M("connect_four", "extra", "turn", "{ !board.column_full(col.value) }", "", 14),
    M("connect_four", "scoring", "win", "    if g.winner == player:\n        return 1.0",
      "    if g.winner == player:\n        return 2.0", 12),
    M("connect_four", "order", "turn", "        current = 1 - current",
      "        if col.value != 0:\n            current = 1 - current", 3),
    M("pig", "win", "end", "if g.scores[p] >= WIN_SCORE", "if g.scores[p] > WIN_SCORE", 60),
    M("pig", "missing", "turn", "                    turn_total = 0\n                    current",
      "                    current", 60),
    M("pig", "extra", "turn", "act roll() { scores[current] + turn_total < WIN_SCORE }",
      "act roll()", 60),
    M("pig", "scoring", "end", "return -1.0 / float(PLAYERS - 1)", "return 0.0", 60),
    M("pig", "order", "turn", "frm current = 0", "frm current = 1", 2),
    M("breakthrough", "win", "win", "reached_rank == far_rank(player)",
      "reached_rank == far_rank(player) - forward(player)", 16),
    M("breakthrough", "missing", "turn", "    return target != colour_of(player)",
      "    return false", 12),
    M("breakthrough", "extra", "turn", "        return target == EMPTY",
      "        return target != colour_of(player)", 12),
    M("breakthrough", "scoring", "win", "    return -1.0", "    return 0.0", 24),
    M("breakthrough", "order", "turn", "frm current = 0", "frm current = 1", 2),
    M("hearts", "win", "hand", "while table.cards_played < CARDS:",
      "while table.cards_played < CARDS - 4:", 118),
    M("hearts", "missing", "tricks", "if suit_of(card) == HEARTS or card == QUEEN_OF_SPADES:",
      "if suit_of(card) == HEARTS:", 118),
    M("hearts", "extra", "tricks", "            return suit_of(card) == t.led_suit",
      "            return true", 75),
    M("hearts", "scoring", "scoring", "QUEEN_OF_SPADES_POINTS = 13",
      "QUEEN_OF_SPADES_POINTS = 12", 118),
    M("hearts", "order", "tricks", "t.current = t.winner", "t.current = t.leader", 75),
]
# fmt: on


def _mutated_game(tmp_path: Path, case: Mistranslation) -> Path:
    src = CORPORA_DIR / case.game
    dest = tmp_path / case.game
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("build", "reports", "runs"))
    page = dest / "pages" / f"{case.page}.rl"
    text = page.read_text()
    assert text.count(case.old) == 1, f"{case}: the edit must match the gold page exactly once"
    page.write_text(text.replace(case.old, case.new))
    return dest


def _naming(report: CheckReport, case: Mistranslation) -> list[FindingRecord]:
    return [
        f
        for f in report.findings
        if case.page in [p.page for p in f.pages]
        and f.counterexample is not None
        and len(f.counterexample) <= case.max_steps
    ]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_mistranslation_is_caught_on_its_page(tmp_path: Path, case: Mistranslation) -> None:
    ws = open_workspace(_mutated_game(tmp_path, case))
    report = run_check(ws, ALL_STAGES, seed=0, options=OPTIONS)
    assert not report.ok, f"{case} was not caught"
    summary = [
        (f.kind, f.message, [p.page for p in f.pages], len(f.counterexample or ()))
        for f in report.findings
    ]
    assert _naming(report, case), f"{case}: no short counterexample naming {case.page}: {summary}"
