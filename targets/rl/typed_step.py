"""The native playout loop's step at each resumption point, written for the game's own
action types.

The loop of the shared runtime (``r2g_playouts`` in ``runtime/r2g_runtime.rl``) draws
a table entry among those of the point a game is suspended at and tests and applies
it through the table: a look-up of the point's group, the entry read from the table
and dispatched on its action type, all generic over every game. This module writes,
at compile time, one rl function that does the same draws with the game's own types:
for each point of the resume map (:mod:`rulebook2game.targets.rl.resume_points`), a
branch that draws ``k`` among the point's ``m`` entries, builds the arguments of the
k-th entry directly and calls that action's own ``can`` and method. It is written
only for a game with a point of several action types (pig's roll and hold), where the
generic loop also looks the entry up in the point's order and dispatches over every
type: pig's loop ran 32% fewer instructions with it (rl pages; 12% for its RulePage
pages, ``evals/reports/2026-11-29-typed-step.md``). At a point of one type the generic
loop already inlines that type's ``can`` and ``apply``, and a step of its own measured
no faster there.

The draws are the generic loop's, one for one: the point's entries in table order,
``m / 4 + 8`` tries, each ``rng.below(m)``, the first legal one applied; when every try
misses the branch returns ``R2G_MISSED`` and the loop scans the group as before
(``r2g_scanned``). So the recorded playouts, and their replay in Python
(``playout_rng.py``), do not change, and the lockstep tests compare it with the checked
build's full-table test like any other step.

The action table is ``enumerate(AnyGameAction)``: the action types in the order of the
union rlc writes into the Python wrapper, each type's values with its first argument
outermost. The types and their argument bounds are read from that wrapper
(``class _AnyGameAction`` and each ``Game<Name>`` class); an action whose arguments are
not all ``BInt``, or whose class cannot be matched to an action name of the map, leaves
its point to the generic loop, and a game without a map gets no function at all. The
function also checks the table size it was written for, so a table read wrongly falls
back to the generic loop rather than drawing wrong entries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TYPED_STEP_FILE = "r2g_typed_step.rl"
"""The generated file, compiled with the pages and the runtime."""

_UNION = re.compile(r"class _AnyGameAction\(ctypes\.Union\):\s*_fields_ = \[(.*?)\]", re.S)
_ALTERNATIVE = re.compile(r'\("_alternative\d+", (\w+)\)')
_FIELD = re.compile(r'\("(\w+)", ([^()]+?)\)')
_BINT = re.compile(r"BIntT(-?\d+)T(-?\d+)T")


@dataclass(frozen=True)
class ActionType:
    """One alternative of the action table: its action name and argument bounds."""

    name: str
    """The action's name in rl (its method on ``Game``)."""
    bounds: tuple[tuple[int, int], ...] | None
    """Each argument's ``BInt`` bounds ``(lo, hi)``, ``hi`` excluded; ``None`` when an
    argument is not a ``BInt`` (the type's entries are then left to the generic loop)."""

    @property
    def size(self) -> int:
        """Its entries in the table (1 for an action without arguments)."""
        count = 1
        for lo, hi in self.bounds or ():
            count *= hi - lo
        return count


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def action_types(wrapper: str, names: list[str]) -> list[ActionType] | None:
    """The action table's types in table order, read from the rlc-generated wrapper
    text; ``None`` when the wrapper does not read as expected. ``names`` are the
    actions' rl names, matched to the wrapper's classes (``Game`` + the name in
    CamelCase)."""
    union = _UNION.search(wrapper)
    if union is None:
        return None
    classes = _ALTERNATIVE.findall(union.group(1))
    by_class = {f"Game{_camel(name)}": name for name in names}
    if not classes or len(by_class) != len(names):
        return None
    types = []
    for cls in classes:
        name = by_class.get(cls)
        body = re.search(
            rf"class {cls}\(ctypes\.Structure\):\s*_fields_ = \[(.*?)\]", wrapper, re.S
        )
        if name is None or body is None:
            return None
        fields = _FIELD.findall(body.group(1))
        if len(fields) != body.group(1).count("("):
            return None
        bounds: list[tuple[int, int]] | None = []
        for _field, kind in fields:
            found = _BINT.fullmatch(kind)
            if found is None or bounds is None:
                bounds = None
                continue
            lo, hi = int(found.group(1)), int(found.group(2))
            if hi <= lo:
                return None
            bounds.append((lo, hi))
        types.append(ActionType(name, None if bounds is None else tuple(bounds)))
    return types


