"""Every request and its response on disk, keyed by the hash of the request.

The same request (same model, messages, tools, settings: compared as canonical
JSON) is answered from disk and never sent twice. Entries are written atomically,
so an interrupted run leaves either a whole entry or none.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.llm.messages import ChatRequest, ChatResponse
from rulebook2game.llm.model import ChatModel
from rulebook2game.trace import write_text_atomic


@dataclass(frozen=True)
class RequestCache:
    """A folder of ``<key>.json`` files, each holding one request and its response."""

    root: Path

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, request: ChatRequest) -> ChatResponse | None:
        """The stored response to ``request``, or ``None``."""
        path = self.path(request.key())
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return ChatResponse.from_wire(data["response"], cached=True)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, request: ChatRequest, response: ChatResponse) -> None:
        """Store ``response`` as the answer to ``request``."""
        entry = {"key": request.key(), "request": request.to_wire(), "response": response.to_wire()}
        write_text_atomic(self.path(request.key()), json.dumps(entry, indent=1) + "\n")


@dataclass(frozen=True)
class CachedModel:
    """A :class:`ChatModel` that answers from a :class:`RequestCache` when it can."""

    inner: ChatModel
    cache: RequestCache

    def complete(self, request: ChatRequest) -> ChatResponse:
        hit = self.cache.get(request)
        if hit is not None:
            return hit
        response = self.inner.complete(request)
        self.cache.put(request, response)
        return response
