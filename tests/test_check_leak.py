"""The leak stage: a Hearts whose pages copy who was dealt which card into public state leaks."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook2game.check.leak import LEAK
from rulebook2game.check.run import compile_stage, leak_stage, run_check
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import open_workspace

OPTIONS = {"leak": 3, "leak_pairs": 8}


def _hearts(dest: Path) -> Path:
    root = dest / "hearts"
    shutil.copytree(CORPORA_DIR / "hearts", root, ignore=shutil.ignore_patterns("build", "reports"))
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))


def test_gold_hearts_does_not_leak(tmp_path: Path) -> None:
    report = run_check(
        open_workspace(_hearts(tmp_path)), (compile_stage, leak_stage), options=OPTIONS
    )
    stage = report.stage("leak")
    assert stage is not None and stage.status == "ok", stage
    assert stage.stats["compared"] > 0 and not report.findings


def test_a_public_copy_of_the_deal_is_a_leak_with_a_counterexample(tmp_path: Path) -> None:
    root = _hearts(tmp_path)
    pages = root / "pages"
    _edit(pages / "cards.rl", "    Int passes\n", "    Int passes\n    Int[CARDS] dealt_to\n")
    dealt = "    t.add_to_hand(t.dealt % PLAYERS, card)\n"
    _edit(pages / "setup.rl", dealt, dealt + "    t.dealt_to[card] = t.dealt % PLAYERS\n")
    report = run_check(open_workspace(root), (compile_stage, leak_stage), options=OPTIONS)
    assert [f.kind for f in report.findings] == [LEAK]
    finding = report.findings[0]
    assert "observation tensor" in finding.message and finding.expected != finding.actual
    assert finding.counterexample is not None
    ours = [s.action for s in finding.counterexample]
    first, second = finding.actions
    i, j = ours.index(first), ours.index(second)
    assert f"(step {i})" in finding.message and f"(step {j})" in finding.message
    assert first.startswith("deal(") and second.startswith("deal(")


def _without_reference(root: Path) -> Path:
    toml = root / "game.toml"
    lines = [line for line in toml.read_text().splitlines() if not line.startswith("oracle")]
    toml.write_text("\n".join(lines) + "\n")
    return root


def test_without_a_reference_gold_hearts_is_compared_and_does_not_leak(tmp_path: Path) -> None:
    root = _without_reference(_hearts(tmp_path))
    report = run_check(open_workspace(root), (compile_stage, leak_stage), options=OPTIONS)
    stage = report.stage("leak")
    assert stage is not None and stage.status == "ok", stage
    assert "no reference" in stage.summary and stage.stats["compared"] > 0
    assert not report.findings


def test_without_a_reference_a_public_copy_of_the_deal_is_still_a_leak(tmp_path: Path) -> None:
    root = _without_reference(_hearts(tmp_path))
    pages = root / "pages"
    _edit(pages / "cards.rl", "    Int passes\n", "    Int passes\n    Int[CARDS] dealt_to\n")
    dealt = "    t.add_to_hand(t.dealt % PLAYERS, card)\n"
    _edit(pages / "setup.rl", dealt, dealt + "    t.dealt_to[card] = t.dealt % PLAYERS\n")
    report = run_check(open_workspace(root), (compile_stage, leak_stage), options=OPTIONS)
    assert [f.kind for f in report.findings] == [LEAK]
    finding = report.findings[0]
    assert "own private values are the same" in finding.message
    assert finding.expected != finding.actual and finding.counterexample is not None
    first, second = finding.actions
    assert first.startswith("deal(") and second.startswith("deal(")


def test_without_a_reference_a_game_with_nothing_private_has_nothing_to_compare(
    tmp_path: Path,
) -> None:
    root = tmp_path / "pig"
    shutil.copytree(CORPORA_DIR / "pig", root, ignore=shutil.ignore_patterns("build", "reports"))
    report = run_check(
        open_workspace(_without_reference(root)), (compile_stage, leak_stage), options=OPTIONS
    )
    stage = report.stage("leak")
    assert stage is not None and stage.status == "ok" and stage.stats["compared"] == 0, stage
    assert "no player holds private values" in stage.summary
