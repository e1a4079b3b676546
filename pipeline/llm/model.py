"""The one-method seam every model sits behind, and the in-process scripted fake."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rulebook2game.errors import ModelError
from rulebook2game.llm.messages import ChatRequest, ChatResponse


class ChatModel(Protocol):
    """Anything that answers a chat request: the OpenAI client, a cache, a fake."""

    def complete(self, request: ChatRequest) -> ChatResponse:
        """The model's answer to ``request``; raise ``ModelError`` when there is none."""
        ...


Responder = Callable[[ChatRequest], ChatResponse]


@dataclass
class ScriptedModel:
    """A fake model answering with a fixed list of responses, in order.

    Each entry is a response or a function of the request (to look at what was
    sent). ``requests`` keeps every request received, for assertions.
    """

    script: Sequence[ChatResponse | Responder]
    requests: list[ChatRequest] = field(default_factory=list)

    def complete(self, request: ChatRequest) -> ChatResponse:
        self.requests.append(request)
        index = len(self.requests) - 1
        if index >= len(self.script):
            raise ModelError(f"scripted model has no answer for request {index + 1}")
        entry = self.script[index]
        return entry if isinstance(entry, ChatResponse) else entry(request)
