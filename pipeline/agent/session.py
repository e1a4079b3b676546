"""Setting up one agent run on a workspace: prompts, tools, log replay; then the loop."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rulebook2game.agent.dispatch import ToolRunner
from rulebook2game.agent.loop import AgentSession, AgentSettings, initial_state, run_agent
from rulebook2game.agent.pages import PageStore
from rulebook2game.agent.prompts import PromptContext, render
from rulebook2game.agent.runlog import ReplayModel, RunLog
from rulebook2game.agent.state import LoopState, Progress
from rulebook2game.agent.toolbox import Toolbox
from rulebook2game.agent.tools import tool_specs
from rulebook2game.llm.messages import Message, UserMessage, message_from_wire
from rulebook2game.llm.model import ChatModel
from rulebook2game.workspace import Workspace


def opening_messages(context: PromptContext, pages: PageStore) -> tuple[Message, ...]:
    """The system prompt and the task of a new run."""
    system = render("agent/system.md.j2", **context.as_dict())
    task = render(
        "agent/task.md.j2",
        game=context.game,
        existing_pages=pages.names(),
        independent=context.independent,
    )
    state = initial_state(system, task)
    return state.history


def _logged_opening(log: RunLog) -> tuple[Message, ...] | None:
    first = log.logged("request", 0)
    if first is None:
        return None
    return tuple(message_from_wire(m) for m in first["messages"])


def run_translation(
    workspace: Workspace,
    toolbox: Toolbox,
    model: ChatModel,
    settings: AgentSettings,
    log: RunLog,
    context: PromptContext,
    on_progress: Callable[[Progress], None] | None = None,
) -> LoopState:
    """Run the agent on ``workspace`` until it finishes or a budget ends it.

    A resumed log starts from the conversation it recorded (not from freshly rendered
    prompts, which may now differ) and replays its responses and tool outcomes.
    """
    pages = PageStore(workspace.pages_dir, context.max_page_chars, workspace.page_suffix)
    opening = _logged_opening(log) or opening_messages(context, pages)
    session = AgentSession(
        settings=settings,
        model=ReplayModel(model, log),
        runner=ToolRunner(workspace, toolbox, pages),
        log=log,
        specs=tool_specs(),
        on_progress=on_progress or (lambda _p: None),
    )
    if log.resumed:
        log.append("resume", events=len(log.events))
    return run_agent(session, LoopState(history=opening))


def continue_translation(
    workspace: Workspace,
    toolbox: Toolbox,
    model: ChatModel,
    settings: AgentSettings,
    log: RunLog,
    state: LoopState,
    message: str,
    second: PageStore | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> LoopState:
    """Go on with a conversation that ended: ``message`` is its next user turn.

    Used to bring a second opinion's disagreements to the translator that finished;
    its page tools then reach the second translation's pages too (``second``). The
    turns that follow count as stage ``second_opinion``.
    """
    pages = PageStore(workspace.pages_dir, suffix=workspace.page_suffix)
    session = AgentSession(
        settings=settings,
        model=ReplayModel(model, log),
        runner=ToolRunner(workspace, toolbox, pages, second=second),
        log=log,
        specs=tool_specs(),
        on_progress=on_progress or (lambda _p: None),
    )
    resumed = replace(
        state,
        history=(*state.history, UserMessage(message)),
        status=None,
        reason="",
        stage="second_opinion",
        checks_green=False,
        finish_refusals=0,
    )
    return run_agent(session, resumed)
