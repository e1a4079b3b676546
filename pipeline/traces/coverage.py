"""What a game's golden traces cover, and what no trace covers (for ``regress``).

Read from the traces themselves (cheap, always current): the endings they reach
(:func:`rulebook2game.traces.select.ending_of`), the action kinds and argument
values played, against the vocabulary of ``interface.toml``. Read from
``traces/selection.json`` when the recording wrote one and the traces are still the
recorded ones: the endings the search found, and per page how many mutants the
traces' replay kills; pages with a killed mutant count as *exercised*, and the rule
sentences those pages cite (``# implements:``) as exercised rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook2game.page_header import parse_page_header
from rulebook2game.trace import Trace, read_trace
from rulebook2game.traces.adequacy import trace_key
from rulebook2game.traces.search import SELECTION_FILE
from rulebook2game.traces.select import ACTION, ARG, ENDING, trace_features
from rulebook2game.workspace import load_interface

SHOWN = 6
"""Uncovered items named per line (the JSON has them all)."""


@dataclass(frozen=True)
class TraceCoverage:
    """One game's golden-trace coverage."""

    traces: int
    endings: tuple[str, ...]
    endings_missing: tuple[str, ...]
    """Endings the recording's search found that no trace reaches."""
    actions: tuple[str, ...]
    actions_missing: tuple[str, ...]
    """Actions of ``interface.toml`` no trace plays."""
    args: int
    args_declared: int
    args_missing: tuple[str, ...]
    mutants: tuple[int, int] | None = None
    """(killed by the traces' replay, compiled) from selection.json; ``None`` if unknown."""
    pages: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Page -> (mutants killed, compiled)."""
    rules: tuple[str, ...] = ()
    """Sections cited by exercised pages."""
    rules_missing: tuple[str, ...] = ()
    """Sections cited only by pages no trace exercises."""
    note: str = ""
    """Why the mutant measure is missing (no selection.json, traces changed)."""

    def lines(self) -> list[str]:
        """Human-readable lines (one per aspect, uncovered items named)."""
        out = [
            f"endings {len(self.endings)}: {'; '.join(self.endings) or 'none'}"
            + _missing(self.endings_missing),
            f"actions {len(self.actions)}/{len(self.actions) + len(self.actions_missing)}"
            + _missing(self.actions_missing)
            + f"; argument values {self.args}/{self.args_declared}"
            + _missing(self.args_missing),
        ]
        if self.mutants is None:
            out.append(f"pages: not measured ({self.note})")
        else:
            killed, total = self.mutants
            weak = [f"{p} {k}/{n}" for p, (k, n) in self.pages.items() if k < n]
            out.append(
                f"page mutants killed by replay {killed}/{total}"
                + (f" (short: {', '.join(weak)})" if weak else "")
                + f"; rules cited by exercised pages: {', '.join(self.rules) or 'none'}"
                + _missing(self.rules_missing)
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The coverage as JSON data."""
        data = {k: v for k, v in vars(self).items() if k != "pages"}
        data["pages"] = {p: {"killed": k, "mutants": n} for p, (k, n) in self.pages.items()}
        return data


def _missing(items: tuple[str, ...]) -> str:
    if not items:
        return ""
    more = f", +{len(items) - SHOWN}" if len(items) > SHOWN else ""
    return f" (none reach: {'; '.join(items[:SHOWN])}{more})"


def _declared(game_dir: Path) -> tuple[list[str], list[str]]:
    """Action names and ``name.key=value`` argument values of interface.toml."""
    path = game_dir / "interface.toml"
    if not path.is_file():
        return [], []
    names: list[str] = []
    values: list[str] = []
    for action in load_interface(path).actions:
        names.append(action.name)
        for arg in action.args:
            if arg.values is not None:
                vals = list(arg.values)
            elif arg.min is not None and arg.max is not None and arg.max - arg.min < 1000:
                vals = [str(v) for v in range(arg.min, arg.max + 1)]
            else:
                continue
            values.extend(f"{action.name}.{arg.name}={v}" for v in vals)
    return names, values


def game_coverage(game_dir: Path, traces: list[Trace] | None = None) -> TraceCoverage:
    """The coverage of ``game_dir``'s golden traces (read from ``traces/`` when not given)."""
    folder = game_dir / "traces"
    if traces is None:
        traces = [read_trace(p) for p in sorted(folder.glob("*.jsonl"))]
    features: set[str] = set()
    for trace in traces:
        features |= trace_features(trace)

    def of(prefix: str) -> list[str]:
        return sorted(f[len(prefix) :] for f in features if f.startswith(prefix))

    names, values = _declared(game_dir)
    endings, actions, args = of(ENDING), of(ACTION), of(ARG)
    record = _selection(folder)
    found = [f[len(ENDING) :] for f in record.get("found", []) if f.startswith(ENDING)]
    base = TraceCoverage(
        traces=len(traces),
        endings=tuple(endings),
        endings_missing=tuple(e for e in found if e not in endings),
        actions=tuple(actions),
        actions_missing=tuple(n for n in names if n not in actions),
        args=len(set(args) & set(values)) if values else len(args),
        args_declared=len(values) or len(args),
        args_missing=tuple(v for v in values if v not in args),
    )
    return _with_pages(base, game_dir, traces, record)


def _selection(folder: Path) -> dict[str, Any]:
    path = folder / SELECTION_FILE
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _with_pages(
    base: TraceCoverage, game_dir: Path, traces: list[Trace], record: dict[str, Any]
) -> TraceCoverage:
    mutants = record.get("mutants")
    if not isinstance(mutants, dict):
        return _note(base, f"no {SELECTION_FILE} with a mutant measure")
    recorded = {t.get("sha") for t in record.get("traces", [])}
    if recorded != {trace_key(t) for t in traces}:
        return _note(base, f"the traces differ from those {SELECTION_FILE} measured")
    pages = {
        str(p): (int(r.get("killed", 0)), int(r.get("mutants", 0)))
        for p, r in mutants.get("pages", {}).items()
    }
    cites: dict[str, tuple[str, ...]] = {}
    for path in sorted((game_dir / "pages").glob("*")):
        if path.is_file():
            cites[path.stem] = parse_page_header(path.read_text(encoding="utf-8")).cites
    exercised = {c for p, cs in cites.items() if pages.get(p, (0, 0))[0] > 0 for c in cs}
    every = {c for cs in cites.values() for c in cs}
    killed = sum(k for k, _ in pages.values())
    total = sum(n for _, n in pages.values())
    return TraceCoverage(
        **{
            **vars(base),
            "mutants": (killed, total),
            "pages": dict(sorted(pages.items())),
            "rules": tuple(sorted(exercised)),
            "rules_missing": tuple(sorted(every - exercised)),
        }
    )


def _note(base: TraceCoverage, note: str) -> TraceCoverage:
    return TraceCoverage(**{**vars(base), "note": note})
