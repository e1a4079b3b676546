"""A mutant is checked with the evidence ``check`` uses: scenarios, the second
translation ``game.toml`` names (resolved in the copy), and every check stage."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook2game.evals.mutants import KILLED, Profile, check_mutant
from rulebook2game.mutate import Mutant, enumerate_mutants, materialize, read_pages
from rulebook2game.mutate.mutants import evidence_fingerprint
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import open_workspace


def _game(tmp_path: Path) -> Path:
    game = tmp_path / "breakthrough"
    shutil.copytree(CORPORA_DIR / "breakthrough", game)
    shutil.rmtree(game / "traces")  # no golden trace: only the scenarios can kill
    return game


def _mutant(game: Path, mutant_id: str) -> Mutant:
    (m,) = [m for m in enumerate_mutants(read_pages(game / "pages")) if m.id == mutant_id]
    return m


def _forward_flip(game: Path) -> Mutant:
    """The mutant that flips `player == 0` in `forward` (black then moves toward rank 8)."""
    lines = (game / "pages" / "board.rl").read_text(encoding="utf-8").splitlines()
    line = lines.index("fun forward(Int player) -> Int:") + 2  # the `if` below it, 1-based
    return _mutant(game, f"board:{line}:cmp_flip:1")


def test_copy_holds_scenarios_and_a_resolvable_second_translation(tmp_path: Path) -> None:
    game = _game(tmp_path)
    shutil.copytree(
        CORPORA_DIR / "breakthrough", game / "second", ignore=shutil.ignore_patterns("traces")
    )
    text = (game / "game.toml").read_text(encoding="utf-8")
    (game / "game.toml").write_text('second_opinion = "second"\n' + text, encoding="utf-8")
    (game / "rbg.toml").write_text("# map\n", encoding="utf-8")
    dest = materialize(game, _forward_flip(game), tmp_path / "copy")
    assert sorted(p.name for p in (dest / "scenarios").iterdir()) == sorted(
        p.name for p in (game / "scenarios").iterdir()
    )
    assert (dest / "rbg.toml").is_file()
    second = open_workspace(dest).config().second_opinion
    assert second == "second" and (dest / second / "pages" / "board.rl").is_file()


def test_second_translation_outside_the_game_is_named_by_absolute_path(tmp_path: Path) -> None:
    game = _game(tmp_path)
    other = tmp_path / "other"
    shutil.copytree(CORPORA_DIR / "breakthrough", other)
    text = (game / "game.toml").read_text(encoding="utf-8")
    (game / "game.toml").write_text('second_opinion = "../other"\n' + text, encoding="utf-8")
    dest = materialize(game, _forward_flip(game), tmp_path / "copy")
    assert open_workspace(dest).config().second_opinion == str(other.resolve())


def test_journal_key_changes_with_the_scenarios(tmp_path: Path) -> None:
    game = _game(tmp_path)
    before = evidence_fingerprint(game)
    (game / "scenarios" / "first_move.toml").unlink()
    assert evidence_fingerprint(game) != before


@pytest.mark.slow
def test_a_mutant_only_a_scenario_kills_is_reported_killed(tmp_path: Path) -> None:
    game = _game(tmp_path)
    # black moves toward rank 8: no trace, no fuzz, no oracle walk sees it; the
    # first_move scenario does
    mutant = _forward_flip(game)
    outcome = check_mutant(game, mutant, Profile(fuzz=0, oracle=0))
    assert outcome.status == KILLED, outcome
    assert outcome.stage == "scenarios"


@pytest.mark.slow
def test_eval_walks_the_second_translation_as_check_does(tmp_path: Path) -> None:
    from rulebook2game.evals.metrics import evaluate_game
    from rulebook2game.evals.suite import Settings

    game = _game(tmp_path)
    shutil.copytree(CORPORA_DIR / "breakthrough", game / "second")
    text = (game / "game.toml").read_text(encoding="utf-8").replace("oracle = ", "# oracle = ")
    (game / "game.toml").write_text('second_opinion = "second"\n' + text, encoding="utf-8")
    settings = Settings(trajectories=0, fuzz=10, oracle=5)
    record = evaluate_game(game, settings)
    assert record.stages["against"].startswith("ok"), record.stages