def typed_step_source(wrapper: str, points: dict[str, int] | None, max_point: int) -> str | None:
    """The rl source of ``r2g_typed_step`` for the game whose wrapper text is
    ``wrapper`` and whose resume map is ``points``; ``None`` when no point can be
    written, or when a point is at or beyond ``max_point`` (the runtime then uses no
    map at all)."""
    if not points or not all(0 <= point < max_point for point in points.values()):
        return None  # the runtime then draws from the whole table at every step
    types = action_types(wrapper, list(points))
    if types is None:
        return None
    firsts, table = [], 0
    for t in types:
        firsts.append(table)
        table += t.size
    at: dict[int, list[int]] = {}
    for number, t in enumerate(types):
        at.setdefault(points[t.name], []).append(number)
    branches = [
        _branch(point, [(types[n], firsts[n]) for n in numbers])
        for point, numbers in sorted(at.items())
        if all(types[n].bounds is not None for n in numbers)
    ]
    if not branches or all(len(numbers) == 1 for numbers in at.values()):
        # every point of one type: the loop draws there with that type's `can` and
        # `apply` inlined already, and a step of its own measured no faster
        return None
    lines = [
        "# Generated by targets/rl/typed_step.py from this build's action table and resume",
        "# points: the playout loop's draws at each point, made with the game's own action",
        "# types. Not a page: edit nothing here.",
        "import bounded_arg",
        "",
        "fun r2g_typed_step(Game g, R2GRandom rng, Bool applied, Int table) -> Int:",
        f"    if table != {table}:",
        "        return R2G_TABLE",
        "    let point = g.resume_index",
    ]
    for branch in branches:
        lines.extend(branch)
    lines.append("    return R2G_TABLE")
    return "\n".join(lines) + "\n"


def _args(t: ActionType, rest: str, inner: str) -> tuple[list[str], list[str]]:
    """Lines building the arguments of entry ``rest`` (an rl expression, from 0) of
    ``t``'s entries, the first argument outermost; and the argument names."""
    lines, args = [], []
    stride = t.size
    for i, (lo, hi) in enumerate(t.bounds or ()):
        stride //= hi - lo
        value = f"{rest} / {stride}" if stride > 1 else rest
        if i > 0:
            value = f"({value}) % {hi - lo}"
        lines.append(f"{inner}let a{i} : BInt<{lo}, {hi}>")
        lines.append(f"{inner}a{i}.value = {lo} + {value}")
        args.append(f"a{i}")
    return lines, args


def _branch(point: int, group: list[tuple[ActionType, int]]) -> list[str]:
    """The draws at ``point`` among ``group`` (each type with its first table index)."""
    m = sum(t.size for t, _ in group)
    lines = [
        f"    if point == {point}:",
        f"        let tries = {m // 4 + 8}",
        "        while tries != 0:",
        f"            let k = rng.below({m})",
    ]
    offset = 0
    for number, (t, first) in enumerate(group):
        inner = "            "
        if len(group) > 1:
            inner += "    "
            if number == 0:
                lines.append(f"            if k < {offset + t.size}:")
            elif number < len(group) - 1:
                lines.append(f"            else if k < {offset + t.size}:")
            else:
                lines.append("            else:")
        built, args = _args(t, f"(k - {offset})" if offset else "k", inner)
        call = f"g.{t.name}({', '.join(args)})"
        index = f"{first - offset} + k" if first != offset else "k"
        lines.extend(
            [
                *built,
                f"{inner}if can {call}:",
                f"{inner}    {call}",
                f"{inner}    applied = true",
                f"{inner}    return {index}",
            ]
        )
        offset += t.size
    lines.extend(["            tries = tries - 1", "        return R2G_MISSED"])
    return lines
