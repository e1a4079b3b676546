"""Where the project's non-Python resources live (prompts, targets, corpora).

Two layouts are supported. In a source checkout the package is ``pipeline/`` and the
prompts, targets and evals sit beside it at the repository root. In an installed wheel the
prompts ship inside the package (``rulebook2game/prompts/``) and the targets are the
subpackage ``rulebook2game.targets``; there is no corpus and no ``evals/`` folder.
"""

from __future__ import annotations

from pathlib import Path

import rulebook2game.targets

PACKAGE_DIR = Path(__file__).resolve().parent
"""The package directory (``pipeline/`` in a source checkout)."""

PROJECT_DIR = PACKAGE_DIR.parent
"""The repository root in a source checkout (``site-packages`` in a wheel install)."""

IN_CHECKOUT = (PROJECT_DIR / "pyproject.toml").is_file() and (PROJECT_DIR / "pipeline").is_dir()
"""Whether the package runs from a source checkout (editable install or ``PYTHONPATH``)."""


def _data_dir(name: str) -> Path:
    inside = PACKAGE_DIR / name
    return inside if inside.is_dir() else PROJECT_DIR / name


PROMPTS_DIR = _data_dir("prompts")
TARGETS_DIR = Path(rulebook2game.targets.__file__).resolve().parent
CORPORA_DIR = PROJECT_DIR / "corpora"
EVALS_DIR = PROJECT_DIR / "evals"
"""The checkout's evaluation suites and reports (absent in a wheel install)."""


def known_targets() -> list[str]:
    """The target languages this installation has (folders of ``targets/`` with notes)."""
    return sorted(p.parent.name for p in TARGETS_DIR.glob("*/reference.md"))
