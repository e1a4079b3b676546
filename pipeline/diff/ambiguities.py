"""What changed in the ambiguities a translator recorded, between two sides of a diff.

A translator records each place where the rulebook allows more than one reading, the
reading it chose and why (``finish``'s ``ambiguities``, kept in ``reports/finish.json``;
an agent run keeps them in its log). Between two versions of a game, a reading that
appeared, disappeared or changed is as much a change of the rules as a page diff. An
ambiguity is known by the sentences it is about.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rulebook2game.diff.sides import EVENTS, Side, split_revision

FINISH_FILE = "reports/finish.json"


@dataclass(frozen=True)
class Reading:
    """One recorded ambiguity: the sentences, the reading chosen, why."""

    sentences: tuple[str, ...]
    reading: str
    why: str = ""


@dataclass(frozen=True)
class AmbiguityChange:
    """An ambiguity that appeared, disappeared, or is read differently now."""

    status: Literal["added", "removed", "changed"]
    sentences: tuple[str, ...]
    old: Reading | None
    new: Reading | None


def _readings(raw: object) -> tuple[Reading, ...]:
    if not isinstance(raw, list):
        return ()
    out = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("sentences"), list):
            continue
        out.append(
            Reading(
                tuple(str(s) for s in item["sentences"]),
                str(item.get("reading", "")),
                str(item.get("why", "")),
            )
        )
    return tuple(out)


def _from_run(run: Path) -> tuple[Reading, ...]:
    """The ambiguities of the last ``finish`` call an agent run logged."""
    found: tuple[Reading, ...] = ()
    for line in (run / EVENTS).read_text(encoding="utf-8").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a line torn by a kill
        if not isinstance(event, dict) or event.get("event") != "tool_call":
            continue
        if event.get("name") != "finish":
            continue
        try:
            arguments = json.loads(str(event.get("arguments") or "{}"))
        except ValueError:
            continue
        if isinstance(arguments, dict):
            found = _readings(arguments.get("ambiguities"))
    return found


def side_readings(spec: str, side: Side) -> tuple[Reading, ...]:
    """The ambiguities recorded on one side (none when nothing was recorded)."""
    if side.kind == "run":
        run = split_revision(spec)[0]
        if (run / EVENTS).is_file():
            return _from_run(run)
    path = side.root / FINISH_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    return _readings(data.get("ambiguities")) if isinstance(data, dict) else ()


def _key(reading: Reading) -> tuple[str, ...]:
    return tuple(sorted(set(reading.sentences)))


def compare_readings(
    old: tuple[Reading, ...], new: tuple[Reading, ...]
) -> tuple[AmbiguityChange, ...]:
    """Added, removed and changed ambiguities, in the new side's order, then removed ones."""
    before = {_key(r): r for r in old}
    after = {_key(r): r for r in new}
    out: list[AmbiguityChange] = []
    for key, reading in after.items():
        earlier = before.get(key)
        if earlier is None:
            out.append(AmbiguityChange("added", reading.sentences, None, reading))
        elif (earlier.reading, earlier.why) != (reading.reading, reading.why):
            out.append(AmbiguityChange("changed", reading.sentences, earlier, reading))
    out += [
        AmbiguityChange("removed", r.sentences, r, None)
        for k, r in before.items()
        if k not in after
    ]
    return tuple(out)


def change_line(change: AmbiguityChange) -> str:
    """One line for a reader: ``changed 7#2: "old reading" -> "new reading" (why)``."""
    where = ", ".join(change.sentences)
    if change.status == "changed" and change.old is not None and change.new is not None:
        why = f" ({change.new.why})" if change.new.why else ""
        return f'changed {where}: "{change.old.reading}" -> "{change.new.reading}"{why}'
    reading = change.new or change.old
    assert reading is not None
    why = f" ({reading.why})" if reading.why else ""
    return f'{change.status} {where}: "{reading.reading}"{why}'
