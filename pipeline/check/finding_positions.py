"""Each finding shows the position where it shows, rendered by the engine under test.

A translator fixes a rule faster from the position at the difference than from a
long list of actions; with it, a long counterexample can be shown by its last steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rulebook2game.check.findings import Finding
from rulebook2game.check.position import MAX_POSITIONS, at_difference
from rulebook2game.engine import Engine


def with_positions(engine: Engine[Any] | None, findings: Sequence[Finding]) -> list[Finding]:
    """``findings`` with ``extra["position"]`` filled in where a counterexample allows."""
    out: list[Finding] = []
    rendered = 0
    for finding in findings:
        if (
            engine is None
            or finding.trace is None
            or finding.extra.get("position")
            or rendered >= MAX_POSITIONS
        ):
            out.append(finding)
            continue
        actions = finding.trace.actions
        step = finding.step if finding.step is not None else len(actions)
        position = at_difference(engine, actions[: min(step, len(actions))])
        rendered += 1
        out.append(replace(finding, extra={**finding.extra, "position": position}))
    return out
