"""Mutation operators for RulePage constructs (added to the common operators on rl lines)."""

from __future__ import annotations

from rulebook2game.targets.base import MutationOperator

OPERATORS: tuple[tuple[str, MutationOperator], ...] = ()
