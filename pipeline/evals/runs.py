"""What the agent runs of a game cost: ``runs/*/summary.json`` (see :mod:`rulebook2game.agent`).

A summary holds ``status``, ``repairs``, ``turns`` and ``total`` usage (``requests``,
``tokens``, ``cost_usd``). Runs without a summary (still going, or killed) are
counted as unfinished and add nothing else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class RunStats:
    """Totals over a game's agent runs."""

    runs: int
    finished: int
    green: int
    repairs: int
    model_calls: int
    tokens: int
    cost_usd: float | None
    """``None`` when no run knew its price."""
    latest: str | None
    """Id of the newest finished run."""


def _number(data: dict[str, Any], *keys: str) -> float:
    value: Any = data
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return float(value) if isinstance(value, int | float) else 0.0


def run_stats(runs_dir: Path) -> RunStats | None:
    """Totals over ``runs_dir/*/summary.json``; ``None`` when there are no runs."""
    if not runs_dir.is_dir():
        return None
    folders = sorted(p for p in runs_dir.iterdir() if (p / "events.jsonl").is_file())
    if not folders:
        return None
    summaries: list[dict[str, Any]] = []
    for folder in folders:
        try:
            data = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            summaries.append({**data, "_id": folder.name})
    costs = [s["total"]["cost_usd"] for s in summaries if _has_cost(s)]
    return RunStats(
        runs=len(folders),
        finished=len(summaries),
        green=sum(1 for s in summaries if s.get("status") == "green"),
        repairs=int(sum(_number(s, "repairs") for s in summaries)),
        model_calls=int(sum(_number(s, "total", "requests") for s in summaries)),
        tokens=int(sum(_number(s, "total", "tokens") for s in summaries)),
        cost_usd=round(sum(costs), 6) if costs else None,
        latest=summaries[-1]["_id"] if summaries else None,
    )


def _has_cost(summary: dict[str, Any]) -> bool:
    total = summary.get("total")
    return isinstance(total, dict) and isinstance(total.get("cost_usd"), int | float)
