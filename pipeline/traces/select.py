"""Pick a small set of traces that together cover what the candidates cover.

A trace *covers* features, each a short string:

- ``ending: ...`` — how the game ended, derived mechanically from the returns: ``draw``
  when every seat got the same, else ``seat K best`` for each seat with the highest
  return; both followed by the sum of the returns, which tells apart endings the
  ranking alone does not (a hearts moon shot sums to 26, an ordinary hand to 78).
  An unfinished trace covers ``ending: unfinished``.
- ``action: NAME`` — an action kind that was played (chance outcomes included).
- ``arg: NAME.KEY=VALUE`` — one argument value of an action that was played.
- anything a caller adds (:mod:`rulebook2game.traces.adequacy` adds ``mutant: ID``
  for every mutant of the pages the trace's replay kills).

:func:`greedy_cover` is the classic greedy set cover (at most ``ln n + 1`` times the
smallest cover): repeatedly keep the candidate that covers most features not yet
covered, shorter traces first on ties, then the earlier candidate, so the choice is
deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rulebook2game.actions import parse_action
from rulebook2game.trace import Trace

ENDING = "ending: "
ACTION = "action: "
ARG = "arg: "


def _number(value: float) -> str:
    return f"{value:g}"


def ending_of(returns: Sequence[float] | None) -> str:
    """The ending signature of a returns vector (``None``: the game did not end)."""
    if returns is None:
        return "unfinished"
    total = _number(math.fsum(returns) + 0.0)
    best = max(returns)
    if all(math.isclose(r, best, abs_tol=1e-9) for r in returns):
        return f"draw (sum {total})"
    seats = [i for i, r in enumerate(returns) if math.isclose(r, best, abs_tol=1e-9)]
    return f"seat {'+'.join(map(str, seats))} best (sum {total})"


def ending_features(returns: Sequence[float] | None) -> frozenset[str]:
    """Ending features: one per best seat (a shared first place covers each seat)."""
    signature = ending_of(returns)
    if not signature.startswith("seat "):
        return frozenset({ENDING + signature})
    seats, rest = signature[len("seat ") :].split(" ", 1)
    return frozenset(f"{ENDING}seat {s} {rest}" for s in seats.split("+"))


def trace_features(trace: Trace) -> frozenset[str]:
    """Every feature a trace covers: its ending, the action kinds and argument values played."""
    out = set(ending_features(trace.end.returns if trace.end.terminal else None))
    for step in trace.steps:
        try:
            action = parse_action(step.action)
        except ValueError:
            continue
        out.add(ACTION + action.name)
        out.update(f"{ARG}{action.name}.{key}={value}" for key, value in action.args)
    return frozenset(out)


@dataclass(frozen=True)
class Candidate:
    """A trace that may be kept, with a name and the features it covers."""

    name: str
    trace: Trace
    features: frozenset[str]


@dataclass(frozen=True)
class Pick:
    """A kept candidate and the features it was the first to cover."""

    candidate: Candidate
    new: frozenset[str]


@dataclass(frozen=True)
class Selection:
    """The kept traces, in the order they were picked, and what they leave uncovered."""

    picks: tuple[Pick, ...]
    universe: frozenset[str]
    """Every feature some candidate covers."""

    @property
    def covered(self) -> frozenset[str]:
        """Features the kept traces cover."""
        return frozenset().union(*(p.candidate.features for p in self.picks))

    @property
    def uncovered(self) -> frozenset[str]:
        """Features some candidate covers but no kept trace does (only under a cap)."""
        return self.universe - self.covered


def greedy_cover(
    candidates: Sequence[Candidate],
    *,
    max_traces: int | None = None,
    start: Iterable[Candidate] = (),
) -> Selection:
    """Keep candidates until every feature any of them covers is covered (or ``max_traces``).

    ``start`` is kept first, whatever it covers (a second round of selection can
    start from the first round's picks).
    """
    universe = frozenset().union(*(c.features for c in candidates))
    picks: list[Pick] = []
    covered: set[str] = set()
    for c in start:
        picks.append(Pick(c, frozenset(c.features - covered)))
        covered |= c.features
    kept = {p.candidate.name for p in picks}
    while max_traces is None or len(picks) < max_traces:
        best: Candidate | None = None
        best_key: tuple[int, int] = (0, 0)
        for c in candidates:
            if c.name in kept:
                continue
            key = (len(c.features - covered), -len(c.trace.steps))
            if key[0] > 0 and (best is None or key > best_key):
                best, best_key = c, key
        if best is None:
            break
        picks.append(Pick(best, frozenset(best.features - covered)))
        covered |= best.features
        kept.add(best.name)
    return Selection(tuple(picks), universe)


def features_by_kind(features: Iterable[str]) -> Mapping[str, list[str]]:
    """Features grouped by prefix (``ending``, ``action``, ``arg``, ``mutant``, ...), sorted."""
    out: dict[str, list[str]] = {}
    for f in sorted(features):
        kind, _, rest = f.partition(": ")
        out.setdefault(kind, []).append(rest)
    return out
