"""The agent's "try again" signal (a correction for the model, never a crash).

A tool that cannot do what the model asked raises :class:`ToolRetry`; the loop
answers the call with the correction rendered from ``prompts/agent/correction.md.j2``
(``kind`` selects the paragraph, ``fields`` fill it). Failures of the run itself are
package errors (:class:`~rulebook2game.errors.ModelError` and friends), not this.
"""

from __future__ import annotations

from typing import Any


class ToolRetry(Exception):
    """The model should call again, differently."""

    def __init__(self, kind: str, **fields: Any) -> None:
        self.kind = kind
        self.fields = fields
        shown = ", ".join(f"{k}={v!r}" for k, v in fields.items() if k != "content")
        super().__init__(f"{kind}({shown})")
