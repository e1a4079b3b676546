"""The tool-using loop: request, answer, tool calls, until ``finish`` or a budget.

Each step is one model request. Before it, the budgets are checked; after it, every
tool call is carried out (or, on a resumed run, its logged outcome replayed) and
answered. The state moves from one :class:`LoopState` to the next; the run log
records every step so an interrupted run continues where it stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rulebook2game.agent import tools
from rulebook2game.agent.dispatch import ToolOutcome, ToolRunner
from rulebook2game.agent.prompts import render
from rulebook2game.agent.runlog import RunLog
from rulebook2game.agent.state import LoopState, Progress
from rulebook2game.errors import ModelError, WorkspaceError
from rulebook2game.llm.messages import (
    ChatRequest,
    ChatResponse,
    Message,
    SystemMessage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
)
from rulebook2game.llm.model import ChatModel
from rulebook2game.llm.pricing import Price
from rulebook2game.llm.usage import Budget, BudgetExceeded, Usage


@dataclass(frozen=True)
class AgentSettings:
    """What stays fixed during a run."""

    model: str
    budget: Budget = field(default_factory=Budget)
    price: Price | None = None
    temperature: float | None = None


@dataclass
class AgentSession:
    """The loop's collaborators: the model, the tools, the log, the progress sink."""

    settings: AgentSettings
    model: ChatModel
    runner: ToolRunner
    log: RunLog
    specs: tuple[ToolSpec, ...]
    on_progress: Callable[[Progress], None] = lambda _progress: None


def initial_state(system: str, task: str) -> LoopState:
    """A fresh conversation: the system prompt and the task."""
    return LoopState(history=(SystemMessage(system), UserMessage(task)))


def run_agent(session: AgentSession, state: LoopState) -> LoopState:
    """Step until the loop has a status; log the stop."""
    while state.status is None:
        state = step(session, state)
    session.log.append("stop", turn=state.turn, status=state.status, reason=state.reason)
    session.on_progress(Progress(state.turn, "stop", state.status))
    return state


def step(session: AgentSession, state: LoopState) -> LoopState:
    """One model request and the tool calls of its answer."""
    try:
        session.settings.budget.check(state.turn, state.total.tokens, state.repairs)
    except BudgetExceeded as exc:
        return replace(state, status=f"{exc.which}_budget", reason=str(exc))  # type: ignore[arg-type]
    request = ChatRequest(
        session.settings.model, state.history, session.specs, session.settings.temperature
    )
    response = _ask(session, state, request)
    if isinstance(response, ModelError):
        return replace(state, status="model_error", reason=str(response))
    turn = state.turn
    usage = dict(state.usage)
    usage[state.stage] = usage.get(state.stage, Usage()).add(response, session.settings.price)
    history: tuple[Message, ...] = (*state.history, response.message)
    state = replace(state, history=history, logged=len(history), usage=usage, turn=turn + 1)
    if not response.message.tool_calls:
        note = render("agent/correction.md.j2", kind="no_tool_call", tools=list(tools.TOOL_NAMES))
        session.on_progress(Progress(turn, "correction", "answer without a tool call"))
        return replace(state, history=(*state.history, UserMessage(note)))
    for index, call in enumerate(response.message.tool_calls):
        state = _handle_call(session, state, turn, index, call)
    return state


def _ask(
    session: AgentSession, state: LoopState, request: ChatRequest
) -> ChatResponse | ModelError:
    key = request.key()
    earlier = session.log.logged("request", state.turn)
    if earlier is not None and earlier["key"] != key:
        raise WorkspaceError(
            f"{session.log.root}: the logged run asked something else at turn {state.turn} "
            "(prompts or tools changed since); start a new run with --fresh"
        )
    new = [m.to_wire() for m in state.history[state.logged :]]
    session.log.append("request", turn=state.turn, key=key, stage=state.stage, messages=new)
    session.on_progress(Progress(state.turn, "request", state.stage))
    started = time.monotonic()
    try:
        response = session.model.complete(request)
    except ModelError as exc:
        session.log.append("model_error", turn=state.turn, key=key, error=str(exc))
        return exc
    session.log.append(
        "response",
        turn=state.turn,
        key=key,
        response=response.to_wire(),
        cached=response.cached,
        seconds=round(time.monotonic() - started, 3),
    )
    return response


def _handle_call(
    session: AgentSession, state: LoopState, turn: int, index: int, call: ToolCall
) -> LoopState:
    logged = session.log.logged("tool_result", turn, index)
    if logged is not None:
        outcome = ToolOutcome.from_json(logged["outcome"])
    else:
        session.log.append(
            "tool_call",
            turn=turn,
            call=index,
            call_id=call.id,
            name=call.name,
            arguments=call.arguments,
        )
        session.runner.on_page_change = lambda change: session.log.page_version(turn, index, change)
        started = time.monotonic()
        outcome = session.runner.run(call)
        session.log.append(
            "tool_result",
            turn=turn,
            call=index,
            call_id=call.id,
            name=call.name,
            outcome=outcome.to_json(),
            seconds=round(time.monotonic() - started, 3),
        )
    session.on_progress(Progress(turn, call.name, describe_call(call, outcome)))
    state, content = apply_outcome(state, outcome)
    return replace(state, history=(*state.history, ToolMessage(call.id, content)))


_EFFECT_WORDS = {
    "none": "ok",
    "retry": "correction",
    "page_changed": "changed",
    "compiled": "compiles",
    "compile_failed": "compile errors",
    "checks_green": "green",
    "checks_failed": "problems found",
    "finish": "finish",
}


def describe_call(call: ToolCall, outcome: ToolOutcome) -> str:
    """One short line about a call and its outcome (for progress displays)."""
    try:
        args = json.loads(call.arguments) if call.arguments.strip() else {}
    except ValueError:
        args = {}
    if not isinstance(args, dict):
        args = {}
    shown = ", ".join(f"{k}={v}" for k, v in args.items() if k in ("name", "section_id"))
    words = _EFFECT_WORDS.get(outcome.effect, outcome.effect)
    detail = f" ({outcome.detail})" if outcome.detail and outcome.detail != args.get("name") else ""
    return f"{shown + ' ' if shown else ''}-> {words}{detail}"


def apply_outcome(state: LoopState, outcome: ToolOutcome) -> tuple[LoopState, str]:
    """The state after one tool outcome, and the text that answers the call."""
    effect = outcome.effect
    if effect == "page_changed":
        return replace(state, checks_green=False), outcome.content
    if effect == "checks_green":
        return replace(state, checks_green=True), outcome.content
    if effect == "checks_failed":
        return (
            replace(
                state,
                checks_green=False,
                repairs=state.repairs + 1,
                stage="repair" if state.stage == "translate" else state.stage,
            ),
            outcome.content,
        )
    if effect == "finish":
        if state.checks_green or state.finish_refusals >= 1:
            return replace(state, status="finished", summary=outcome.detail), outcome.content
        note = render("agent/correction.md.j2", kind="finish_unchecked", last_error="")
        return replace(state, finish_refusals=state.finish_refusals + 1), note
    return state, outcome.content
