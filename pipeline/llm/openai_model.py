"""The real model: the ``openai`` package's chat-completions API with function calling.

Works with OpenAI and any compatible server (vLLM, llama.cpp, Ollama, LM Studio).
The client's own retries are off; :func:`rulebook2game.llm.retry.with_retries` is the
policy, and ``openai`` exceptions become :class:`~rulebook2game.errors.ModelError` here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import openai

from rulebook2game.errors import BadInputError, ModelError
from rulebook2game.llm.messages import (
    AssistantMessage,
    ChatRequest,
    ChatResponse,
    TokenUsage,
    ToolCall,
)
from rulebook2game.llm.retry import RetryEvent, RetryPolicy, with_retries

PLACEHOLDER_KEY = "no-key"
"""Sent when a local server needs no key (the client insists on one)."""


@dataclass(frozen=True)
class Endpoint:
    """Where the model lives."""

    base_url: str | None
    """``None`` means the client's default (api.openai.com)."""
    api_key: str

    def describe(self) -> str:
        return self.base_url or "api.openai.com"


def resolve_endpoint(base_url: str | None, env: Mapping[str, str] | None = None) -> Endpoint | None:
    """The endpoint from ``--base-url``, ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``.

    ``None`` when none of the three is set: there is no model to talk to.

    Raises:
        BadInputError: the URL cannot be an endpoint (no http(s) scheme or no host).
    """
    env = os.environ if env is None else env
    url = base_url or env.get("OPENAI_BASE_URL") or None
    key = env.get("OPENAI_API_KEY") or None
    if url is None and key is None:
        return None
    if url is not None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            source = "--base-url" if base_url else "OPENAI_BASE_URL"
            raise BadInputError(
                f"{source} {url}: not an endpoint URL (expected http(s)://HOST[:PORT]/PATH, "
                "e.g. http://127.0.0.1:8000/v1)"
            )
    return Endpoint(url, key or PLACEHOLDER_KEY)


def _response_of(completion: Any) -> ChatResponse:
    if not completion.choices:
        raise ModelError("model endpoint answered without a choice")
    choice = completion.choices[0]
    calls = tuple(
        ToolCall(id=c.id, name=c.function.name, arguments=c.function.arguments or "")
        for c in (choice.message.tool_calls or ())
        if getattr(c, "function", None) is not None
    )
    usage = completion.usage
    return ChatResponse(
        message=AssistantMessage(content=choice.message.content, tool_calls=calls),
        usage=TokenUsage(
            usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0
        ),
        finish_reason=choice.finish_reason,
        model=completion.model or "",
    )


class OpenAIChatModel:
    """A :class:`~rulebook2game.llm.model.ChatModel` over an OpenAI-compatible endpoint."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        retry: RetryPolicy | None = None,
        timeout: float = 300.0,
        on_retry: Callable[[RetryEvent], None] | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.retry = retry or RetryPolicy()
        self.on_retry = on_retry
        self._client = openai.OpenAI(
            api_key=endpoint.api_key,
            base_url=endpoint.base_url,
            timeout=timeout,
            max_retries=0,
        )

    def complete(self, request: ChatRequest) -> ChatResponse:
        body = request.to_wire()

        def once() -> ChatResponse:
            return _response_of(self._client.chat.completions.create(**body))

        try:
            return with_retries(once, self.retry, on_retry=self.on_retry)
        except ModelError as exc:
            raise ModelError(f"{self.endpoint.describe()}: {exc}") from exc.__cause__

    def close(self) -> None:
        """Release the HTTP connections."""
        self._client.close()
