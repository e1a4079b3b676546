"""Which page lines the checks executed, on the coverage build of the pages.

The coverage build (:mod:`rulebook2game.targets.rl.coverage`; RulePage pages through
their source map) reports which statements ran. :class:`LineProbe` starts it in the
sandboxed worker and turns probe ids into page lines. Two uses:

- :func:`executed_by_checks`: the lines the checks ran (the fuzz stage's native
  playouts with the same seeds, a few of them stepped through the engine protocol, the
  golden traces, the scenarios);
- :func:`narrow_findings`: the lines that ran at each step of a counterexample (the
  action into a state, then what the state offers, its player and returns), so a
  finding names only the pages of the lines that ran first at the step where it shows.

Every line cites the sentences of the nearest comment above it (inside its top-level
definition) that names sentence ids (``# 4.2#3: ...``), else its page header's.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rulebook2game.check.findings import Finding, PageIndex, PageRef, rank_sections
from rulebook2game.check.fuzz import FuzzConfig, batch_seed
from rulebook2game.engine import CHANCE, Engine, IllegalActionError
from rulebook2game.errors import EngineFault, Rulebook2GameError
from rulebook2game.page_header import parse_page_header
from rulebook2game.targets.rl.lexical import code_of
from rulebook2game.workspace import Workspace

PageLine = tuple[str, int]
"""(page file, 1-based line), e.g. ``("pages/turn.rl", 21)``."""

_SENTENCE_ID = re.compile(r"(?<![\w.#])(\d+(?:\.\d+)*#\d+)(?![\w#])")


class LineProbe:
    """An engine on the coverage build and the page line of each of its probes."""

    def __init__(self, engine: Any, lines: Sequence[PageLine]) -> None:
        self.engine = engine
        self.lines = tuple(lines)

    @property
    def executable(self) -> frozenset[PageLine]:
        """Every page line with a probe."""
        return frozenset(line for line in self.lines if line[0])

    def take(self) -> set[PageLine]:
        """Page lines that ran since the last call (the table is cleared)."""
        hit = self.engine.probes_hit(True)
        return {self.lines[i] for i in hit if 0 <= i < len(self.lines)}

    def close(self) -> None:
        """Stop the coverage build's worker."""
        self.engine.close()

    def __enter__(self) -> LineProbe:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_line_probe(
    ws: Workspace, target: str, game: str, request_timeout: float | None = None
) -> LineProbe | str:
    """The coverage build of ``ws``'s pages (the target's own, see
    :meth:`~rulebook2game.targets.base.Target.coverage_build`), started; or why there is
    none."""
    from rulebook2game.targets import get_target

    try:
        plugin = get_target(target)
        made = plugin.coverage_build(ws)
        if isinstance(made, str):
            return made
        engine = plugin.start_engine(made.build, game=game, request_timeout=request_timeout)
    except Rulebook2GameError as exc:
        return f"no coverage build: {exc}"
    return LineProbe(engine, made.lines)


def step_through(
    engine: Engine[Any], actions: Iterable[str], start: Any = None, funs: Sequence[str] = ()
) -> tuple[Any, int]:
    """Apply ``actions`` from ``start`` (default the initial state), asking what each
    state offers as the checks do and evaluating the ``fun`` invariants ``funs`` on it;
    the last state and how many actions applied."""
    state = engine.initial() if start is None else start
    done = 0
    try:
        for action in actions:
            if engine.is_terminal(state):
                break
            state = engine.apply(state, action)
            done += 1
            _ask(engine, state)
            for fun in funs:
                getattr(engine, "call_bool")(state, fun)  # noqa: B009 (RlEngine only)
    except (Rulebook2GameError, IllegalActionError):
        pass
    return state, done


def _ask(engine: Engine[Any], state: Any) -> None:
    """What a check asks of a state: its player and offers (and, of a game that lists
    its moves or candidates, the whole table's test the fuzz stage compares them with),
    and its returns.

    Returns are asked of live states too (the engine contract allows it: OpenSpiel
    answers zeros), so a score function's not-finished branch runs; a fault there is
    left to the stages that judge returns."""
    if engine.is_terminal(state):
        engine.returns(state)
        return
    if engine.current_player(state) == CHANCE:
        engine.chance_outcomes(state)
    else:
        engine.legal_actions(state)
    if getattr(engine, "lists_moves", False) or getattr(engine, "lists_candidates", False):
        # The fuzz stage holds a game's own list of moves to a test of every table
        # entry, which runs each precondition whole (its refusals included).
        getattr(engine, "table_legal_indices")(state)  # noqa: B009 (RlEngine only)
    with contextlib.suppress(Rulebook2GameError):
        engine.returns(state)


