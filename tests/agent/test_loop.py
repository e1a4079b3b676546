"""The agent loop with a scripted in-process model: outcomes, corrections, budgets, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook2game.agent import AgentSettings, PromptContext, RunLog, Toolbox, run_translation
from rulebook2game.agent.pages import MAX_PAGE_CHARS
from rulebook2game.agent.toolbox import CheckReport
from rulebook2game.errors import (
    BadInputError,
    ModelError,
    Rulebook2GameError,
    WorkspaceError,
)
from rulebook2game.llm.messages import ChatRequest, ChatResponse, ToolMessage, UserMessage
from rulebook2game.llm.model import ScriptedModel
from rulebook2game.llm.usage import Budget
from rulebook2game.workspace import Workspace

from .fakes import FakeChecker, fake_toolbox, page, reply

CONTEXT = PromptContext(game="Columns", players=2, target="rl", reference="(notes)", toc="1 Setup")


def run(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    script: list[ChatResponse],
    budget: Budget | None = None,
    toolbox: Toolbox | None = None,
):
    ws = Workspace(tmp_path / "game")
    ws.root.mkdir(exist_ok=True)
    model = ScriptedModel(script)
    log = RunLog.open(ws.runs_dir / "r1")
    settings = AgentSettings("m", budget or Budget(max_turns=20))
    state = run_translation(ws, toolbox or fake_toolbox(), model, settings, log, CONTEXT)
    return state, model, ws, log


def tool_results(request: ChatRequest) -> list[str]:
    return [m.content for m in request.messages if isinstance(m, ToolMessage)]


def events(log: RunLog, kind: str) -> list[dict]:  # type: ignore[type-arg]
    return [e for e in log.events if e["event"] == kind]


def test_translate_check_finish(tmp_path: Path) -> None:
    state, model, ws, log = run(
        tmp_path,
        [
            reply(("read_rulebook", {}), ("read_rulebook", {"section_id": "1"})),
            reply(("write_page", {"name": "board", "content": page("board")})),
            reply(("compile", {}), ("run_checks", {})),
            reply(("finish", {"summary": "done"})),
        ],
    )
    assert state.status == "finished" and state.summary == "done"
    assert (ws.pages_dir / "board.rl").read_text().startswith("# page: board")
    assert state.turn == 4 and state.repairs == 0
    assert state.total.prompt_tokens == 400
    # the second request carries the table of contents and the section text
    assert "[1#2] Players alternate." in tool_results(model.requests[1])[1]
    versions = events(log, "page_version")
    assert [v["page"] for v in versions] == ["board"]
    assert (log.root / versions[0]["diff"]).read_text().startswith("--- /dev/null")


def test_every_model_mistake_is_corrected_not_fatal(tmp_path: Path) -> None:
    huge = page("big", "x = 1\n" * (MAX_PAGE_CHARS // 5))
    state, model, ws, log = run(
        tmp_path,
        [
            reply(("write_page", '{"name": "board", "content": ')),  # malformed JSON
            reply(("teleport", {"to": "moon"})),  # unknown tool
            reply(("write_page", {"name": "board"})),  # missing argument
            reply(("write_page", {"name": "../../etc/passwd", "content": page("x")})),
            reply(("write_page", {"name": "big", "content": huge})),
            reply(("write_page", {"name": "board", "content": "fun f():\n  pass\n"})),
            reply(("read_page", {"name": "nothing"})),
            reply(("read_rulebook", {"section_id": "99"})),
            reply(text="I think the game is done."),  # no tool call
            reply(("write_page", {"name": "board", "content": page("board")}), ("run_checks", {})),
            reply(("finish", {})),
        ],
    )
    assert state.status == "finished"
    retries = [e["outcome"]["detail"] for e in events(log, "tool_result")][:8]
    assert retries == [
        "bad_json",
        "unknown_tool",
        "bad_arguments",
        "bad_page_name",
        "page_too_large",
        "header_missing",
        "no_such_page",
        "no_such_section",
    ]
    assert "write_page" in tool_results(model.requests[2])[-1]  # lists the real tools
    assert isinstance(model.requests[9].messages[-1], UserMessage)  # correction for text
    assert sorted(p.name for p in ws.pages_dir.iterdir()) == ["board.rl"]
    assert not (tmp_path / "etc").exists()


def test_premature_finish_is_refused_once(tmp_path: Path) -> None:
    state, model, _, _ = run(
        tmp_path,
        [
            reply(("write_page", {"name": "board", "content": page("board")})),
            reply(("finish", {"summary": "early"})),
            reply(("finish", {"summary": "insisting"})),
        ],
    )
    assert state.status == "finished" and state.summary == "insisting"
    assert "run_checks" in tool_results(model.requests[2])[-1]


def test_repair_message_carries_counterexample_pages_and_rules(tmp_path: Path) -> None:
    buggy = page("win", "# BUG: three in a row\n", cites="2#1")
    state, model, _, _ = run(
        tmp_path,
        [
            reply(("write_page", {"name": "win", "content": buggy})),
            reply(("run_checks", {})),
            reply(("write_page", {"name": "win", "content": page("win", cites="2#1")})),
            reply(("run_checks", {})),
            reply(("finish", {"summary": "fixed"})),
        ],
    )
    assert state.status == "finished" and state.repairs == 1
    repair = tool_results(model.requests[2])[-1]
    assert "drop(col=0)" in repair  # the counterexample
    assert "win" in repair and "fills a column wins" in repair  # page and its rule
    assert set(state.usage) == {"translate", "repair"}


def test_model_that_never_finishes_stops_at_turn_budget(tmp_path: Path) -> None:
    script = [reply(("list_pages", {}))] * 10
    state, model, _, log = run(tmp_path, script, Budget(max_turns=5))
    assert state.status == "turn_budget" and len(model.requests) == 5
    assert events(log, "stop")[0]["status"] == "turn_budget"


def test_repair_budget(tmp_path: Path) -> None:
    buggy = page("win", "# BUG\n")
    script = [reply(("write_page", {"name": "win", "content": buggy}), ("run_checks", {}))] * 5
    state, model, _, _ = run(tmp_path, script, Budget(max_turns=20, max_repairs=2))
    assert state.status == "repair_budget" and state.repairs == 3 and len(model.requests) == 3


def test_token_budget(tmp_path: Path) -> None:
    state, model, _, _ = run(tmp_path, [reply(("list_pages", {}))] * 9, Budget(max_tokens=250))
    assert state.status == "token_budget" and len(model.requests) == 3


def test_model_error_ends_with_status(tmp_path: Path) -> None:
    state, _, _, log = run(tmp_path, [reply(("list_pages", {}))])
    assert state.status == "model_error" and "no answer" in state.reason
    assert events(log, "model_error")


def test_resume_replays_log_without_new_calls(tmp_path: Path) -> None:
    script = [
        reply(("write_page", {"name": "board", "content": page("board")})),
        reply(("run_checks", {})),
        reply(("finish", {"summary": "ok"})),
    ]

    def crash(_request: ChatRequest) -> ChatResponse:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, [*script[:2], crash])
    state, model, _, log = run(tmp_path, script[2:])  # the model is asked only once more
    assert state.status == "finished"
    assert len(model.requests) == 1
    assert [e["turn"] for e in events(log, "response")] == [0, 1, 2]  # none twice
    assert len(events(log, "tool_result")) == 3
    assert events(log, "resume")


def test_resume_after_a_crash_inside_a_tool_reruns_only_that_tool(tmp_path: Path) -> None:
    script = [
        reply(("write_page", {"name": "board", "content": page("board")})),
        reply(("run_checks", {})),
        reply(("finish", {"summary": "ok"})),
    ]

    class Crashing(FakeChecker):
        def check(self, workspace: Workspace) -> CheckReport:
            raise KeyboardInterrupt

    crashing = fake_toolbox()
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, script, toolbox=Toolbox(crashing.rulebook, crashing.compiler, Crashing()))
    toolbox = fake_toolbox()
    state, model, ws, log = run(tmp_path, script[2:], toolbox=toolbox)
    assert state.status == "finished" and len(model.requests) == 1
    assert isinstance(toolbox.checker, FakeChecker) and toolbox.checker.calls == 1
    assert [e["name"] for e in events(log, "tool_result")] == ["write_page", "run_checks", "finish"]
    assert len(events(log, "tool_call")) == 3 and ws.pages()


def test_resume_refuses_a_log_that_diverges(tmp_path: Path) -> None:
    def crash(_request: ChatRequest) -> ChatResponse:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, [reply(("list_pages", {})), crash])
    ws = Workspace(tmp_path / "game")
    log = RunLog.open(ws.runs_dir / "r1")
    other = AgentSettings("another-model")  # every request differs from the logged ones
    model = ScriptedModel([reply(("finish", {}))])
    with pytest.raises(WorkspaceError, match="--fresh"):
        run_translation(ws, fake_toolbox(), model, other, log, CONTEXT)
    assert model.requests == []


def test_resumed_log_survives_a_torn_last_line(tmp_path: Path) -> None:
    log = RunLog.open(tmp_path / "r")
    log.append("request", turn=0, key="k", messages=[])
    with (log.root / "events.jsonl").open("a") as fh:
        fh.write('{"event": "response", "turn": 0, "key": "k", "resp')
    again = RunLog.open(tmp_path / "r")
    assert [e["event"] for e in again.events] == ["request"]
    again.append("note", text="after")
    lines = (log.root / "events.jsonl").read_text().splitlines()
    assert [json.loads(line)["event"] for line in lines] == ["request", "note"]


def test_model_failure_is_a_package_error_but_not_bad_input() -> None:
    # The command line prints package errors as one line; a failing endpoint is exit 1
    # (the run failed), never exit 2 (the user's input was wrong).
    assert issubclass(ModelError, Rulebook2GameError)
    assert not issubclass(ModelError, BadInputError)
    assert ModelError("endpoint gone").exit_code == 1
