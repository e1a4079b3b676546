"""``ingest --second-opinion``: a second translation in a fresh context, then the judging.

After the first translator finished, :func:`rulebook2game.second_opinion.prepare_second_opinion`
makes ``GAME_DIR/second/`` (the other target when there is one), and a new agent
conversation — its own prompts, tools, run log and request budget, with no access to
the first translation's pages — translates it. The first game's checks then walk both
engines in lockstep; each disagreement, with its shrunk counterexample and both sides'
pages and cited rules, goes back to the first translator, whose conversation goes on:
it decides from the rulebook which side is right and fixes that side (its page tools
reach the second's pages with ``side="second"``), or records the ambiguity. The second
translation's tokens and cost are kept apart, in its own run log and in the summary.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from rulebook2game.agent import (
    AgentSettings,
    LoopState,
    PageStore,
    Progress,
    RunLog,
    Toolbox,
    ToolRunner,
    continue_translation,
    finished_run,
    open_run,
    render,
    run_translation,
)
from rulebook2game.agent.backends import real_toolbox
from rulebook2game.agent.toolbox import CheckReport
from rulebook2game.errors import Rulebook2GameError
from rulebook2game.llm.messages import ToolCall
from rulebook2game.llm.model import ChatModel
from rulebook2game.llm.usage import Usage
from rulebook2game.second_opinion import brief_context, prepare_second_opinion, second_pages
from rulebook2game.workspace import Workspace

AGAINST = "against"
"""The check stage that walks the two translations in lockstep."""


@dataclass(frozen=True)
class SecondRun:
    """How the second opinion went, for the summary and the command line."""

    status: str
    """``made``, ``reused`` (a finished earlier run of it), or ``not made``."""
    reason: str = ""
    folder: str = ""
    target: str = ""
    run: str = ""
    """Its run log, ``second/runs/<id>``."""
    agent_status: str = ""
    turns: int = 0
    usage: dict[str, Any] = field(default_factory=dict)
    """Tokens and cost of the second translation, apart from the first's."""
    green: bool = False
    """Whether the second translation's own checks passed."""
    found: int = 0
    """Disagreements the first lockstep walk found."""
    left: int = 0
    """Disagreements left after the first translator judged them."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class FirstRun:
    """The first translation's conversation, to go on with."""

    workspace: Workspace
    toolbox: Toolbox
    settings: AgentSettings
    log: RunLog
    state: LoopState
    fingerprint: str
    resume: bool


def _against(report: CheckReport) -> int:
    return sum(1 for f in report.findings if f.check == AGAINST)


def _tagged(sink: Callable[[Progress], None]) -> Callable[[Progress], None]:
    """``sink`` with the second translation's tool events marked as such."""

    def show(event: Progress) -> None:
        if event.what in ("request", "stop", "final_check"):
            sink(event)
        else:
            sink(replace(event, what=f"second: {event.what}"))

    return show


def _second_translation(
    first: FirstRun,
    second_ws: Workspace,
    target: str,
    toc: str,
    model: ChatModel,
    on_progress: Callable[[Progress], None] | None,
) -> tuple[RunLog, dict[str, Any], bool]:
    """Run (or reuse) the second translation; its log, its summary, and whether reused."""
    fingerprint = hashlib.sha256(f"{first.fingerprint}:{target}".encode()).hexdigest()[:16]
    done = finished_run(second_ws.runs_dir, fingerprint) if first.resume else None
    if done is not None:
        return done, done.read_json("summary.json") or {}, True
    log = open_run(second_ws.runs_dir, fingerprint, first.resume)
    log.write_json(
        "run.json",
        {"fingerprint": fingerprint, "target": target, "model": first.settings.model,
         "second_opinion_of": str(first.workspace.root)},
    )  # fmt: skip
    toolbox = real_toolbox(first.toolbox.rulebook, target)
    if on_progress is not None:
        on_progress = _tagged(on_progress)
    context = brief_context(second_ws, toc, independent=True)
    state = run_translation(second_ws, toolbox, model, first.settings, log, context, on_progress)
    report = toolbox.checker.check(second_ws)
    summary = {
        "run": log.id,
        "status": "green" if report.green else "not_green",
        "agent_status": state.status,
        "agent_reason": state.reason,
        "turns": state.turn,
        "usage": {stage: usage.to_json() for stage, usage in state.usage.items()},
        "total": state.total.to_json(),
        "checks": {"green": report.green, "verdict": report.verdict},
    }
    log.write_json("summary.json", summary)
    return log, summary, False


def run_second_opinion(
    first: FirstRun,
    toc: str,
    model: ChatModel,
    second_target: str | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> tuple[SecondRun, LoopState, CheckReport | None]:
    """Make the second translation, walk both, and let the first translator judge.

    Returns how it went, the first conversation's state after the judging, and the
    first game's final check (``None`` when no second opinion could be made).
    """
    ws = first.workspace
    try:
        made = prepare_second_opinion(ws, second_target)
    except Rulebook2GameError as exc:
        return SecondRun("not made", reason=str(exc)), first.state, None
    folder = made.workspace.root.name
    if on_progress is not None:
        on_progress(Progress(first.state.turn, "second_opinion", f"{made.target} in {folder}/"))
    log, summary, reused = _second_translation(
        first, made.workspace, made.target, toc, model, on_progress
    )
    second = second_pages(ws)
    runner = ToolRunner(
        ws, first.toolbox, PageStore(ws.pages_dir, suffix=ws.page_suffix), None, second
    )
    walked = runner.run(ToolCall("second_opinion", "run_checks", "{}"))
    report = runner.last_checks
    found = _against(report) if report is not None else 0
    state = first.state
    if found:
        from rulebook2game.check.report import load_finish_notes

        notes = load_finish_notes(ws.reports_dir)
        message = render(
            "agent/second_opinion.md.j2",
            game=ws.config().title or ws.config().name,
            other_target=made.target,
            folder=folder,
            found=found,
            checks=walked.content,
            earlier=[a.model_dump() for a in notes.ambiguities] if notes else [],
        )
        state = continue_translation(
            ws, first.toolbox, model, first.settings, first.log, state, message, second,
            on_progress,
        )  # fmt: skip
        report = first.toolbox.checker.check(ws)
    total = summary.get("total") or Usage().to_json()
    checks = summary.get("checks") or {}
    result = SecondRun(
        status="reused" if reused else "made",
        folder=folder,
        target=made.target,
        run=str(log.root),
        agent_status=str(summary.get("agent_status") or ""),
        turns=int(summary.get("turns") or 0),
        usage=dict(total),
        green=bool(checks.get("green")),
        found=found,
        left=_against(report) if report is not None else 0,
    )
    return result, state, report
