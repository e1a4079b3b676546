"""Where the project's non-Python resources live (prompts, targets, corpora)."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
"""The installed package directory (``pipeline/`` in a source checkout)."""

PROJECT_DIR = PACKAGE_DIR.parent
"""The repository root in a source checkout."""

PROMPTS_DIR = PROJECT_DIR / "prompts"
TARGETS_DIR = PACKAGE_DIR / "targets"
CORPORA_DIR = PROJECT_DIR / "corpora"
EVALS_DIR = PROJECT_DIR / "evals"


def known_targets() -> list[str]:
    """The target languages this installation has (see :mod:`rulebook2game.targets`)."""
    from rulebook2game.targets import known_targets as registered

    return registered()
