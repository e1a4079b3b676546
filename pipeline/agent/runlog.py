"""One agent run on disk: ``runs/<id>/``, written as it happens, readable to resume.

::

    runs/<id>/run.json        what was asked (the command's fingerprint and settings)
    runs/<id>/events.jsonl    every request (new messages only), response, retry, tool
                              call and result, page change, stop; one JSON object a line
    runs/<id>/pages/          each page version (<turn>-<call>-<page>.rl) and its diff (.diff)
    runs/<id>/summary.json    status, turns, tokens and cost per stage, timings, checks

Resume: re-opening a run reads ``events.jsonl`` back. Responses are found by request
hash and tool results by (turn, call id), so a re-run replays what it already has
without calling the model or re-running the tools; events already logged are not
written twice. A line cut short by a kill is dropped on opening.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook2game.agent.pages import PageChange
from rulebook2game.llm.messages import ChatRequest, ChatResponse
from rulebook2game.llm.model import ChatModel
from rulebook2game.trace import write_text_atomic

EVENTS = "events.jsonl"
RUN_JSON = "run.json"
SUMMARY = "summary.json"
FINAL_STATUSES = frozenset({"green", "not_green", "failed"})
"""``summary.json`` statuses of a run that is over (anything else can be resumed)."""


def _read_events(path: Path) -> list[dict[str, Any]]:
    """Complete lines of an event log; a torn last line is cut off the file."""
    if not path.exists():
        return []
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end != len(data):
        with path.open("r+b") as fh:
            fh.truncate(end)
    events = []
    for line in data[:end].splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    return events


def _event_key(event: dict[str, Any]) -> str | None:
    kind = event.get("event")
    if kind in ("request", "response"):
        return f"{kind}:{event['turn']}"
    if kind in ("tool_call", "tool_result", "page_version"):
        return f"{kind}:{event['turn']}:{event['call']}"
    return None


@dataclass
class RunLog:
    """The log of one run, opened for appending (and for replay when it has history)."""

    root: Path
    events: list[dict[str, Any]] = field(default_factory=list)
    _keys: dict[str, dict[str, Any]] = field(default_factory=dict)
    _responses: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def open(cls, root: Path) -> RunLog:
        """Open (or create) the run folder ``root``."""
        (root / "pages").mkdir(parents=True, exist_ok=True)
        log = cls(root)
        for event in _read_events(root / EVENTS):
            log._index(event)
        return log

    @property
    def id(self) -> str:
        return self.root.name

    @property
    def resumed(self) -> bool:
        """Whether the log already had events when it was opened."""
        return bool(self.events)

    def _index(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        key = _event_key(event)
        if key is not None:
            self._keys[key] = event
        if event.get("event") == "response":
            self._responses[str(event["key"])] = event["response"]

    def append(self, event: str, **fields: Any) -> bool:
        """Log an event unless it is already logged; whether it was written."""
        record = {"event": event, "time": round(time.time(), 3), **fields}
        key = _event_key(record)
        if key is not None and key in self._keys:
            return False
        with (self.root / EVENTS).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self._index(record)
        return True

    def logged(self, event: str, turn: int, call: int | None = None) -> dict[str, Any] | None:
        """A logged event by its key (``call`` = the call's index in its turn), if any."""
        key = f"{event}:{turn}" if call is None else f"{event}:{turn}:{call}"
        return self._keys.get(key)

    def response_for(self, request_key: str) -> ChatResponse | None:
        """A response already logged for a request with this hash."""
        wire = self._responses.get(request_key)
        return ChatResponse.from_wire(wire, cached=True) if wire is not None else None

    def page_version(self, turn: int, call: int, change: PageChange) -> None:
        """Keep a page's new version and its diff, and log the change."""
        if self.logged("page_version", turn, call) is not None:
            return
        stem = f"{turn:04d}-{call}-{change.name.replace('/', '-')}"
        files = {"diff": f"pages/{stem}.diff"}
        write_text_atomic(self.root / files["diff"], change.diff())
        if change.new is not None:
            files["version"] = f"pages/{stem}{change.suffix}"
            write_text_atomic(self.root / files["version"], change.new)
        action = "deleted" if change.new is None else "created" if change.old is None else "changed"
        self.append("page_version", turn=turn, call=call, page=change.name, action=action, **files)

    def write_json(self, name: str, data: dict[str, Any]) -> None:
        """Write ``run.json`` or ``summary.json`` atomically."""
        write_text_atomic(self.root / name, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def read_json(self, name: str) -> dict[str, Any] | None:
        try:
            data = json.loads((self.root / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None


def new_run_id() -> str:
    """A sortable, unique run id: ``20250101-120000-a1b2``."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


def open_run(runs_dir: Path, fingerprint: str, resume: bool = True) -> RunLog:
    """The unfinished run of the same command to resume, or a new run.

    A run is resumed when its ``run.json`` has the same ``fingerprint`` and its
    ``summary.json`` does not say it is over.
    """
    if resume and runs_dir.is_dir():
        for folder in sorted((p for p in runs_dir.iterdir() if p.is_dir()), reverse=True):
            log = RunLog(folder)
            meta = log.read_json(RUN_JSON) or {}
            summary = log.read_json(SUMMARY) or {}
            if (
                meta.get("fingerprint") == fingerprint
                and summary.get("status") not in FINAL_STATUSES
            ):
                return RunLog.open(folder)
    return RunLog.open(runs_dir / new_run_id())


def finished_run(runs_dir: Path, fingerprint: str) -> RunLog | None:
    """The newest run of the same job that ran to its end (checked, not a model failure)."""
    if not runs_dir.is_dir():
        return None
    for folder in sorted((p for p in runs_dir.iterdir() if p.is_dir()), reverse=True):
        log = RunLog(folder)
        meta = log.read_json(RUN_JSON) or {}
        summary = log.read_json(SUMMARY) or {}
        if (
            meta.get("fingerprint") == fingerprint
            and summary.get("status") in ("green", "not_green")
            and summary.get("agent_status") != "model_error"
        ):
            return log
    return None


@dataclass(frozen=True)
class ReplayModel:
    """Answers requests the run log already has; passes the others on."""

    inner: ChatModel
    log: RunLog

    def complete(self, request: ChatRequest) -> ChatResponse:
        replayed = self.log.response_for(request.key())
        return replayed if replayed is not None else self.inner.complete(request)
