"""Test doubles for the agent's seams: a rulebook, a compiler and a checker in memory."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rulebook2game.agent.toolbox import CheckReport, CompileReport, Finding, Toolbox
from rulebook2game.llm.messages import AssistantMessage, ChatResponse, TokenUsage, ToolCall
from rulebook2game.workspace import Workspace

SECTIONS = {  # rendered like the real rulebook: sentence ids in brackets
    "1": "[1] Setup\n\n[1#1] The board has three columns. [1#2] Players alternate.",
    "2": "[2] Winning\n\n[2#1] A player who fills a column wins.",
}


class FakeRulebook:
    def toc_text(self) -> str:
        return "1 Setup\n2 Winning"

    def section_text(self, section_id: str) -> str:
        return SECTIONS[section_id]


@dataclass
class FakeCompiler:
    calls: int = 0

    def compile(self, workspace: Workspace) -> CompileReport:
        self.calls += 1
        for page in workspace.pages():
            if "SYNTAX" in page.read_text():
                return CompileReport(False, (f"pages/{page.stem}.rl:3:1: error: bad syntax",))
        return CompileReport(True)


@dataclass
class FakeChecker:
    """Green unless a page says ``BUG``; then one finding with a counterexample."""

    compiler: FakeCompiler = field(default_factory=FakeCompiler)
    calls: int = 0

    def check(self, workspace: Workspace) -> CheckReport:
        self.calls += 1
        compiled = self.compiler.compile(workspace)
        if not compiled.ok:
            return CheckReport(False, compiled)
        for page in workspace.pages():
            if "BUG" in page.read_text():
                finding = Finding(
                    "oracle",
                    "oracle_terminal",
                    "game ends too early",
                    trace="p0 drop(col=0)\np1 drop(col=1)\np0 drop(col=0)  <- terminal here",
                    pages=(page.stem,),
                )
                return CheckReport(False, compiled, (finding,), "oracle: 1 of 10 trajectories")
        return CheckReport(True, compiled, (), "fuzz 10 playouts ok")


def fake_toolbox() -> Toolbox:
    compiler = FakeCompiler()
    return Toolbox(FakeRulebook(), compiler, FakeChecker(compiler))


def page(name: str, body: str = "fun f() -> Int:\n    return 1\n", cites: str = "1") -> str:
    return f"# page: {name}\n# implements: {cites}\n{body}"


def reply(*calls: tuple[str, Any], text: str | None = None) -> ChatResponse:
    """A model answer calling tools (arguments as dicts, or raw strings)."""
    tool_calls = tuple(
        ToolCall(f"c{i}", name, args if isinstance(args, str) else json.dumps(args))
        for i, (name, args) in enumerate(calls)
    )
    return ChatResponse(AssistantMessage(text, tool_calls), TokenUsage(100, 10))
