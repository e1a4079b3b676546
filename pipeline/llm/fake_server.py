"""A scripted OpenAI-compatible chat server on a local socket, for tests and demos.

It speaks enough of ``POST /v1/chat/completions`` for the real ``openai`` client.
A script is a list of steps; the step that answers a request is chosen by how many
assistant messages the request already carries, so the same conversation always
gets the same answer (a client that re-sends a request after a crash sees no
difference). A step may first fail a number of times (an HTTP status with headers,
or a delay longer than the client's timeout), or fail forever.

Script file (JSON)::

    {"steps": [
       {"fail": [{"status": 429, "headers": {"retry-after-ms": "20"}}],
        "tool_calls": [{"name": "read_rulebook", "arguments": {}}]},
       {"tool_calls": [{"name": "write_page",
                        "arguments": {"name": "board", "content": {"$file": "board.rl"}}}]},
       {"tool_calls": [{"name": "finish", "raw_arguments": "{not json"}]},
       {"content": "plain text, no tool call"}
     ],
     "after": {"content": "what every request past the last step gets"}}

A script may also hold ``"conversations": [{"match": TEXT, "steps": [...]}]``: a request
whose system prompt or first user message contains TEXT is answered from those steps
instead (a second agent conversation, e.g. the second translation of
``ingest --second-opinion``).

``{"$file": PATH}`` inside arguments is replaced by the file's text (PATH relative
to the script file). Run it standalone::

    python -m rulebook2game.llm.fake_server --script S.json --port 8011 --log requests.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScriptCall(_Strict):
    """A tool call the fake model makes."""

    name: str
    arguments: dict[str, Any] | None = None
    raw_arguments: str | None = None
    """Sent verbatim instead of ``arguments`` (to send malformed JSON)."""


class ScriptFailure(_Strict):
    """One failed attempt: an HTTP error, or a delay before the normal answer."""

    status: int | None = None
    headers: dict[str, str] = {}
    delay: float = 0.0


class ScriptStep(_Strict):
    """The answer to the requests that carry this many assistant messages."""

    content: str | None = None
    tool_calls: tuple[ScriptCall, ...] = ()
    fail: tuple[ScriptFailure, ...] = ()
    """Consumed one per attempt before the answer is given."""
    fail_always: ScriptFailure | None = None


class Conversation(_Strict):
    """Another conversation the server plays: the one whose opening carries ``match``."""

    match: str
    """Text of the system prompt or the first user message that picks this conversation."""
    steps: tuple[ScriptStep, ...] = ()
    after: ScriptStep | None = None


class Script(_Strict):
    """A whole scripted conversation, and any others told apart by their opening."""

    steps: tuple[ScriptStep, ...] = ()
    after: ScriptStep | None = None
    conversations: tuple[Conversation, ...] = ()
    """Checked in order before ``steps``: a request whose first two messages contain a
    conversation's ``match`` is answered from that conversation's steps."""

    def pick(self, body: dict[str, Any]) -> tuple[int, tuple[ScriptStep, ...], ScriptStep | None]:
        """Which conversation answers ``body`` (0: the main one), its steps and ``after``."""
        opening = " ".join(str(m.get("content") or "") for m in list(body.get("messages", []))[:2])
        for number, conversation in enumerate(self.conversations, start=1):
            if conversation.match in opening:
                return number, conversation.steps, conversation.after
        return 0, self.steps, self.after


def _resolve_files(value: Any, base: Path) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$file"}:
            return (base / str(value["$file"])).read_text(encoding="utf-8")
        return {k: _resolve_files(v, base) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve_files(v, base) for v in value]
    return value


def load_script(path: Path) -> Script:
    """Read a script file, inlining ``{"$file": ...}`` arguments."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    return Script.model_validate(_resolve_files(raw, path.resolve().parent))


@dataclass(frozen=True)
class Received:
    """One request the server saw and what it did about it."""

    step: int
    body: dict[str, Any]
    status: int


@dataclass
class _State:
    script: Script
    attempts: dict[tuple[int, int], int] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    log: Path | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


def _completion(step: ScriptStep, index: int, body: dict[str, Any]) -> dict[str, Any]:
    calls = [
        {
            "id": f"call_{index}_{i}",
            "type": "function",
            "function": {
                "name": c.name,
                "arguments": c.raw_arguments
                if c.raw_arguments is not None
                else json.dumps(c.arguments or {}),
            },
        }
        for i, c in enumerate(step.tool_calls)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": step.content}
    if calls:
        message["tool_calls"] = calls
    prompt = len(json.dumps(body.get("messages", []))) // 4
    completion = len(json.dumps(message)) // 4
    return {
        "id": f"chatcmpl-fake-{index}",
        "object": "chat.completion",
        "created": 0,
        "model": str(body.get("model", "fake")),
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def _plan(
    state: _State, body: dict[str, Any]
) -> tuple[int, ScriptStep | None, ScriptFailure | None]:
    """Which step answers ``body``, and whether this attempt fails first."""
    index = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
    conversation, steps, after = state.script.pick(body)
    step = steps[index] if index < len(steps) else after
    if step is None:
        return index, None, None
    with state.lock:
        attempt = state.attempts.get((conversation, index), 0)
        state.attempts[(conversation, index)] = attempt + 1
    if step.fail_always is not None:
        return index, step, step.fail_always
    return index, step, step.fail[attempt] if attempt < len(step.fail) else None


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet; requests are recorded instead."""

    def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}}, {})
            return
        index, step, failure = _plan(state, body)
        status, payload, headers = 200, {}, {}
        if step is None:
            status = 400
            payload = {"error": {"message": f"script exhausted at step {index}"}}
        elif failure is not None and failure.status is not None:
            status, headers = failure.status, failure.headers
            payload = {"error": {"message": f"scripted failure {status}", "type": "fake"}}
        else:
            payload = _completion(step, index, body)
        self._record(Received(index, body, status))  # on arrival, even if the answer stalls
        if failure is not None and failure.status is None:
            time.sleep(failure.delay)
        # A client that gave up (a timeout) is what a delay is for: not an error.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._send(status, payload, headers)

    def _record(self, received: Received) -> None:
        state = self.server.state
        with state.lock:
            state.received.append(received)
            if state.log is not None:
                line = {"step": received.step, "status": received.status, "body": received.body}
                with state.log.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(line) + "\n")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], state: _State) -> None:
        super().__init__(address, _Handler)
        self.state = state


class FakeOpenAIServer:
    """The scripted server running in a background thread.

    Use as a context manager; ``base_url`` is what to give ``--base-url``.
    """

    def __init__(
        self, script: Script, host: str = "127.0.0.1", port: int = 0, log: Path | None = None
    ) -> None:
        self._state = _State(script, log=log)
        self._server = _Server((host, port), self._state)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def received(self) -> list[Received]:
        """Every request so far, in arrival order."""
        with self._state.lock:
            return list(self._state.received)

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    """Serve a script file until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--script", type=Path, required=True, help="script file (JSON)")
    parser.add_argument("--port", type=int, default=0, help="port (0 = any free port)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--log", type=Path, help="append every request to this JSONL file")
    args = parser.parse_args(argv)
    server = FakeOpenAIServer(load_script(args.script), args.host, args.port, args.log).start()
    sys.stderr.write(f"fake OpenAI server on {server.base_url} (Ctrl-C to stop)\n")
    sys.stderr.flush()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
