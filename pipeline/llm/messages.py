"""Chat messages, requests and responses as typed records, and their wire form.

Inside the package a conversation is a tuple of frozen records; only at the edge
(the HTTP client, the request cache, the run log) do they become the plain JSON
dicts of the chat-completions API. ``kind`` tells the records apart so a logged
transcript reads back into the same records.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class ToolCall:
    """One function call the model asked for."""

    id: str
    name: str
    arguments: str
    """The raw JSON text the model wrote (it may be malformed; the agent decides)."""

    def to_wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(frozen=True)
class SystemMessage:
    """The instructions that open a conversation."""

    content: str
    kind: Literal["system"] = "system"

    def to_wire(self) -> dict[str, Any]:
        return {"role": "system", "content": self.content}


@dataclass(frozen=True)
class UserMessage:
    """A message from our side that is not a tool result (task, correction)."""

    content: str
    kind: Literal["user"] = "user"

    def to_wire(self) -> dict[str, Any]:
        return {"role": "user", "content": self.content}


@dataclass(frozen=True)
class AssistantMessage:
    """What the model said: text, tool calls, or both."""

    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    kind: Literal["assistant"] = "assistant"

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            wire["tool_calls"] = [call.to_wire() for call in self.tool_calls]
        return wire


@dataclass(frozen=True)
class ToolMessage:
    """The result of one tool call, answered to the call's id."""

    tool_call_id: str
    content: str
    kind: Literal["tool"] = "tool"

    def to_wire(self) -> dict[str, Any]:
        return {"role": "tool", "tool_call_id": self.tool_call_id, "content": self.content}


Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage


@dataclass(frozen=True)
class ToolSpec:
    """A function the model may call: its name, description and JSON schema."""

    name: str
    description: str
    parameters: dict[str, Any]

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


@dataclass(frozen=True)
class ChatRequest:
    """One chat-completions request."""

    model: str
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    temperature: float | None = None
    max_completion_tokens: int | None = None

    def to_wire(self) -> dict[str, Any]:
        """The JSON body sent to ``/chat/completions``."""
        wire: dict[str, Any] = {
            "model": self.model,
            "messages": [m.to_wire() for m in self.messages],
        }
        if self.tools:
            wire["tools"] = [t.to_wire() for t in self.tools]
            wire["tool_choice"] = "auto"
        if self.temperature is not None:
            wire["temperature"] = self.temperature
        if self.max_completion_tokens is not None:
            wire["max_completion_tokens"] = self.max_completion_tokens
        return wire

    def key(self) -> str:
        """SHA-256 of the canonical JSON of the request: equal requests, equal keys."""
        return request_key(self.to_wire())


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and no insignificant whitespace."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(wire: dict[str, Any]) -> str:
    """The cache key of a wire request."""
    return hashlib.sha256(canonical_json(wire).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TokenUsage:
    """Tokens of one response as the server reported them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class ChatResponse:
    """The model's answer to one request."""

    message: AssistantMessage
    usage: TokenUsage = field(default_factory=TokenUsage)
    finish_reason: str | None = None
    model: str = ""
    cached: bool = False
    """True when the answer came from the request cache or a run log, not the server."""

    def to_wire(self) -> dict[str, Any]:
        """Our stored form (a subset of the API's ``ChatCompletion``)."""
        return {
            "message": self.message.to_wire(),
            "usage": {
                "prompt_tokens": self.usage.prompt_tokens,
                "completion_tokens": self.usage.completion_tokens,
            },
            "finish_reason": self.finish_reason,
            "model": self.model,
        }

    @classmethod
    def from_wire(cls, data: dict[str, Any], *, cached: bool = False) -> ChatResponse:
        """Read back what :meth:`to_wire` wrote."""
        usage = data.get("usage") or {}
        return cls(
            message=assistant_from_wire(data["message"]),
            usage=TokenUsage(
                int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
            ),
            finish_reason=data.get("finish_reason"),
            model=str(data.get("model") or ""),
            cached=cached,
        )


def assistant_from_wire(data: dict[str, Any]) -> AssistantMessage:
    """An assistant message from its wire dict."""
    calls = tuple(
        ToolCall(
            id=str(c.get("id") or f"call_{i}"),
            name=str(c["function"]["name"]),
            arguments=str(c["function"].get("arguments") or ""),
        )
        for i, c in enumerate(data.get("tool_calls") or ())
    )
    return AssistantMessage(content=data.get("content"), tool_calls=calls)


def message_from_wire(data: dict[str, Any]) -> Message:
    """Any message from its wire dict (used to read run logs back)."""
    role = data.get("role")
    if role == "system":
        return SystemMessage(str(data["content"]))
    if role == "user":
        return UserMessage(str(data["content"]))
    if role == "assistant":
        return assistant_from_wire(data)
    if role == "tool":
        return ToolMessage(str(data["tool_call_id"]), str(data["content"]))
    raise ValueError(f"unknown message role {role!r}")
