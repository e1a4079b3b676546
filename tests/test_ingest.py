"""``rulebook2game ingest`` end to end against the scripted OpenAI-compatible server.

The scripts in ``tests/data/ingest/`` play a model that writes the corpus' gold pages
(tic-tac-toe), or a wrong connect-four win page (three in a row) that the checks must
catch before the scripted fix. Assertions are on outcomes and logs, not on wording.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.resources import CORPORA_DIR, PROJECT_DIR
from tests.fake_openai import FakeOpenAIServer, Script, load_script

DATA = Path(__file__).resolve().parent / "data" / "ingest"
NO_ENDPOINT = {"OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""}


def _args(game: str, out: Path, *extra: str) -> list[str]:
    corpus = CORPORA_DIR / game
    return [
        "ingest", str(corpus / "rules.pdf"), "-o", str(out),
        "--interface", str(corpus / "interface.toml"), "--oracle", f"openspiel:{game}",
        *extra,
    ]  # fmt: skip


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _events(run_dir: Path) -> list[dict[str, Any]]:
    lines = (run_dir / "events.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def _only_run(out: Path) -> Path:
    runs = [p for p in (out / "runs").iterdir() if (p / "run.json").exists()]
    assert len(runs) == 1
    return runs[0]


def _ingest(game: str, script: str, out: Path, *extra: str) -> tuple[Any, FakeOpenAIServer]:
    with FakeOpenAIServer(load_script(DATA / script)) as server:
        args = _args(game, out, "--base-url", server.base_url, "--model", "any", *extra)
        result = CliRunner().invoke(app, args, env=NO_ENDPOINT)
    return result, server


def test_tic_tac_toe_through_tool_calls_ends_green(tmp_path: Path) -> None:
    out = tmp_path / "ttt"
    result, server = _ingest("tic_tac_toe", "tic_tac_toe.json", out)
    assert result.exit_code == 0, result.output
    for page in ("board", "turn", "win"):
        gold = (CORPORA_DIR / "tic_tac_toe" / "pages" / f"{page}.rl").read_text()
        assert (out / "pages" / f"{page}.rl").read_text() == gold
    run = _only_run(out)
    summary = json.loads((run / "summary.json").read_text())
    assert summary["status"] == "green" and summary["agent_status"] == "finished"
    assert summary["turns"] == len(server.received) == 6
    kinds = {e["event"] for e in _events(run)}
    assert {"request", "response", "tool_call", "tool_result", "page_version", "stop",
            "final_check"} <= kinds  # fmt: skip
    assert len(list((run / "pages").glob("*.diff"))) == 3
    assert json.loads((out / "reports" / "check.json").read_text())["ok"] is True
    assert (out / "AGENTS.md").is_file() and (out / "rulebook.json").is_file()


def test_mistranslated_connect_four_is_caught_and_repaired(tmp_path: Path) -> None:
    out = tmp_path / "c4"
    result, server = _ingest("connect_four", "connect_four_repair.json", out)
    assert result.exit_code == 0, result.output
    run = _only_run(out)
    events = _events(run)
    checks = [e for e in events if e["event"] == "tool_result" and e["name"] == "run_checks"]
    assert [c["outcome"]["effect"] for c in checks] == ["checks_failed", "checks_green"]
    # the request after the failed check carries the repair message with a counterexample
    after = next(r for r in server.received if r.step == 4).body["messages"][-1]
    assert after["role"] == "tool" and after["content"] == checks[0]["outcome"]["content"]
    assert "drop(col=" in after["content"] and "win" in after["content"]
    summary = json.loads((run / "summary.json").read_text())
    assert summary["status"] == "green" and summary["repairs"] == 1
    assert set(summary["usage"]) == {"translate", "repair"}
    assert ">= 4" in (out / "pages" / "win.rl").read_text()


def test_no_endpoint_stops_after_extraction_with_a_brief(tmp_path: Path) -> None:
    out = tmp_path / "c4"
    result = CliRunner().invoke(app, _args("connect_four", out), env=NO_ENDPOINT)
    assert result.exit_code == 3, result.output
    brief = (out / "AGENTS.md").read_text()
    assert "rulebook2game tool" in brief and "drop" in brief  # commands and the interface
    assert "[5.1]" in brief  # the table of contents with section ids
    assert "max_game_length" in brief  # the method asks for the rulebook's length limits
    assert json.loads((out / "rulebook.json").read_text())
    game = (out / "game.toml").read_text()
    assert 'name = "connect_four"' in game and 'title = "Connect Four"' in game  # not "c4"
    assert not (out / "runs").exists() and not list((out / "pages").iterdir())
    assert "AGENTS.md" in result.output
    for name in ("rules.pdf", "rulebook.json", "game.toml", "interface.toml", "AGENTS.md"):
        assert (out / name).stat().st_mode & 0o777 == 0o666 & ~_umask(), name  # not 0600


def test_bad_input_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "game"
    missing = CliRunner().invoke(app, ["ingest", str(tmp_path / "nope.pdf"), "-o", str(out)])
    assert missing.exit_code == 2 and not out.exists()
    bad = tmp_path / "interface.toml"
    bad.write_text("[[actions]]\nname = 3\n")
    rules = str(CORPORA_DIR / "connect_four" / "rules.pdf")
    broken = CliRunner().invoke(app, ["ingest", rules, "-o", str(out), "--interface", str(bad)])
    assert broken.exit_code == 2 and not out.exists()
    oracle = CliRunner().invoke(app, ["ingest", rules, "-o", str(out), "--oracle", "chess:x"])
    assert oracle.exit_code == 2 and not out.exists()
    assert "Traceback" not in missing.output + broken.output + oracle.output


@pytest.mark.parametrize(
    "option",
    [
        ["--players", "0"],
        ["--max-turns", "0"],
        ["--max-tokens", "0"],
        ["--timeout", "0"],
        ["--target", "python"],
    ],
)
def test_impossible_budgets_are_bad_input(option: list[str], tmp_path: Path) -> None:
    out = tmp_path / "game"
    result = CliRunner().invoke(app, _args("connect_four", out, *option), env=NO_ENDPOINT)
    assert result.exit_code == 2, result.output
    assert not out.exists()


@pytest.mark.slow
def test_resume_after_kill_repeats_no_model_call(tmp_path: Path) -> None:
    out = tmp_path / "ttt"
    raw = load_script(DATA / "tic_tac_toe.json").model_dump()
    # step 4 (run_checks) first stalls: the process is killed while it waits for it
    raw["steps"][4]["fail"] = [{"delay": 60.0}]
    script = Script.model_validate(raw)
    env = {**os.environ, **NO_ENDPOINT, "PYTHONPATH": str(PROJECT_DIR)}
    with FakeOpenAIServer(script) as server:
        args = _args("tic_tac_toe", out, "--base-url", server.base_url, "--model", "any")
        command = [sys.executable, "-m", "rulebook2game", *args]
        first = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)  # fmt: skip
        deadline = time.monotonic() + 120
        while not any(r.step == 4 for r in server.received):
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.1)
        first.send_signal(signal.SIGKILL)
        first.wait()
        before = len(server.received)
        second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        received = server.received
    assert second.returncode == 0, second.stderr[-2000:]
    assert [r.step for r in received[before:]] == [4, 5]  # steps 0-3 came from the log
    assert sorted(r.step for r in received) == [0, 1, 2, 3, 4, 4, 5]
    run = _only_run(out)
    events = _events(run)
    assert any(e["event"] == "resume" for e in events)
    turns = [e["turn"] for e in events if e["event"] == "response"]
    assert turns == sorted(set(turns)) == list(range(6))
    assert json.loads((run / "summary.json").read_text())["status"] == "green"


def test_identical_rerun_of_a_finished_ingest_asks_the_model_nothing(tmp_path: Path) -> None:
    out = tmp_path / "ttt"
    first, _server = _ingest("tic_tac_toe", "tic_tac_toe.json", out)
    assert first.exit_code == 0, first.output
    again, server = _ingest("tic_tac_toe", "tic_tac_toe.json", out)
    assert again.exit_code == 0, again.output
    assert server.received == []
    assert "0 model calls" in again.output and _only_run(out).name in again.output
    bigger, _server = _ingest("tic_tac_toe", "tic_tac_toe.json", out, "--max-turns", "50")
    assert bigger.exit_code == 0 and "0 model calls" not in bigger.output  # another budget
    fresh, _server = _ingest("tic_tac_toe", "tic_tac_toe.json", out, "--fresh")
    assert fresh.exit_code == 0 and "0 model calls" not in fresh.output  # a new run
    assert len([p for p in (out / "runs").iterdir() if (p / "run.json").exists()]) == 3


@pytest.mark.parametrize("url", ["not-a-url", "ftp://example.org/v1", "http://"])
def test_an_url_that_cannot_be_an_endpoint_is_bad_input(url: str, tmp_path: Path) -> None:
    out = tmp_path / "game"
    args = _args("tic_tac_toe", out, "--base-url", url, "--model", "any")
    result = CliRunner().invoke(app, args, env=NO_ENDPOINT)
    assert result.exit_code == 2, result.output
    assert url in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_a_refused_connection_fails_soon_with_one_line_naming_the_endpoint(
    tmp_path: Path,
) -> None:
    out = tmp_path / "game"
    with socket.socket() as probe:  # a loopback port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    args = _args("tic_tac_toe", out, "--base-url", url, "--model", "any")
    result = CliRunner().invoke(app, args, env=NO_ENDPOINT)
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and url in errors[0] and "3 attempts" in errors[0], result.output
    assert "no rule pages" not in result.output and "compile" not in result.output
    run = _only_run(out)
    assert sum(e["event"] == "retry" for e in _events(run)) == 2
    assert not (out / "reports").exists()


def test_an_endpoint_without_a_model_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "game"
    args = _args("tic_tac_toe", out, "--base-url", "http://127.0.0.1:9/v1")
    result = CliRunner().invoke(app, args, env=NO_ENDPOINT)
    assert result.exit_code == 2, result.output
    assert "--model" in result.output
    assert not out.exists()


def test_the_rulepage_target_through_tool_calls_ends_green(tmp_path: Path) -> None:
    out = tmp_path / "ttt"
    result, server = _ingest(
        "tic_tac_toe", "tic_tac_toe_rulepage.json", out, "--target", "rulepage"
    )
    assert result.exit_code == 0, result.output
    gold = CORPORA_DIR / "rulepage" / "tic_tac_toe" / "pages"
    for page in ("board", "turn", "win"):
        assert (out / "pages" / f"{page}.page").read_text() == (gold / f"{page}.page").read_text()
    assert not list((out / "pages").glob("*.rl"))
    # the system prompt carries the RulePage notes, and the compile error names the page line
    system = server.received[0].body["messages"][0]["content"]
    assert "RulePage" in system and "pages/scoring.page" in system
    run = _only_run(out)
    compiled = next(
        e for e in _events(run) if e["event"] == "tool_result" and e["name"] == "compile"
    )
    content = compiled["outcome"]["content"]
    assert "pages/turn.page:" in content and "cels" in content and "generated.rl" not in content
    summary = json.loads((run / "summary.json").read_text())
    assert summary["status"] == "green" and summary["agent_status"] == "finished"
    brief = (out / "AGENTS.md").read_text()
    assert "`pages/*.page`" in brief and "pages/*.rl" not in brief


def test_the_rbg_target_through_tool_calls_ends_green(tmp_path: Path) -> None:
    out = tmp_path / "ttt"
    result, server = _ingest("tic_tac_toe", "tic_tac_toe_rbg.json", out, "--target", "rbg")
    assert result.exit_code == 0, result.output
    gold = CORPORA_DIR / "rbg" / "tic_tac_toe" / "pages"
    for page in ("board", "turn"):
        assert (out / "pages" / f"{page}.rbg").read_text() == (gold / f"{page}.rbg").read_text()
    # the system prompt carries the RBG notes, and the compile error names the page line
    system = server.received[0].body["messages"][0]["content"]
    assert "Regular Boardgames" in system and "// page: scoring" in system
    run = _only_run(out)
    compiled = next(
        e for e in _events(run) if e["event"] == "tool_result" and e["name"] == "compile"
    )
    content = compiled["outcome"]["content"]
    assert "pages/turn.rbg:" in content and "mrk" in content and "generated.rl" not in content
    summary = json.loads((run / "summary.json").read_text())
    assert summary["status"] == "green" and summary["agent_status"] == "finished"
    brief = (out / "AGENTS.md").read_text()
    assert "`pages/*.rbg`" in brief and "#moves" in brief


@pytest.mark.slow
def test_a_second_opinion_finds_a_disagreement_that_the_first_translator_resolves(
    tmp_path: Path,
) -> None:
    """No reference engine: the first translation forgets that a column is a line, which
    fuzzing cannot see. The second, scripted from the RulePage gold pages in its own
    conversation, disagrees; the first translator is sent the shrunk counterexample and
    both sides' rules, fixes its page and records the ambiguity."""
    out = tmp_path / "ttt"
    corpus = CORPORA_DIR / "tic_tac_toe"
    with FakeOpenAIServer(load_script(DATA / "tic_tac_toe_second_opinion.json")) as server:
        args = [
            "ingest", str(corpus / "rules.pdf"), "-o", str(out),
            "--interface", str(corpus / "interface.toml"),
            "--base-url", server.base_url, "--model", "any", "--second-opinion",
        ]  # fmt: skip
        result = CliRunner().invoke(app, args, env=NO_ENDPOINT)
    assert result.exit_code == 0, result.output
    marker = "Another translation of this game exists"
    second_requests = [r for r in server.received if marker in r.body["messages"][1]["content"]]
    first_requests = [r for r in server.received if r not in second_requests]
    assert len(second_requests) == 4 and len(first_requests) == 8
    # the second conversation is fresh: it never sees the first translation's pages
    for request in second_requests:
        text = json.dumps(request.body["messages"])
        assert "_line(b, mark" not in text and "RulePage" in request.body["messages"][0]["content"]
    # the first translator gets the disagreement after its finish, with a counterexample
    # and the rules both sides cite
    judged = next(r for r in first_requests if r.step == 4).body["messages"]
    message = judged[-1]["content"]
    assert judged[-1]["role"] == "user" and "against" in message
    assert "mark(" in message and "The other translation" in message and "Its rulebook" in message
    # read_page with side="second" showed the second translation's page
    read_second = next(r for r in first_requests if r.step == 5).body["messages"][-2]["content"]
    assert read_second == (out / "second" / "pages" / "win.page").read_text()
    gold = (corpus / "pages" / "win.rl").read_text()
    assert (out / "pages" / "win.rl").read_text() == gold
    assert (out / "second" / "pages" / "win.page").is_file()
    run = _only_run(out)
    summary = json.loads((run / "summary.json").read_text())
    second = summary["second_opinion"]
    assert second["status"] == "made" and second["target"] == "rulepage"
    assert second["found"] >= 1 and second["left"] == 0 and second["green"]
    # the second translation's tokens are apart from the first's
    assert second["usage"]["tokens"] > 0 and second["usage"]["requests"] == 4
    assert summary["total"]["requests"] == 8
    assert "second_opinion" in summary["usage"]
    second_run = Path(second["run"])
    assert second_run.parent == out / "second" / "runs"
    assert json.loads((second_run / "summary.json").read_text())["total"]["requests"] == 4
    report = json.loads((out / "reports" / "check.json").read_text())
    assert report["ok"] and "second opinion (200 trajectories)" in report["verdict"]
    assert summary["agent_ambiguities"][0]["sentences"] == ["5.1"]
    assert "a line is a row, a column or a diagonal" in (out / "reports" / "check.md").read_text()
    assert f"{second['found']} found, 0 left" in result.output
    assert "5.1: a line is a row, a column or a diagonal" in result.output


