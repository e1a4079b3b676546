"""``rulebook2game regress``: an intact corpus passes; a broken gold page fails."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.regress import RegressSettings, regress
from rulebook2game.resources import CORPORA_DIR

SMALL = RegressSettings(seed=0, fuzz_playouts=10, oracle_trajectories=3, jobs=2)

BREAKS: dict[str, tuple[str, str, str]] = {
    # game: (page, gold text, broken text) — each a rule a reader would call wrong
    "connect_four": (
        "win",
        "_run(b, row, col, -drow, -dcol) >= 4",
        "_run(b, row, col, -drow, -dcol) >= 5",
    ),
    "tic_tac_toe": (
        "win",
        "    while i < 3:\n        if _line",
        "    while i < 2:\n        if _line",
    ),
    "pig": (
        "end",
        "    if w == player:\n        return 1.0",
        "    if w == player:\n        return 0.5",
    ),
    "breakthrough": (
        "win",
        "reached_rank == far_rank(player)",
        "reached_rank == far_rank(1 - player)",
    ),
    "hearts": ("scoring", "QUEEN_OF_SPADES_POINTS = 13", "QUEEN_OF_SPADES_POINTS = 12"),
}


def _break(game: str, dest: Path) -> Path:
    copy = shutil.copytree(
        CORPORA_DIR / game, dest / game, ignore=shutil.ignore_patterns("runs", "reports")
    )
    page_name, gold, broken = BREAKS[game]
    page = copy / "pages" / f"{page_name}.rl"
    source = page.read_text()
    assert source.count(gold) == 1, f"{game}: the gold text to break moved"
    page.write_text(source.replace(gold, broken))
    return copy


def test_intact_corpus_passes(tmp_path: Path) -> None:
    # A copy: tests never build into the source tree (a read-only checkout must pass).
    skip = shutil.ignore_patterns("build", "runs", "reports", "rulepage", "rbg", "gdl")
    corpus = shutil.copytree(CORPORA_DIR, tmp_path / "corpora", ignore=skip)
    result = regress(corpus, SMALL)
    assert {g.game for g in result.games} == set(BREAKS)
    assert result.ok, [g.first_finding for g in result.games if not g.ok]
    assert {"compile", "replay"} <= set(result.stages)


def test_broken_page_fails_with_a_counterexample(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _break("connect_four", corpus)
    out = CliRunner().invoke(app, ["regress", str(corpus), "--fuzz", "5", "--oracle-runs", "2"])
    assert out.exit_code == 1, out.output
    assert "FAIL connect_four" in out.output
    assert "counterexample (" in out.output
    assert "  0 player 0  drop(col=" in out.output  # its steps are printed
    # What the game's golden traces cover is named under its line, the draw included.
    assert "covers: endings 3: draw (sum 0); seat 0 best (sum 0); seat 1 best" in out.output
    rerun = f"re-run: rulebook2game check {corpus / 'connect_four'} --seed 0 --fuzz 5"
    assert rerun in out.output


@pytest.mark.slow
def test_breaking_a_page_of_every_game_fails(tmp_path: Path) -> None:
    for game in BREAKS:
        _break(game, tmp_path)
    result = regress(tmp_path, SMALL)
    assert not result.ok
    for outcome in result.games:
        assert not outcome.ok, f"{outcome.game}: the broken page went unnoticed"
        finding = outcome.first_finding
        assert finding is not None and finding.counterexample is not None, outcome.game


def test_not_a_corpus_is_bad_input(tmp_path: Path) -> None:
    out = CliRunner().invoke(app, ["regress", str(tmp_path)])
    assert out.exit_code == 2
    assert "no game directories" in out.output


def test_a_game_that_cannot_be_read_does_not_claim_missing_stages(tmp_path: Path) -> None:
    game = tmp_path / "broken"
    game.mkdir()
    (game / "game.toml").write_text('name = "x\n')
    result = CliRunner().invoke(app, ["regress", str(game)])
    assert result.exit_code == 1
    assert "not valid TOML" in result.output
    assert "no compile" not in result.output and "stages: none" in result.output
