"""The agent: a tool-using model that writes and repairs rule pages.

tools     tool names, argument models (pydantic) and their JSON schemas
dispatch  carrying out one call; every model mistake becomes a correction
pages     page names, headers, atomic writes; header  the page header
toolbox   seams to the rulebook, the compiler and the checks; backends  the real ones
prompts   rendering of ``prompts/`` (jinja2, strict)
state     the loop's typed state; loop  the loop; session  setting up a run
runlog    ``runs/<id>/``: events, page versions, summary; resume by replay
"""

from rulebook2game.agent.dispatch import ToolOutcome, ToolRunner
from rulebook2game.agent.errors import ToolRetry
from rulebook2game.agent.loop import AgentSession, AgentSettings, run_agent
from rulebook2game.agent.pages import PageStore
from rulebook2game.agent.prompts import PromptContext, render
from rulebook2game.agent.runlog import ReplayModel, RunLog, finished_run, open_run
from rulebook2game.agent.session import continue_translation, run_translation
from rulebook2game.agent.state import LoopState, Progress
from rulebook2game.agent.toolbox import (
    Checker,
    CheckReport,
    Compiler,
    CompileReport,
    Finding,
    RulebookView,
    Toolbox,
)
from rulebook2game.agent.tools import TOOL_NAMES, tool_specs

__all__ = [
    "TOOL_NAMES",
    "AgentSession",
    "AgentSettings",
    "CheckReport",
    "Checker",
    "CompileReport",
    "Compiler",
    "Finding",
    "LoopState",
    "PageStore",
    "Progress",
    "PromptContext",
    "ReplayModel",
    "RulebookView",
    "RunLog",
    "ToolOutcome",
    "ToolRetry",
    "ToolRunner",
    "Toolbox",
    "continue_translation",
    "finished_run",
    "open_run",
    "render",
    "run_agent",
    "run_translation",
    "tool_specs",
]