def test_the_gdl_target_through_tool_calls_ends_green(tmp_path: Path) -> None:
    out = tmp_path / "ttt"
    result, server = _ingest("tic_tac_toe", "tic_tac_toe_gdl.json", out, "--target", "gdl")
    assert result.exit_code == 0, result.output
    for page in ("board", "play", "end"):
        written = (out / "pages" / f"{page}.kif").read_text()
        assert written == (DATA / "gdl" / f"{page}.kif").read_text()
    assert not list((out / "pages").glob("*.rl"))
    # the system prompt carries the GDL notes; the compile error names the page line
    system = server.received[0].body["messages"][0]["content"]
    assert "Game Description Language" in system and "; page: scoring" in system
    run = _only_run(out)
    compiled = next(
        e for e in _events(run) if e["event"] == "tool_result" and e["name"] == "compile"
    )
    content = compiled["outcome"]["content"]
    assert "pages/play.kif:12:1" in content and "unsafe rule: ?q" in content
    summary = json.loads((run / "summary.json").read_text())
    assert summary["status"] == "green" and summary["agent_status"] == "finished"
    brief = (out / "AGENTS.md").read_text()
    assert "`pages/*.kif`" in brief and "; implements:" in brief


def test_a_title_with_accents_names_the_game_by_its_letters() -> None:
    from rulebook2game._ingest_workspace import _slug

    # a trial's Kōnane was named `k_nane`
    assert _slug("Kōnane") == "konane"
    assert _slug("Über Spiel!") == "uber_spiel"
    assert _slug("囲碁") == "game"
