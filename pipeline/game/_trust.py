"""Whether a game directory's pages, as they are now, passed ``rulebook2game check``.

``check`` writes ``reports/check.json``; its compile stage names the checked build it
ran on, ``build/rl-checked-<key>``, and the key covers the pages, the runtime support
code, the compiler version and the flags. A report vouches for the pages only when it
passed and its build is the one the current pages would compile to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.targets import get_target
from rulebook2game.workspace import Workspace


@dataclass(frozen=True)
class CheckStatus:
    """The verdict on a game directory's latest check report."""

    passed: bool
    why: str
    """One line: what vouches for the pages, or what is missing."""


def check_status(ws: Workspace) -> CheckStatus:
    """Whether the latest ``check`` passed on exactly the pages ``ws`` holds now."""
    path = ws.reports_dir / "check.json"
    if not path.is_file():
        return CheckStatus(False, f"no check report ({path}); run `rulebook2game check {ws.root}`")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return CheckStatus(False, f"{path}: unreadable check report ({exc})")
    if not isinstance(data, dict) or data.get("ok") is not True:
        return CheckStatus(False, f"{path}: the latest check did not pass")
    checked = _checked_build(data)
    compiled = get_target(ws.config().target).compile(ws)  # cached while the pages are the same
    if compiled.build is None:
        return CheckStatus(False, f"{ws.root}: the pages do not compile now")
    current = Path(compiled.build.directory).name
    if checked != current:
        return CheckStatus(
            False, f"{path}: the pages (or the compiler) changed since the latest check"
        )
    return CheckStatus(True, f"check passed on build {current}")


def _checked_build(data: dict[str, object]) -> str | None:
    stages = data.get("stages")
    if not isinstance(stages, list):
        return None
    for stage in stages:
        if isinstance(stage, dict) and stage.get("name") == "compile":
            stats = stage.get("stats")
            if isinstance(stats, dict) and isinstance(stats.get("build"), str):
                return Path(stats["build"]).name
    return None
