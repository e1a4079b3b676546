"""The page header as the agent checks it (shared with the checks, diff and eval)."""

from __future__ import annotations

from rulebook2game.page_header import PageHeader
from rulebook2game.page_header import parse_page_header as parse_header

__all__ = ["PageHeader", "parse_header"]
