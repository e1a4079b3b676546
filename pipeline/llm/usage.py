"""Token and cost accounting per stage, and the budgets checked before each request."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulebook2game.errors import ModelError
from rulebook2game.llm.messages import ChatResponse
from rulebook2game.llm.pricing import Price


class BudgetExceeded(ModelError):
    """A budget (turns, tokens, repair rounds) is used up; ``which`` names it."""

    def __init__(self, which: str, used: int, limit: int) -> None:
        self.which = which
        self.used = used
        self.limit = limit
        super().__init__(f"{which} budget exhausted ({used} of {limit})")


@dataclass(frozen=True)
class Usage:
    """What one stage (or a whole run) consumed."""

    requests: int = 0
    """Responses received, the cached ones included."""
    cached: int = 0
    """Responses answered from the cache or the run log (no server call)."""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    """US dollars spent on server calls; ``None`` when the model's price is unknown."""

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, response: ChatResponse, price: Price | None) -> Usage:
        """This usage plus one response (cached responses cost nothing now)."""
        spent = 0.0
        if price is not None and not response.cached:
            spent = price.cost(response.usage.prompt_tokens, response.usage.completion_tokens)
        return replace(
            self,
            requests=self.requests + 1,
            cached=self.cached + int(response.cached),
            prompt_tokens=self.prompt_tokens + response.usage.prompt_tokens,
            completion_tokens=self.completion_tokens + response.usage.completion_tokens,
            cost=None if price is None else (self.cost or 0.0) + spent,
        )

    def __add__(self, other: Usage) -> Usage:
        costs = [c for c in (self.cost, other.cost) if c is not None]
        return Usage(
            self.requests + other.requests,
            self.cached + other.cached,
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            sum(costs) if costs else None,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "requests": self.requests,
            "cached": self.cached,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "tokens": self.tokens,
            "cost_usd": None if self.cost is None else round(self.cost, 6),
        }


@dataclass(frozen=True)
class Budget:
    """Limits of one agent run; ``None`` means unlimited."""

    max_turns: int | None = 40
    """Model requests."""
    max_tokens: int | None = 2_000_000
    """Prompt plus completion tokens over the whole run."""
    max_repairs: int | None = 8
    """Check runs that found problems (each one starts a repair round)."""

    def check(self, turns: int, tokens: int, repairs: int) -> None:
        """Raise :class:`BudgetExceeded` if the next request would break a limit."""
        if self.max_turns is not None and turns >= self.max_turns:
            raise BudgetExceeded("turn", turns, self.max_turns)
        if self.max_tokens is not None and tokens >= self.max_tokens:
            raise BudgetExceeded("token", tokens, self.max_tokens)
        if self.max_repairs is not None and repairs > self.max_repairs:
            raise BudgetExceeded("repair", repairs, self.max_repairs)
