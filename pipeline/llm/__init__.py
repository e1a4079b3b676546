"""The model layer: chat-completions requests with function calling, and their costs.

messages      typed requests, responses and messages; their wire form and hash
model         the ``ChatModel`` seam (one method) and an in-process scripted fake
openai_model  the real endpoint through the ``openai`` package (its retries off)
errors        retry-or-not for every ``openai`` exception; ``BudgetExceeded``
retry         the one backoff helper (exponential, jitter, ``Retry-After``)
cache         request/response cache on disk by request hash
pricing       prices from ``prices.toml``; usage  tokens, cost and budgets
fake_server   a scripted OpenAI-compatible HTTP server for tests and demos
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rulebook2game.llm.cache import CachedModel, RequestCache
from rulebook2game.llm.messages import (
    AssistantMessage,
    ChatRequest,
    ChatResponse,
    Message,
    SystemMessage,
    TokenUsage,
    ToolCall,
    ToolMessage,
    ToolSpec,
    UserMessage,
)
from rulebook2game.llm.model import ChatModel, ScriptedModel
from rulebook2game.llm.pricing import Price, load_prices, price_for
from rulebook2game.llm.usage import Budget, BudgetExceeded, Usage

if TYPE_CHECKING:
    from rulebook2game.llm.errors import ERROR_TABLE, ErrorPolicy, classify
    from rulebook2game.llm.openai_model import Endpoint, OpenAIChatModel, resolve_endpoint
    from rulebook2game.llm.retry import RetryPolicy, with_retries

# The ``openai`` package takes seconds to import: names that need it load on first use,
# so commands that never talk to a model start fast.
_LAZY = {
    "ERROR_TABLE": "errors",
    "ErrorPolicy": "errors",
    "classify": "errors",
    "Endpoint": "openai_model",
    "OpenAIChatModel": "openai_model",
    "resolve_endpoint": "openai_model",
    "RetryPolicy": "retry",
    "with_retries": "retry",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "ERROR_TABLE",
    "AssistantMessage",
    "Budget",
    "BudgetExceeded",
    "CachedModel",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "Endpoint",
    "ErrorPolicy",
    "Message",
    "OpenAIChatModel",
    "Price",
    "RequestCache",
    "RetryPolicy",
    "ScriptedModel",
    "SystemMessage",
    "TokenUsage",
    "ToolCall",
    "ToolMessage",
    "ToolSpec",
    "Usage",
    "UserMessage",
    "classify",
    "load_prices",
    "price_for",
    "resolve_endpoint",
    "with_retries",
]
