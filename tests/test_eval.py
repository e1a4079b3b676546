"""``rulebook2game eval``: numbers a reader can trace back to re-runnable checks; compare."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.evals import load_eval_report, load_suite
from rulebook2game.evals.compare import compare_reports, regressions
from rulebook2game.resources import CORPORA_DIR

BUDGET = ["--seed", "3", "--trajectories", "4", "--fuzz", "5", "--oracle-runs", "2"]


def _invoke(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """tic_tac_toe with two agent runs, evaluated once with a tiny budget."""
    root = tmp_path_factory.mktemp("eval")
    game = shutil.copytree(
        CORPORA_DIR / "tic_tac_toe",
        root / "corpus" / "tic_tac_toe",
        ignore=shutil.ignore_patterns("build", "runs", "reports"),
    )
    for run_id, status, repairs, calls, tokens, cost in (
        ("20250101-000000-aaaa", "not_green", 3, 12, 5000, 0.01),
        ("20250102-000000-bbbb", "green", 1, 7, 3000, 0.02),
    ):
        folder = game / "runs" / run_id
        folder.mkdir(parents=True)
        (folder / "events.jsonl").write_text("")
        total = {"requests": calls, "tokens": tokens, "cost_usd": cost}
        summary = {"run": run_id, "status": status, "repairs": repairs, "total": total}
        (folder / "summary.json").write_text(json.dumps(summary))
    out = root / "reports"
    _invoke("eval", str(root / "corpus"), *BUDGET, "--out", str(out))
    (path,) = out.glob("*-corpus.json")
    return path, json.loads(path.read_text())


def test_report_holds_every_metric(evaluated: tuple[Path, dict[str, Any]]) -> None:
    path, data = evaluated
    assert data["format"] == "rulebook2game-eval/1" and path.with_suffix(".md").is_file()
    (game,) = data["games"]
    assert game["compiles"] and game["check_passes"]
    golden = len(list((CORPORA_DIR / "tic_tac_toe" / "traces").glob("*.jsonl")))
    assert golden and game["golden"] == {"num": golden, "den": golden}
    assert game["oracle"]["agreement"] == {"num": 4, "den": 4}
    assert game["oracle"]["binding"] == "openspiel:tic_tac_toe"
    coverage = game["coverage"]
    assert coverage["source"] == "rules.md"
    assert coverage["sentences"]["den"] == 19  # rule sentences of the ledger (no front matter)
    assert coverage["sentences"]["num"] == 19 - len(coverage["uncited"])
    assert coverage["uncited"] == ["1#1", "1#2", "1#3"]  # the overview is cited by no page
    assert game["runs"] == {
        "runs": 2,
        "finished": 2,
        "green": 1,
        "repairs": 4,
        "model_calls": 19,
        "tokens": 8000,
        "cost_usd": 0.03,
        "latest": "20250102-000000-bbbb",
    }
    assert game["mutants"] is None  # not asked for
    overall = data["overall"]
    assert overall["oracle_agreement"] == {"num": 4, "den": 4} and overall["tokens"] == 8000


def test_numbers_trace_back_to_commands_a_reader_can_rerun(
    evaluated: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    path, data = evaluated
    assert data["settings"]["seed"] == 3 and "git_commit" in data  # None outside a checkout
    (game,) = data["games"]
    eval_cmd, check_cmd = game["commands"]
    assert eval_cmd.endswith("--seed 3 --trajectories 4 --fuzz 5 --oracle-runs 2")
    assert 'Random(f"{seed}:oracle:{run}")' in path.with_suffix(".md").read_text()
    # Re-running the game's eval command gives the same numbers.
    _invoke(*shlex.split(eval_cmd)[1:], "--out", str(tmp_path))
    (again,) = json.loads(next(tmp_path.glob("*.json")).read_text())["games"]
    for key in ("golden", "oracle", "coverage", "check_passes", "findings"):
        assert again[key] == game[key], key
    # The check command behind "check passes" reproduces the same stages.
    _invoke(*shlex.split(check_cmd)[1:])
    check = json.loads((Path(game["path"]) / "reports" / "check.json").read_text())
    assert {s["name"]: f"{s['status']}: {s['summary']}" for s in check["stages"]}.keys() == (
        game["stages"].keys()
    )
    assert check["ok"] == game["check_passes"]


def test_compare_flags_what_got_worse(
    evaluated: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    path, data = evaluated
    assert regressions(compare_reports(load_eval_report(path), load_eval_report(path))) == []
    worse = json.loads(json.dumps(data))
    den = worse["games"][0]["golden"]["den"]
    worse["games"][0]["golden"]["num"] = den - 2
    worse["overall"]["golden"]["num"] = worse["overall"]["golden"]["den"] - 2
    worse_path = tmp_path / "worse.json"
    worse_path.write_text(json.dumps(worse))
    changes = compare_reports(load_eval_report(path), load_eval_report(worse_path))
    assert {(c.game, c.metric) for c in regressions(changes)} == {
        ("tic_tac_toe", "golden"),
        ("overall", "golden"),
    }
    md = tmp_path / "cmp.md"
    args = ["eval", "--compare", str(path), str(worse_path), "-o", str(md), "--fail-on-worse"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    lower = f"{100 * (den - 2) / den:.1f}%"
    assert f"| tic_tac_toe | golden | 100.0% | {lower} | worse |" in md.read_text()


def test_mutant_score_runs_the_mutant_runner(tmp_path: Path) -> None:
    from rulebook2game.evals.metrics import mutant_score
    from rulebook2game.evals.suite import Settings

    game = shutil.copytree(
        CORPORA_DIR / "tic_tac_toe",
        tmp_path / "tic_tac_toe",
        ignore=shutil.ignore_patterns("build"),
    )
    record = mutant_score(game, Settings(seed=5, max_mutants=2, mutants=True))
    # Two sampled mutants of the gold pages, each compiled and checked for real.
    assert record.killed.den == 2 and record.killed.num + len(record.survivors) == 2
    assert all(s.split(":")[0] in {"board", "turn", "win"} for s in record.survivors)


def test_suite_files_resolve_games_and_reject_bad_ones(tmp_path: Path) -> None:
    suite = tmp_path / "evals" / "mini.toml"
    suite.parent.mkdir()
    suite.write_text(
        f'name = "mini"\ncorpus = "{CORPORA_DIR}"\ngames = ["pig"]\n[settings]\nfuzz = 1\n'
    )
    loaded = load_suite(suite)
    assert loaded.name == "mini" and [g.name for g in loaded.games] == ["pig"]
    assert loaded.settings.fuzz == 1 and loaded.digest
    suite.write_text('name = "mini"\ngames = ["nope"]\n')
    result = CliRunner().invoke(app, ["eval", "--suite", str(suite)])
    assert result.exit_code == 2 and "no game directory nope" in result.output


def test_a_metric_the_new_run_did_not_measure_is_not_worse(
    evaluated: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    path, data = evaluated
    fewer = json.loads(json.dumps(data))
    fewer["games"][0]["runs"] = None  # the new eval saw no agent runs
    fewer["games"][0]["coverage"] = None
    fewer_path = tmp_path / "fewer.json"
    fewer_path.write_text(json.dumps(fewer))
    changes = compare_reports(load_eval_report(path), load_eval_report(fewer_path))
    assert regressions(changes) == []
    assert {c.metric for c in changes if c.verdict == "not measured"} >= {"coverage", "tokens"}
    md = tmp_path / "cmp.md"
    args = ["eval", "--compare", str(path), str(fewer_path), "-o", str(md), "--fail-on-worse"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "nothing got worse" in result.output
    assert "not measured in the new report" in result.output
    text = md.read_text()
    table, _, apart = text.partition("## Not measured")
    assert "| tic_tac_toe | coverage |" not in table
    assert "tic_tac_toe: " in apart and "coverage" in apart


def test_oracle_blind_hides_the_reference_from_the_check_and_scores_with_it(
    tmp_path: Path,
) -> None:
    game = shutil.copytree(
        CORPORA_DIR / "tic_tac_toe",
        tmp_path / "corpus" / "tic_tac_toe",
        ignore=shutil.ignore_patterns("build", "runs", "reports"),
    )
    out = tmp_path / "reports"
    _invoke("eval", str(game.parent), *BUDGET, "--oracle-blind", "--out", str(out))
    (path,) = out.glob("*-corpus.json")
    data = json.loads(path.read_text())
    (record,) = data["games"]
    assert record["stages"]["oracle"].startswith("skipped")
    assert record["assurance"] == "rulebook"  # golden traces and scenarios, no reference
    assert record["oracle"]["agreement"] == {"num": 4, "den": 4}  # the reference still scores
    assert "--oracle-blind" in data["command"] and "--oracle-blind" in record["commands"][0]
    assert record["commands"][1].endswith("--oracle-runs 0")
