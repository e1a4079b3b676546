"""``bench --all``: one table for every game of a corpus, written as JSON and Markdown."""

from __future__ import annotations

import json
import os
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.bench import ROUNDS, pinned, usable_cpus
from rulebook2game.cli import app
from rulebook2game.cli.bench import report_stem, unused_stem
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.base import compile_and_start
from rulebook2game.workspace import Workspace


def test_every_game_of_a_corpus_in_one_report(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    for game in ("tic_tac_toe", "pig"):
        shutil.copytree(
            CORPORA_DIR / game, corpus / game, ignore=shutil.ignore_patterns("build", "reports")
        )
    out = tmp_path / "reports"
    args = ["bench", str(corpus), "--all", "--seconds", "0.05", "--out", str(out)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    (json_path,) = out.glob("*-bench-corpus.json")
    data = json.loads(json_path.read_text())
    assert [g["game"] for g in data["games"]] == ["pig", "tic_tac_toe"]
    assert all(g["ratios"]["rl native (-O2) / openspiel c++ bots"] > 0 for g in data["games"])
    # the two loops took turns: one ratio per round, the lowest and highest in the table
    for game in data["games"]:
        assert len(game["round_ratios"]) == ROUNDS and min(game["round_ratios"]) > 0
        # each round on one CPU, the rounds going round the CPUs this process may use
        cpus = usable_cpus()
        assert game["round_cpus"] == [cpus[r % len(cpus)] for r in range(ROUNDS)]
    markdown = json_path.with_suffix(".md").read_text()
    assert "| pig |" in markdown and "| tic_tac_toe |" in markdown and "10x goal" in markdown
    pig = data["games"][0]["round_ratios"]
    assert f"| {min(pig):.1f}-{max(pig):.1f}x |" in markdown and "per round" in markdown


def test_a_folder_without_games_is_bad_input(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", str(tmp_path), "--all", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "no game directories" in result.output
    assert not list(tmp_path.glob("*-bench*"))


@pytest.mark.slow
def test_check_times_and_the_slowest_stage_per_game(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(
        CORPORA_DIR / "tic_tac_toe",
        corpus / "tic_tac_toe",
        ignore=shutil.ignore_patterns("build", "reports"),
    )
    out = tmp_path / "reports"
    args = ["bench", str(corpus), "--all", "--check", "--seconds", "0.05", "--out", str(out)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    (json_path,) = out.glob("*-bench-corpus.json")
    (game,) = json.loads(json_path.read_text())["games"]
    check = game["check"]
    assert check["ok"] and {"compile", "fuzz", "oracle"} <= set(check["stages"])
    assert check["seconds"] >= max(check["stages"].values()) > 0
    slowest = max(check["stages"], key=check["stages"].__getitem__)
    assert f"| {slowest} " in json_path.with_suffix(".md").read_text()
    # The pages just passed check, so the in-process rows ran beside the native loop.
    assert "rl in-process python / openspiel python" in game["step_ratios"], game["notes"]


def test_an_out_path_that_is_a_file_is_bad_input_before_any_bench(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(
        CORPORA_DIR / "tic_tac_toe", corpus / "tic_tac_toe", ignore=shutil.ignore_patterns("build")
    )
    out = tmp_path / "reports.md"
    out.write_text("mine\n")
    result = CliRunner().invoke(app, ["bench", str(corpus), "--all", "--out", str(out)])
    assert result.exit_code == 2 and "not a directory" in result.output
    assert "tic_tac_toe..." not in result.output  # nothing was compiled or benched
    assert out.read_text() == "mine\n"


def test_two_corpora_benched_the_same_day_keep_both_reports(tmp_path: Path) -> None:
    day = datetime(2026, 11, 28, 12, 0)
    stems = {report_stem(tmp_path / name, day) for name in ("corpora", "rbg", "rulepage")}
    assert stems == {
        "2026-11-28-bench-corpora",
        "2026-11-28-bench-rbg",
        "2026-11-28-bench-rulepage",
    }
    # a folder name that is not a safe file name still gives one
    assert report_stem(tmp_path / "my games (v2)", day) == "2026-11-28-bench-my-games-v2"


def test_a_second_bench_of_the_day_keeps_the_first_report(tmp_path: Path) -> None:
    stem = "2026-11-28-bench-corpora"
    assert unused_stem(tmp_path / "not yet", stem) == stem
    assert unused_stem(tmp_path, stem) == stem
    (tmp_path / f"{stem}.json").write_text("{}")
    (tmp_path / f"{stem}.md").write_text("first")
    assert unused_stem(tmp_path, stem) == f"{stem}-2"
    (tmp_path / f"{stem}-2.md").write_text("second")
    (tmp_path / "2026-11-28-bench-rbg.md").write_text("another corpus")
    assert unused_stem(tmp_path, stem) == f"{stem}-3"
    assert unused_stem(tmp_path, "2026-11-28-bench-rbg") == "2026-11-28-bench-rbg-2"


@pytest.mark.skipif(not usable_cpus(), reason="this OS cannot pin processes to CPUs")
def test_a_round_pins_this_process_and_the_engine_s_worker_to_one_cpu(tmp_path: Path) -> None:
    # both loops of a round on one core: the ratio then compares the loops, not the cores
    game = shutil.copytree(
        CORPORA_DIR / "tic_tac_toe", tmp_path / "game", ignore=shutil.ignore_patterns("build")
    )
    before = os.sched_getaffinity(0)
    cpu = max(before)
    with compile_and_start(Workspace(game), optimized=True) as made:
        worker = getattr(made.engine, "worker_pid", None)
        assert isinstance(worker, int)
        worker_before = os.sched_getaffinity(worker)
        with pinned(cpu, made.engine):
            assert os.sched_getaffinity(0) == {cpu} == os.sched_getaffinity(worker)
        assert os.sched_getaffinity(0) == before
        assert os.sched_getaffinity(worker) == worker_before
