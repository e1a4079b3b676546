"""Choose a game's golden traces: candidates, then greedy cover of endings, actions and mutants.

Candidates come from a reference engine (:func:`oracle_candidates`: seeded walks under
every policy of :mod:`rulebook2game.traces.walks`) or from traces a user already has
(:func:`file_candidates`: games played with ``play``, scenario traces, old golden
traces). :func:`choose` keeps a small set in two rounds:

1. cover every ending signature, action kind and argument value any candidate covers;
2. when the game has pages, cover every mutant of the pages that some candidate's
   replay kills (:mod:`rulebook2game.traces.adequacy`), starting from round 1's picks.

The result (:class:`Choice`) names each kept trace and why it was kept, and lists the
mutants no candidate kills: page code random play does not reach, or equivalent edits.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulebook2game.engine import Engine
from rulebook2game.evals.equivalents import REVIEW_FILE, load_reviews
from rulebook2game.mutate import PRESENTATION_ONLY, Mutant, enumerate_mutants, read_pages
from rulebook2game.mutate.operators import CLASSIC
from rulebook2game.trace import Trace, read_trace
from rulebook2game.traces.adequacy import (
    MUTANT,
    MutantKills,
    first_killers,
    kill_sets,
    trace_key,
)
from rulebook2game.traces.select import (
    ENDING,
    Candidate,
    Selection,
    greedy_cover,
    trace_features,
)
from rulebook2game.traces.walks import WalkSpec, record_walk, walk_specs
from rulebook2game.workspace import open_workspace

SELECTION_FILE = "selection.json"
"""Written beside the kept traces: what each covers, and what none covers."""
FORMAT = "rulebook2game-trace-selection/1"
PER_FEATURE = 3
"""Candidates kept per ending signature (the rare endings are what the search is for)."""


def oracle_candidates(
    engine: Engine[Any], *, game: str, walks: int, max_steps: int, pool: int = 24
) -> list[Candidate]:
    """Candidates from ``walks`` seeded walks: the first ``pool``, plus a few per ending.

    Every walk is recorded, but only the first ``pool`` finished ones and the first
    :data:`PER_FEATURE` walks to reach each ending feature are kept (the replay of each
    candidate costs time in round 2).
    """
    return oracle_walks(engine, game=game, walks=walks, max_steps=max_steps, pool=pool)[0]


def oracle_walks(
    engine: Engine[Any], *, game: str, walks: int, max_steps: int, pool: int = 24
) -> tuple[list[Candidate], Reserve]:
    """``(kept, reserve)``: :func:`oracle_candidates`, and every other finished walk.

    The reserve is what :func:`choose` replays, walk by walk, through the mutants that
    no kept candidate kills (the rare games a mutant needs: a turn that reaches exactly
    99 points, eight captures by one side). It holds walk specs, not traces: a walk
    is played again when it is needed.
    """
    kept: list[Candidate] = []
    reserve: list[WalkSpec] = []
    seen: dict[str, int] = {}
    texts: set[str] = set()
    for spec in walk_specs(engine.players, walks):
        trace = record_walk(engine, spec, game=game, max_steps=max_steps)
        if not trace.end.terminal:
            continue
        text = trace.to_jsonl()
        if text in texts:
            continue
        texts.add(text)
        features = trace_features(trace)
        endings = [f for f in features if f.startswith(ENDING)]
        wanted = len(kept) < pool or any(seen.get(f, 0) < PER_FEATURE for f in endings)
        if not wanted:
            reserve.append(spec)
            continue
        for f in endings:
            seen[f] = seen.get(f, 0) + 1
        kept.append(Candidate(spec.label, trace, features))
    return kept, Reserve(engine, game, max_steps, tuple(reserve))


@dataclass(frozen=True)
class Reserve:
    """Walks kept by spec only, played again on demand (in spec order)."""

    engine: Engine[Any]
    game: str
    max_steps: int
    specs: tuple[WalkSpec, ...]

    def __len__(self) -> int:
        return len(self.specs)

    def traces(self) -> Iterator[tuple[str, Trace]]:
        """``(name, trace)`` of every reserve walk, in order."""
        for spec in self.specs:
            yield (
                spec.label,
                record_walk(self.engine, spec, game=self.game, max_steps=self.max_steps),
            )

    def candidate(self, name: str) -> Candidate:
        """The candidate of one reserve walk, by name."""
        trace = record_walk(self.engine, walk_of(name), game=self.game, max_steps=self.max_steps)
        return Candidate(name, trace, trace_features(trace))


def file_candidates(paths: Iterable[Path]) -> list[Candidate]:
    """Candidates from trace files (directories: every ``*.jsonl`` in them)."""
    out: list[Candidate] = []
    for path in paths:
        files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
        for f in files:
            trace = read_trace(f)
            out.append(Candidate(f.stem, trace, trace_features(trace)))
    return out


def rule_mutants(game_dir: Path, review_file: Path = REVIEW_FILE) -> list[Mutant]:
    """Every mutant of the game's rule pages, less those reviewed as equivalent.

    The ``fun`` invariants (of interface.toml and of game.toml) are evidence, not rules,
    and are not mutated. Made by the :data:`~rulebook2game.mutate.operators.CLASSIC`
    operators: the corpus
    selections (``traces/selection.json``) were measured against them, and ``--check``
    re-derives those selections byte for byte.
    """
    pages = read_pages(game_dir / "pages")
    ws = open_workspace(game_dir)
    interface = ws.interface()
    specs = (*(interface.invariants if interface else ()), *ws.config().invariants)
    funs = frozenset(spec.fun for spec in specs if spec.fun)
    mutants = enumerate_mutants(pages, operators=CLASSIC, skip=PRESENTATION_ONLY | funs)
    name = _game_name(game_dir)
    reviews = load_reviews(name, review_file)
    return [m for m in mutants if reviews.reason(m) is None]


def _game_name(game_dir: Path) -> str:
    return open_workspace(game_dir).config().name


@dataclass(frozen=True)
class Choice:
    """The kept traces and what they cover."""

    selection: Selection
    kills: dict[str, MutantKills] = field(default_factory=dict)
    """Per mutant id: which candidates kill it (empty when mutants were not used)."""

    @property
    def mutants_unkilled(self) -> list[str]:
        """Compiled mutants no candidate kills."""
        return sorted(i for i, k in self.kills.items() if k.compiled and not k.killers)


def choose(
    candidates: Sequence[Candidate],
    *,
    game_dir: Path | None = None,
    mutants: Sequence[Mutant] = (),
    max_traces: int = 12,
    cache: Path | None = None,
    workers: int = 1,
    on_mutant: Callable[[MutantKills], None] | None = None,
    reserve: Reserve | None = None,
    hunt_limit: int | None = None,
) -> Choice:
    """Round 1 (endings, actions, arguments), then round 2 (mutants) when given.

    ``reserve``: more candidates, replayed in order through each mutant that no
    candidate kills until one of them does; each reserve walk that kills one joins
    the candidates (see :func:`hunt`); at most ``hunt_limit`` of them per mutant.
    """
    first = greedy_cover(candidates, max_traces=max_traces)
    if game_dir is None or not mutants:
        return Choice(first)
    pages = read_pages(game_dir / "pages")
    kills = kill_sets(
        game_dir,
        pages,
        mutants,
        {c.name: c.trace for c in candidates},
        first=[p.candidate.name for p in first.picks],
        cache=cache,
        workers=workers,
        on_mutant=on_mutant,
    )
    if reserve is not None and len(reserve):
        kills, found = hunt(game_dir, pages, kills, reserve, cache=cache, limit=hunt_limit)
        candidates = [*candidates, *found]
    extra: dict[str, set[str]] = {}
    for k in kills.values():
        for name in k.killers:
            extra.setdefault(name, set()).add(MUTANT + k.mutant.id)
    widened = [
        Candidate(c.name, c.trace, c.features | extra.get(c.name, set())) for c in candidates
    ]
    by_name = {c.name: c for c in widened}
    start = [by_name[p.candidate.name] for p in first.picks]
    return Choice(greedy_cover(widened, max_traces=max_traces, start=start), kills)


def hunt(
    game_dir: Path,
    pages: dict[str, str],
    kills: dict[str, MutantKills],
    reserve: Reserve,
    *,
    cache: Path | None = None,
    limit: int | None = None,
) -> tuple[dict[str, MutantKills], list[Candidate]]:
    """Replay ``reserve`` through every compiled mutant no candidate kills, until one does.

    ``limit``: at most this many reserve walks per mutant (the first ones, in order):
    the edits no walk reaches (breakthrough's capture-every-piece win) would otherwise
    replay the whole reserve each.

    Returns the kill sets with the hunted killers added, and the reserve walks that
    killed something (in reserve order), to join the candidates. Deterministic: the
    first killer in reserve order wins.
    """
    unkilled = [k.mutant for k in kills.values() if k.compiled and not k.killers]
    if not unkilled:
        return kills, []
    limited = reserve if limit is None else replace(reserve, specs=reserve.specs[:limit])
    found = first_killers(game_dir, pages, unkilled, limited.traces, cache=cache)
    out = dict(kills)
    used: list[str] = []
    for mid, name in found.items():
        if name is not None:
            old = out[mid]
            out[mid] = MutantKills(old.mutant, old.compiled, frozenset({name}), False)
            if name not in used:
                used.append(name)
    order = {spec.label: i for i, spec in enumerate(reserve.specs)}
    return out, [reserve.candidate(n) for n in sorted(used, key=order.__getitem__)]


def selection_record(choice: Choice, *, game: str, source: str, walks: int | None) -> str:
    """The ``selection.json`` text: each kept trace, what it was first to cover, what is left."""
    picks = []
    for p in choice.selection.picks:
        trace = p.candidate.trace
        picks.append(
            {
                "file": f"{p.candidate.name}.jsonl",
                "sha": trace_key(trace),
                "steps": len(trace.steps),
                "returns": list(trace.end.returns or ()),
                "first_to_cover": sorted(f for f in p.new if not f.startswith(MUTANT)),
                "first_to_kill": sum(f.startswith(MUTANT) for f in p.new),
            }
        )
    compiled = [k for k in choice.kills.values() if k.compiled]
    covered = choice.selection.covered
    by_page: dict[str, dict[str, Any]] = {}
    for k in compiled:
        row = by_page.setdefault(k.mutant.page, {"mutants": 0, "killed": 0})
        row["mutants"] += 1
        row["killed"] += (MUTANT + k.mutant.id) in covered
        if (MUTANT + k.mutant.id) not in covered:
            row.setdefault("not_killed", []).append(k.mutant.id)
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        "source": source,
        "walks": walks,
        "traces": picks,
        "found": sorted(f for f in choice.selection.universe if not f.startswith(MUTANT)),
        "uncovered": sorted(choice.selection.uncovered),
    }
    if choice.kills:
        data["mutants"] = {
            "measure": "replay of the kept traces kills the mutant (pages' checked build)",
            "compiled": len(compiled),
            "killed": sum(r["killed"] for r in by_page.values()),
            "pages": dict(sorted(by_page.items())),
            "killed_by_no_candidate": choice.mutants_unkilled,
        }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def walk_of(name: str) -> WalkSpec:
    """The walk spec of a candidate name (``policy-NNNN``)."""
    policy, _, seed = name.rpartition("-")
    return WalkSpec(policy, int(seed))


__all__ = [
    "SELECTION_FILE",
    "Choice",
    "Reserve",
    "choose",
    "file_candidates",
    "hunt",
    "oracle_candidates",
    "oracle_walks",
    "record_walk",
    "rule_mutants",
    "selection_record",
    "walk_of",
]
