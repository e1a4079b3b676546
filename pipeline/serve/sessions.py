"""Tables kept on the server, one per browser session, under random ids."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass

from rulebook2game.play.table import Table

MAX_SESSIONS = 256
"""Sessions kept; the least recently used one goes when a new one would exceed this."""


@dataclass
class Session:
    """A table and how the browser looks at it."""

    id: str
    table: Table
    viewer: int
    """The seat whose view the page shows."""
    replay: bool = False
    """Stepping through a recorded game (no bots, no sampled chance)."""
    note: str = ""
    """What the page says above the table (a finding's message, for a replay)."""
    failing_step: int | None = None
    """The step a finding points at (highlighted in the log of a replay)."""


class SessionStore:
    """Sessions by id, least recently used evicted first."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.limit = limit
        self._items: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(
        self,
        table: Table,
        viewer: int,
        *,
        replay: bool = False,
        note: str = "",
        failing_step: int | None = None,
    ) -> Session:
        """Keep a new session and return it."""
        session = Session(secrets.token_urlsafe(12), table, viewer, replay, note, failing_step)
        with self._lock:
            self._items[session.id] = session
            while len(self._items) > self.limit:
                self._items.popitem(last=False)
        return session

    def get(self, sid: str) -> Session | None:
        """The session ``sid``, if it is kept."""
        with self._lock:
            session = self._items.get(sid)
            if session is not None:
                self._items.move_to_end(sid)
            return session
