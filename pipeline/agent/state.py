"""The agent loop's state as typed records: history, usage, repairs, status."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from rulebook2game.llm.messages import Message
from rulebook2game.llm.usage import Usage

Status = Literal["finished", "turn_budget", "token_budget", "repair_budget", "model_error"]
"""How a loop ended: the model called ``finish``, a budget ran out, or the endpoint failed."""

Stage = Literal["translate", "repair", "second_opinion"]
"""``translate`` until the checks first find a problem, ``repair`` from then on;
``second_opinion`` while judging the disagreements with a second translation."""


@dataclass(frozen=True)
class LoopState:
    """Everything the loop knows between two steps (replaced, never mutated)."""

    history: tuple[Message, ...]
    turn: int = 0
    """Model requests made so far (the next request's index)."""
    logged: int = 0
    """How many messages of ``history`` the run log already holds."""
    usage: Mapping[str, Usage] = field(default_factory=dict)
    """Tokens and cost per stage."""
    repairs: int = 0
    """Check runs that found problems."""
    stage: Stage = "translate"
    checks_green: bool = False
    """The last ``run_checks`` was green and no page changed since."""
    finish_refusals: int = 0
    status: Status | None = None
    summary: str = ""
    """The model's ``finish`` summary."""
    reason: str = ""
    """Why the loop stopped, in one line, when it was not ``finish``."""

    @property
    def total(self) -> Usage:
        """Usage over every stage."""
        total = Usage()
        for usage in self.usage.values():
            total = total + usage
        return total


@dataclass(frozen=True)
class Progress:
    """One thing worth showing while the loop runs (the CLI renders these)."""

    turn: int
    what: str
    """``request``, ``response``, a tool name, or ``stop``."""
    detail: str = ""
