"""Mutation operators for GDL pages (filled in below)."""

from __future__ import annotations

from rulebook2game.targets.base import MutationOperator

OPERATORS: tuple[tuple[str, MutationOperator], ...] = ()