def executed_by_checks(
    probe: LineProbe,
    ws: Workspace,
    *,
    seed: int,
    fuzz: int,
    max_steps: int,
    batch_timeout: float,
    funs: Sequence[str] = (),
) -> set[PageLine]:
    """The page lines the fuzz, replay and scenarios stages run (on the coverage build).

    ``funs``: the ``fun`` invariants the fuzz stage evaluates. The last position of each
    stepped game is drawn, as a finding's position is."""
    from rulebook2game.check.scenarios import read_scenario, run_scenario, scenario_paths
    from rulebook2game.trace import read_trace

    engine = probe.engine
    probe.take()
    ran: set[PageLine] = set()
    config = FuzzConfig(playouts=fuzz, seed=seed, max_steps=max_steps)
    size = max(1, config.batch)
    stepped = 0
    for b, start in enumerate(range(0, fuzz, size)):
        try:
            games = engine.playouts(
                batch_seed(seed, b),
                min(size, fuzz - start),
                max_steps,
                record=True,
                timeout=batch_timeout,
            )
        except EngineFault:
            continue
        for game in games:
            if stepped < config.replay_games and game.actions is not None:
                last, _ = step_through(engine, game.actions, funs=funs)
                _draw(engine, last)
                stepped += 1
    ran |= probe.take()
    for path in ws.traces():
        try:
            step_through(engine, [s.action for s in read_trace(path).steps])
        except Rulebook2GameError:
            continue
    for path in scenario_paths(ws.root):
        try:
            run_scenario(engine, read_scenario(path))
        except (Rulebook2GameError, ValueError):
            continue
    return ran | probe.take()


def _draw(engine: Engine[Any], state: Any) -> None:
    with contextlib.suppress(Rulebook2GameError):
        engine.render(state)


# -- what lines cite ---------------------------------------------------------------


@dataclass(frozen=True)
class PageCites:
    """What the lines of one page cite."""

    header: tuple[str, ...]
    """The page header's citations."""
    by_line: dict[int, tuple[str, ...]]
    """Lines under a comment that names sentence ids: those ids."""

    def of(self, line: int) -> tuple[str, ...]:
        """The ids line ``line`` cites."""
        return self.by_line.get(line, self.header)


def page_cites(text: str) -> PageCites:
    """Read which sentences each line of a page cites."""
    header = parse_page_header(text).cites
    by_line: dict[int, tuple[str, ...]] = {}
    current: tuple[str, ...] = ()
    in_header = True
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if in_header and (not stripped or stripped.startswith("#")):
            continue
        in_header = False
        code = code_of(line)
        comment = line[len(code) :] if len(code) < len(line) else ""
        if code.strip() and not line[:1].isspace():
            current = ()
        ids = tuple(_SENTENCE_ID.findall(comment))
        if ids and not code.strip():
            current = ids
            continue
        if ids:
            by_line[number] = ids
        elif current and code.strip():
            by_line[number] = current
    return PageCites(header, by_line)


