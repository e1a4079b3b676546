"""The agent loop through the real ``openai`` client and the scripted HTTP server."""

from __future__ import annotations

import json
from pathlib import Path

from rulebook2game.agent import AgentSettings, PromptContext, RunLog, run_translation
from rulebook2game.agent.pages import MAX_PAGE_CHARS
from rulebook2game.llm.openai_model import Endpoint, OpenAIChatModel
from rulebook2game.llm.retry import RetryPolicy
from rulebook2game.llm.usage import Budget
from rulebook2game.workspace import Workspace
from tests.fake_openai import FakeOpenAIServer, call, script

from .fakes import fake_toolbox, page

CONTEXT = PromptContext(game="Columns", players=2, target="rl", reference="(notes)", toc="1 Setup")


def test_misbehaving_model_over_http_ends_at_turn_budget(tmp_path: Path) -> None:
    huge = page("big", "x = 1\n" * (MAX_PAGE_CHARS // 5))
    steps = script(
        {
            "fail": [{"status": 429, "headers": {"retry-after-ms": "10"}}, {"status": 503}],
            "tool_calls": [call("write_page", '{"name": "board", "content": "# pa')],
        },
        {"tool_calls": [call("rewrite_everything", {})]},
        {"tool_calls": [call("write_page", {"name": "big", "content": huge})]},
        {"content": "Here is my answer in prose."},
        after={"tool_calls": [call("list_pages")]},  # never finishes
    )
    ws = Workspace(tmp_path / "game")
    ws.root.mkdir()
    log = RunLog.open(ws.runs_dir / "r")
    with FakeOpenAIServer(steps) as server:
        model = OpenAIChatModel(
            Endpoint(server.base_url, "k"), retry=RetryPolicy(base_delay=0.01), timeout=5
        )
        state = run_translation(
            ws, fake_toolbox(), model, AgentSettings("any", Budget(max_turns=7)), log, CONTEXT
        )
        received = server.received
    assert state.status == "turn_budget" and state.turn == 7
    assert [r.status for r in received[:3]] == [429, 503, 200]
    details = [e["outcome"]["detail"] for e in log.events if e["event"] == "tool_result"]
    assert details[:3] == ["bad_json", "unknown_tool", "page_too_large"]
    # the text-only answer got a correction as the next user message
    fifth = received[-3].body["messages"]
    assert fifth[-1]["role"] == "user" and fifth[-2]["role"] == "assistant"
    assert not ws.pages()
    stop = [e for e in log.events if e["event"] == "stop"]
    assert stop and stop[0]["status"] == "turn_budget"
    # every request body the server saw was logged as a request event with its hash
    assert len([e for e in log.events if e["event"] == "request"]) == 7
    assert json.loads((log.root / "events.jsonl").read_text().splitlines()[0])["event"] == "request"
