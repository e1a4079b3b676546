"""One count of sentence coverage: ``check``'s report (and so ``run_checks``) and
``eval`` read the ledger's roles alike: examples (their continuation sentences too)
are the scenarios' to cover, framing text is no rule."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook2game.check.sentences import coverage_of
from rulebook2game.evals.metrics import coverage as eval_coverage
from rulebook2game.extract.model import Metadata, PageInfo, Rulebook, Section, Sentence
from rulebook2game.extract.store import write_rulebook
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import open_workspace

LEDGER = {
    "1": [
        ("framing", "The game was first played by ferrymen waiting for the tide."),
        ("framing", "Some of those boats still carry the old board today."),
    ],
    "5": [
        ("rule", "A piece moves one square forward."),
        ("rule", "A piece may capture diagonally forward."),
        ("example", "Example: the piece on a7 moves to a6."),
        ("example", "From a6 it may later capture on b5."),
    ],
    "6": [("rule", "The first to reach the far rank wins.")],
}


def _game(tmp_path: Path) -> Path:
    game = tmp_path / "breakthrough"
    shutil.copytree(CORPORA_DIR / "breakthrough", game)
    (game / "rules.md").unlink()
    sections = [
        Section(
            id=sid,
            title=f"Section {sid}",
            level=1,
            page=1,
            number=sid,
            sentences=[
                Sentence(id=f"{sid}#{i}", kind="paragraph", role=role, block=0, page=1, text=text)
                for i, (role, text) in enumerate(rows, start=1)
            ],
        )
        for sid, rows in LEDGER.items()
    ]
    meta = Metadata(source="rules.pdf", pages=1, sha256="0" * 64, extractor="test")
    rulebook = Rulebook(
        metadata=meta, pages=[PageInfo(number=1, width=1, height=1)], sections=sections
    )
    write_rulebook(rulebook, game / "rulebook.json")
    # a scenario covers the first example only
    scenario = game / "scenarios" / "first_move.toml"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace('cites = ["4.1#1"', 'cites = ["5#3", "4.1#1"'), "utf-8")
    return game


def test_check_and_eval_count_the_same_rule_and_example_sentences(tmp_path: Path) -> None:
    game = _game(tmp_path)
    ws = open_workspace(game)
    heads = {"turn": "4.1, 5#1", "win": "6"}  # 5#2 is cited by no page
    for page in ws.pages():
        old = page.read_text(encoding="utf-8").split("\n")
        if page.stem in heads:
            old[1] = f"# implements: {heads[page.stem]}"
        page.write_text("\n".join(old), "utf-8")
    checked = coverage_of(game, ws.pages_dir)
    evaluated = eval_coverage(ws)
    assert checked is not None and evaluated is not None
    # framing (1#1, 1#2) and examples (5#3, and its continuation 5#4) are no rules
    assert checked.uncited == ["5#2"]
    assert (checked.rules_cited, checked.rules) == (2, 3)
    assert checked.uncovered_examples == ["5#4"]
    assert evaluated.uncited == checked.uncited
    assert (evaluated.sentences.num, evaluated.sentences.den) == (2, 3)
    assert evaluated.uncovered_examples == checked.uncovered_examples