def cites_of(root: Path, lines: Iterable[PageLine]) -> dict[str, tuple[str, ...]]:
    """Per page file, the ids its given lines cite (in line order, no repeats)."""
    per_file: dict[str, list[int]] = {}
    for file, line in lines:
        per_file.setdefault(file, []).append(line)
    out: dict[str, tuple[str, ...]] = {}
    for file, numbers in per_file.items():
        try:
            cites = page_cites((root / file).read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        ids = [c for n in sorted(numbers) for c in cites.of(n)]
        out[file] = tuple(dict.fromkeys(ids))
    return out


def line_ranges(lines: Iterable[int]) -> str:
    """``[3, 4, 5, 9]`` -> ``"3-5, 9"``."""
    ordered = sorted(set(lines))
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ", ".join(parts)


# -- findings that name only the pages that ran ------------------------------------

MAX_NARROWED = 5
"""Findings narrowed (the first ones: those a reader meets first)."""
SKIP_KINDS = frozenset({"compile_error", "crash"})
"""Kinds left as they are: a compile error has no step, a crash names its failing line
(and its worker restarts, losing the lines that ran)."""


def lines_per_step(probe: LineProbe, actions: Sequence[str], upto: int) -> list[set[PageLine]]:
    """The page lines each step ran, for steps ``0..upto``: step 0 starts the game, step
    ``k`` applies action ``k - 1``; each then asks what its state offers."""
    engine = probe.engine
    out: list[set[PageLine]] = []
    probe.take()
    try:
        state = engine.initial()
        _ask(engine, state)
        out.append(probe.take())
        for action in actions[: max(0, upto)]:
            if engine.is_terminal(state):
                break
            state = engine.apply(state, action)
            _ask(engine, state)
            out.append(probe.take())
    except (Rulebook2GameError, IllegalActionError):
        out.append(probe.take())
    return [lines & probe.executable for lines in out]


def narrow_findings(
    findings: Sequence[Finding],
    probe: LineProbe | None,
    index: PageIndex,
    root: Path,
) -> list[Finding]:
    """Each finding with a counterexample, naming only pages whose lines ran at the step
    where it shows, and citing only what those lines cite.

    Of the pages the finding named (by its actions, the hooks of its kind, the failing
    line), those with no line run at the step are dropped; when none is left, the page
    with the most lines that ran there for the first time in the counterexample is
    named instead (a rule reached only now).
    A page kept keeps its reason, and cites only what its lines that ran cite when its
    lines cite sentences of their own (a comment naming sentence ids above them); a
    page added shows its first-run lines and cites what they cite.
    The pages dropped stay in the report (``other_pages``). A finding whose step ran no
    page line is left as it was.
    """
    if probe is None:
        return list(findings)
    out = []
    for number, finding in enumerate(findings):
        if finding.trace is None or finding.kind in SKIP_KINDS or number >= MAX_NARROWED:
            out.append(finding)
            continue
        actions = [s.action for s in finding.trace.steps]
        step = len(actions) if finding.step is None else finding.step
        steps = lines_per_step(probe, actions, step + 1)
        out.append(narrowed(finding, steps, step, index, root))
    return out


MAX_NARROWED_PAGES = 3
MAX_ADDED_PAGES = 1
"""Pages a narrowed finding names, when none of those it named ran at its step, for the
lines that ran first there (the one with most)."""


SHOWN_RANGES = 4
"""Line ranges a narrowed page lists before "..." (the report has the page's lines)."""


def _few_ranges(numbers: Sequence[int]) -> str:
    ranges = line_ranges(numbers).split(", ")
    more = ", ..." if len(ranges) > SHOWN_RANGES else ""
    return ", ".join(ranges[:SHOWN_RANGES]) + more


def narrowed(
    finding: Finding,
    steps: Sequence[set[PageLine]],
    step: int,
    index: PageIndex,
    root: Path,
) -> Finding:
    """``finding`` naming the pages of the lines that ran where it shows (see
    :func:`narrow_findings`)."""
    here: set[PageLine] = set().union(*steps[step : step + 2]) if step < len(steps) else set()
    if not here:
        return finding
    before: set[PageLine] = set().union(*steps[:step])
    first = here - before if step > 0 else set()  # at the start every line is new
    named = list(dict.fromkeys(p.path for p in finding.pages))
    ran_files = {f for f, _ in here}
    kept = [f for f in named if f in ran_files]
    new = sorted({f for f, _ in first} - set(kept), key=lambda f: -sum(g == f for g, _ in first))
    files = (kept or new[:MAX_ADDED_PAGES])[:MAX_NARROWED_PAGES]
    if not files:
        return finding
    cites = cites_of(root, [(f, n) for f, n in first if f in new])
    ran_cites = cites_of(root, [(f, n) for f, n in here if f in kept])
    before_refs = {p.path: p for p in reversed(finding.pages)}
    refs = []
    for file in files:
        if file in before_refs:  # named for a reason, and ran at the step
            ref = before_refs[file]
            ids = ran_cites.get(file, ref.sections)
            narrower = ids and not set(ref.sections) <= set(ids)  # no line fell back
            refs.append(replace(ref, sections=ids) if narrower else ref)
            continue
        numbers = sorted(n for f, n in first if f == file)
        role = f"lines {_few_ranges(numbers)} first ran at step {step}"
        refs.append(PageRef(Path(file).stem, role, numbers[0], cites.get(file, ()), file))
    # Sections the finding quotes for itself (a scenario's example) stay first.
    from_pages = {s.id for s in index.sections_for(finding.pages)}
    own = [s for s in finding.sections if s.id not in from_pages]
    kept_ids = {s.id for s in own}
    ranked = rank_sections(finding, index.sections_for(refs))
    sections = (*own, *(s for s in ranked if s.id not in kept_ids))
    extra = {**finding.extra, "all_pages": named}
    return replace(finding, pages=tuple(refs), sections=sections, extra=extra)


def invariant_lines(root: Path, pages: Iterable[Path], funs: Iterable[str]) -> set[PageLine]:
    """The page lines of the rule invariants' functions (``[[invariants]]`` with ``fun``)
    and of the functions only they call: their failure branches run only when an
    invariant breaks, so no check of a correct game executes them. The same closure the
    mutants leave out (:func:`~rulebook2game.mutate.mutants.presentation_closure`)."""
    from rulebook2game.mutate.mutants import presentation_closure
    from rulebook2game.mutate.source import PageSource

    roots = frozenset(funs)
    if not roots:
        return set()
    texts = {p: p.read_text(encoding="utf-8") for p in pages}
    names = presentation_closure({p.stem: t for p, t in texts.items()}, roots)
    found: set[PageLine] = set()
    for path, text in texts.items():
        page = PageSource.parse(path.stem, text)
        file = str(path.relative_to(root))
        for i, (mask, owner) in enumerate(zip(page.masks, page.owners, strict=True)):
            if owner in names and mask.strip():
                found.add((file, i + 1))
    return found
