"""Which action statement a suspended game can resume at, read from ``rlc`` itself.

rlc numbers every action statement of an action function and gives each a
*resumption point*; a game suspended there has that number in its ``resume_index``
field, and the generated ``can`` of an action is false unless ``resume_index`` is one
of the points of the statements of that name (then the precondition is tested).
Statements of one ``actions:`` block share a point. So when every action name belongs
to exactly one point, the actions a state can possibly take are exactly those whose
point equals the state's ``resume_index``: the native playout loop then tests only
those, instead of the whole action table (Hearts: 52 of 160 entries; a game with a
dice phase and a move phase, all of one phase's entries).

The points are read from rlc's own dump of the program after its implicit expansion
(``--after-implicit``), which names every action statement as

    rlc.action "NAME" ... {id = N : i64, resumption_point = R : i64} ...

Anything this reading does not fully understand turns the map off (``None``), and an
absent map means "every entry is a candidate at every step", which is always sound:

- a ``synthetic`` action statement (the statements a ``subaction`` copies into the
  calling function, whose points belong to another frame);
- two statements with one ``id`` (more than one action function);
- one action name at two points (its ``can`` accepts either, and the playout loop's
  replay in Python derives the point from the legal actions' names), with one
  exception below.

A *mixed point*: a program that defines ``fun r2g_mixed_point() -> Bool`` promises that
it has one point whose statements name every action, and that it waits there only
when its legal actions are at more than one of its other points, or at none (the
RulePage lowering's block of every action, ``targets/rulepage/lower.py``). That point is
left out of the map, so each name keeps its other point; the native loop tests the
whole table at a point of no entries, and the replay takes legal actions that do not
share a point as that case (``playout_rng.py``).

The map is checked twice without trusting it: the lockstep test plays the optimized
loop against the checked build's full-table legal actions, and the fuzzer's replay of a
dead batch (:func:`rulebook2game.check.native.native_chooser`) refuses legal actions
that do not share one point.
"""

from __future__ import annotations

import re

DUMP_FLAGS = ("--after-implicit", "--hide-position")
"""rlc flags that print the expanded program (the action statements with their points)."""

RESUME_FILE = "resume_points.json"
"""File of a build holding ``{"points": {action name: point} | null}``."""

_ACTION = re.compile(r'rlc\.action "([^"]+)"')
_MIXED = re.compile(r'rlc\.fun "r2g_mixed_point"')
_ATTRIBUTES = re.compile(r"\{id = (-?\d+) : i64, resumption_point = (-?\d+) : i64(, synthetic)?\}")


def parse_resume_points(dump: str) -> dict[str, int] | None:
    """Action name -> resumption point, or ``None`` when the map would not be exact."""
    statements: list[tuple[str, int]] = []
    ids: set[int] = set()
    lines = dump.splitlines()
    for number, line in enumerate(lines):
        found = _ACTION.search(line)
        if found is None:
            continue
        attributes = None
        for following in lines[number : number + 4]:
            attributes = _ATTRIBUTES.search(following)
            if attributes is not None:
                break
        if attributes is None or attributes.group(3):
            return None
        ident = int(attributes.group(1))
        if ident in ids:
            return None
        ids.add(ident)
        statements.append((found.group(1), int(attributes.group(2))))
    names = {name for name, _ in statements}
    if _MIXED.search(dump):
        at: dict[int, set[str]] = {}
        for name, point in statements:
            at.setdefault(point, set()).add(name)
        mixed = [point for point, named in at.items() if named == names]
        if len(mixed) != 1 or len(at) < 2:
            return None
        statements = [(name, point) for name, point in statements if point != mixed[0]]
    points: dict[str, int] = {}
    for name, point in statements:
        if points.get(name, point) != point:
            return None
        points[name] = point
    if set(points) != names:
        return None
    return points or None
