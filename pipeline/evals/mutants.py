"""Detection power of the checks: the mutant kill rate of a game's gold pages.

Every mutant of the gold pages (:mod:`rulebook2game.mutate`) is written into a copy
of the game directory under ``GAME_DIR/build/mutants/``, type-checked, compiled and
checked with the same checks as ``rulebook2game check`` (same playout and trajectory
counts), in a profile that is faster only in what it skips: it stops at the first
finding and does not shrink counterexamples, and it replays the golden traces before
fuzzing because they kill most mutants in a fraction of a second.

A mutant is *killed* when the checks report a finding, *survives* when they pass,
and *does not compile* when rlc rejects it (those are counted apart: the compiler's
rejections say nothing about the checks). Mutants are independent jobs
(:mod:`rulebook2game.jobs`): a local process pool by default, a Ray cluster on request;
each finished mutant is journaled under ``GAME_DIR/build/mutant-jobs/`` so an
interrupted run resumes where it stopped. Per game: mutants, compiled, killed, survivors with
their diffs, kill rate, median time to kill, wall time. Mutants reviewed as equivalent
(``GAME_DIR/mutants.toml``, and ``evals/mutants/equivalent.toml`` for the corpus; see
:mod:`rulebook2game.evals.equivalents`) are not run again: they are listed apart and
left out of the kill rate. ``only`` runs a chosen few; :func:`rerun_survivors` re-runs the
last run's survivors and folds what became of them into that run, so the report keeps
describing the whole run. The detail is written to ``GAME_DIR/reports/mutants.json`` and
``mutants.md``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from rulebook2game._version import __version__
from rulebook2game.check import run as check_run
from rulebook2game.check.findings import REPLAY, Finding
from rulebook2game.check.replay import replay
from rulebook2game.check.report import StageResult
from rulebook2game.check.stages import DEFAULT_FUZZ, DEFAULT_ORACLE
from rulebook2game.errors import BadInputError, Rulebook2GameError
from rulebook2game.evals.equivalents import REVIEW_FILE, load_reviews
from rulebook2game.evals.mutant_report import MUTANTS_JSON, write_mutant_report
from rulebook2game.jobs import JobJournal, LocalPool, Runner
from rulebook2game.mutate import Mutant, enumerate_mutants, materialize, read_pages
from rulebook2game.mutate.mutants import PRESENTATION_ONLY, evidence_fingerprint
from rulebook2game.targets import get_target
from rulebook2game.trace import read_trace
from rulebook2game.workspace import open_workspace

KILLED = "killed"
SURVIVED = "survived"
NOT_COMPILED = "not_compiled"
ERROR = "error"
EQUIVALENT = "equivalent"
"""Reviewed as equivalent and not run."""
STATUSES = (KILLED, SURVIVED, NOT_COMPILED, ERROR, EQUIVALENT)
WORKERS = max(1, os.cpu_count() or 1)
"""Mutants checked at once by default: one per core."""


@dataclass(frozen=True)
class Profile:
    """The check budget each mutant gets."""

    fuzz: int = DEFAULT_FUZZ
    oracle: int = DEFAULT_ORACLE
    seed: int = 0
    request_timeout: float = 2.0
    batch_timeout: float = 3.0

    def options(self) -> dict[str, Any]:
        """Options of :func:`rulebook2game.check.run.run_check` for one mutant."""
        return {
            "fuzz": self.fuzz,
            "oracle": self.oracle,
            "shrink": False,
            "stop_at_first": True,
            "request_timeout": self.request_timeout,
            "batch_timeout": self.batch_timeout,
        }


@dataclass(frozen=True)
class MutantOutcome:
    """What the checks made of one mutant."""

    id: str
    page: str
    line: int
    operator: str
    description: str
    diff: str
    status: str
    """killed | survived | not_compiled | error | equivalent (reviewed, not run)"""
    seconds: float
    stage: str | None = None
    """The stage whose finding killed it."""
    finding: str | None = None
    """That finding's headline (or the compile error, or what went wrong)."""
    equivalent: str | None = None
    """For a survivor reviewed as equivalent: why (see :mod:`rulebook2game.evals.equivalents`)."""
    column: int = 0
    """1-based column of the change on ``line`` (0: unknown)."""

    @property
    def where(self) -> str:
        """``page:line:column`` of the change."""
        return (
            f"{self.page}:{self.line}:{self.column}" if self.column else f"{self.page}:{self.line}"
        )

    def __str__(self) -> str:
        return f"{self.id}: {self.description}\n{self.diff}".rstrip()


@dataclass(frozen=True)
class MutantRun:
    """Every mutant of one game and what became of it."""

    game: str
    outcomes: tuple[MutantOutcome, ...]
    seconds: float
    enumerated: int
    """Mutants the operators produced (before any sampling cap)."""
    profile: Profile = field(default_factory=Profile)
    rerun: tuple[str, ...] = ()
    """Ids the latest call re-ran (:func:`rerun_survivors`); the rest come from the run before."""
    pages: tuple[str, ...] = ()
    """The pages the run drew its mutants from (empty in a report written before they
    were recorded)."""
    added: tuple[str, ...] = ()
    """The pages of the mutants the latest call ran for the first time: a page added
    since the run before, or, after a whole run, lines added or changed (their ids are in
    ``rerun`` too)."""
    dropped: int = 0
    """Outcomes the latest call left out: after a whole run, mutants that are no longer
    mutants of the pages (their lines changed or went)."""

    def _with(self, status: str) -> list[MutantOutcome]:
        return [o for o in self.outcomes if o.status == status]

    @property
    def compiled(self) -> int:
        """Mutants that compiled (checked, or reviewed as equivalent and not run)."""
        return len(self._with(KILLED)) + len(self._with(SURVIVED)) + len(self._with(EQUIVALENT))

    @property
    def total(self) -> int:
        """Compiled mutants not reviewed as equivalent (the kill rate's denominator)."""
        return self.compiled - len(self.equivalents)

    @property
    def killed(self) -> int:
        return len(self._with(KILLED))

    @property
    def survivors(self) -> list[MutantOutcome]:
        """Survivors not explained by the review: weaknesses of the checks (or unreviewed)."""
        return [o for o in self._with(SURVIVED) if o.equivalent is None]

    @property
    def equivalents(self) -> list[MutantOutcome]:
        """Mutants the review explains as equivalent (not run, or run and survived)."""
        return [
            o
            for o in self.outcomes
            if o.status == EQUIVALENT or (o.status == SURVIVED and o.equivalent is not None)
        ]

    @property
    def not_compiled(self) -> int:
        return len(self._with(NOT_COMPILED))

    @property
    def errors(self) -> list[MutantOutcome]:
        return self._with(ERROR)

    @property
    def rate(self) -> float | None:
        """Killed / compiled non-equivalent mutants (``None`` when there are none)."""
        return self.killed / self.total if self.total else None

    @property
    def raw_rate(self) -> float | None:
        """Killed / compiled mutants, equivalent ones included."""
        return self.killed / self.compiled if self.compiled else None

    @property
    def rerun_outcomes(self) -> list[MutantOutcome]:
        """What became of the mutants the latest call re-ran."""
        ids = set(self.rerun)
        return [o for o in self.outcomes if o.id in ids]

    @property
    def median_kill_seconds(self) -> float | None:
        times = [o.seconds for o in self._with(KILLED)]
        return statistics.median(times) if times else None

    def by_operator(self) -> dict[str, tuple[int, int]]:
        """Operator -> (killed, compiled)."""
        out: dict[str, tuple[int, int]] = {}
        for o in self.outcomes:
            if o.status in (KILLED, SURVIVED):
                k, n = out.get(o.operator, (0, 0))
                out[o.operator] = (k + (o.status == KILLED), n + 1)
        return out


def _outcome(mutant: Mutant, status: str, started: float, **more: Any) -> MutantOutcome:
    """The record of one mutant's fate."""
    return MutantOutcome(
        id=mutant.id,
        page=mutant.page,
        line=mutant.line,
        operator=mutant.operator,
        description=mutant.description,
        diff=mutant.diff,
        status=status,
        seconds=round(time.perf_counter() - started, 3),
        column=mutant.column,
        **more,
    )


KILL_ORDER = ("compile", "replay", "scenarios", "fuzz", "oracle", "leak", "against")
"""The stages of ``rulebook2game check`` (lines aside), cheapest killers first; ``against``
runs only where ``game.toml`` names a second translation, as in ``check``."""


def replay_until_first(ctx: check_run.CheckContext) -> check_run.StageOutcome:
    """The replay stage, ending at the first diverging trace (the rest is not needed)."""
    started = time.perf_counter()
    if ctx.engine is None:
        return check_run.replay_stage(ctx)
    for path in ctx.workspace.traces():
        trace = read_trace(path)
        outcome = replay(ctx.engine, trace)
        if outcome.divergence is not None:
            d = outcome.divergence
            finding = Finding(REPLAY, "replay", f"{path.name}: {d}", step=d.step)
            result = StageResult(
                name="replay",
                status="failed",
                seconds=round(time.perf_counter() - started, 3),
                summary=f"{path.name} diverges",
            )
            return check_run.StageOutcome(result, (finding,))
    seconds = round(time.perf_counter() - started, 3)
    return check_run.StageOutcome(StageResult(name="replay", status="ok", seconds=seconds))


def _stages(second_opinion: bool) -> list[check_run.Stage]:
    """The stages a mutant meets: the same evidence as ``check`` (see :data:`KILL_ORDER`)."""
    by_name = {
        "compile": check_run.compile_stage,
        "replay": replay_until_first,
        "scenarios": check_run.scenarios_stage,
        "fuzz": check_run.fuzz_stage,
        "oracle": check_run.oracle_stage,
        "leak": check_run.leak_stage,
        "against": check_run.against_stage,
    }
    names = [n for n in KILL_ORDER if n != "against" or second_opinion]
    return [by_name[name] for name in names]


def check_mutant(game_dir: Path, mutant: Mutant, profile: Profile) -> MutantOutcome:
    """Write, compile and check one mutant; always cleans its directory up."""
    started = time.perf_counter()
    safe = mutant.id.replace(":", "-")
    dest = game_dir / "build" / "mutants" / safe
    try:
        ws = open_workspace(materialize(game_dir, mutant, dest))
        syntax = get_target(ws.config().target).check_syntax(ws)
        if not syntax.ok:
            return _outcome(mutant, NOT_COMPILED, started, finding=syntax.summary())
        return _run_checks(ws, mutant, profile, started)
    except Rulebook2GameError as exc:
        return _outcome(mutant, ERROR, started, finding=str(exc))
    except Exception as exc:  # a fault of the checks on this mutant: said, the run goes on
        what = f"the checks failed on this mutant ({type(exc).__name__}: {exc})"
        return _outcome(mutant, ERROR, started, finding=what)
    finally:
        shutil.rmtree(dest, ignore_errors=True)


def _run_checks(ws: Any, mutant: Mutant, profile: Profile, started: float) -> MutantOutcome:
    config = ws.config()
    ctx = check_run.CheckContext(ws, config, profile.seed, profile.options())
    try:
        for stage in _stages(bool(config.second_opinion)):
            outcome = stage(ctx)
            result = outcome.result
            if result.name == "compile" and result.status != "ok" and not outcome.findings:
                return _outcome(mutant, NOT_COMPILED, started, finding=result.summary)
            if outcome.findings:
                first = outcome.findings[0]
                status = NOT_COMPILED if first.stage == "compile" else KILLED
                return _outcome(
                    mutant, status, started, stage=result.name, finding=first.headline()
                )
            if result.status == "error":
                return _outcome(mutant, ERROR, started, stage=result.name, finding=result.summary)
    finally:
        ctx.close()
    return _outcome(mutant, SURVIVED, started)


def _not_rules(game_dir: Path) -> frozenset[str]:
    """Definitions whose mutants change no rule: rendering and the ``fun`` invariants.

    An invariant is evidence about the rules, not a rule: a mutant that weakens it
    cannot change the game, and one that breaks it is a false alarm, not a caught bug.
    """
    ws = open_workspace(game_dir)
    interface = ws.interface()
    specs = (*(interface.invariants if interface else ()), *ws.config().invariants)
    return PRESENTATION_ONLY | frozenset(spec.fun for spec in specs if spec.fun)


def select_mutants(game_dir: Path, max_mutants: int | None, seed: int) -> tuple[list[Mutant], int]:
    """The mutants to run (a seeded sample when capped) and how many there are in all."""
    pages = read_pages(game_dir / "pages")
    ws = open_workspace(game_dir)
    target = get_target(ws.config().target)
    extra = dict(target.mutation_operators)
    skip = _not_rules(game_dir) | target.presentation
    suffix = ws.page_suffix
    every = enumerate_mutants(pages, extra=extra, skip=skip, suffix=suffix)
    if max_mutants is None or max_mutants <= 0 or max_mutants >= len(every):
        return every, len(every)
    sample = enumerate_mutants(
        pages, cap=max_mutants, seed=seed, extra=extra, skip=skip, suffix=suffix
    )
    return sample, len(every)


def run_mutants(
    game_dir: Path,
    *,
    seed: int = 0,
    max_mutants: int | None = None,
    workers: int = WORKERS,
    profile: Profile | None = None,
    on_mutant: Callable[[MutantOutcome], None] | None = None,
    write: bool = True,
    review_file: Path = REVIEW_FILE,
    runner: Runner | None = None,
    only: frozenset[str] | None = None,
) -> MutantRun:
    """Check every mutant of ``game_dir``'s pages (or a seeded sample of ``max_mutants``).

    Mutants reviewed as equivalent (``review_file`` and ``game_dir/mutants.toml``) are
    not run: they are listed with the review's reason and the kill rate counts the
    others. ``only``: run just these mutant ids (e.g. the last run's survivors).
    """
    started = time.perf_counter()
    ws = open_workspace(game_dir)
    name = ws.config().name
    profile = profile or Profile(seed=seed)
    mutants, enumerated = select_mutants(game_dir, max_mutants, seed)
    if only is not None:
        mutants = [m for m in mutants if m.id in only]
    reviews = load_reviews(name, review_file, game_dir)
    reviewed = {m.id: why for m in mutants if (why := reviews.reason(m)) is not None}
    todo = [m for m in mutants if m.id not in reviewed]
    skipped = {
        m.id: _outcome(m, EQUIVALENT, time.perf_counter(), equivalent=reviewed[m.id])
        for m in mutants
        if m.id in reviewed
    }
    for outcome in skipped.values():
        if on_mutant is not None:
            on_mutant(outcome)
    fresh = _run_all(game_dir, todo, profile, runner or LocalPool(workers), on_mutant)
    by_id = {o.id: o for o in fresh} | skipped
    outcomes = [by_id[m.id] for m in mutants]
    run = MutantRun(
        name,
        tuple(outcomes),
        round(time.perf_counter() - started, 3),
        enumerated,
        profile,
        pages=tuple(read_pages(game_dir / "pages")),
    )
    if write:
        write_mutant_report(run, ws.reports_dir)
    _journal(game_dir, profile).clear()
    shutil.rmtree(game_dir / "build" / "mutants", ignore_errors=True)
    return run


def _journal(game_dir: Path, profile: Profile) -> JobJournal:
    """Where finished mutants of this profile wait for the rest of an interrupted run."""
    evidence = evidence_fingerprint(game_dir)
    key = hashlib.sha256(f"{__version__} {profile} {evidence}".encode()).hexdigest()[:16]
    return JobJournal(game_dir / "build" / "mutant-jobs" / key)


def _mutant_job(game_dir: Path, profile: Profile, mutant: Mutant) -> MutantOutcome:
    return check_mutant(game_dir, mutant, profile)


def _run_all(
    game_dir: Path,
    mutants: Sequence[Mutant],
    profile: Profile,
    runner: Runner,
    on_mutant: Callable[[MutantOutcome], None] | None,
) -> list[MutantOutcome]:
    journal = _journal(game_dir, profile)
    keys = [f"{m.id} {hashlib.sha256(m.source.encode()).hexdigest()[:16]}" for m in mutants]
    outcomes: dict[int, MutantOutcome] = {}
    for i, key in enumerate(keys):
        if (text := journal.get(key)) is not None:
            outcomes[i] = MutantOutcome(**json.loads(text))
            if on_mutant is not None:
                on_mutant(outcomes[i])
    todo = [i for i in range(len(mutants)) if i not in outcomes]

    def finished(j: int, outcome: MutantOutcome) -> None:
        journal.put(keys[todo[j]], json.dumps(asdict(outcome)))
        if on_mutant is not None:
            on_mutant(outcome)

    job = partial(_mutant_job, game_dir, profile)
    fresh = runner.map(job, [mutants[i] for i in todo], [keys[i] for i in todo], finished)
    outcomes.update(zip(todo, fresh, strict=True))
    return [outcomes[i] for i in range(len(mutants))]


class StaleMutantRun(BadInputError):
    """The last mutant run cannot be continued: there is none, or the pages changed since."""


def read_mutant_run(reports_dir: Path) -> MutantRun:
    """The run ``reports_dir/mutants.json`` describes (raises :class:`StaleMutantRun`)."""
    path = reports_dir / MUTANTS_JSON
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return MutantRun(
            game=data["game"],
            outcomes=tuple(MutantOutcome(**o) for o in data["outcomes"]),
            seconds=float(data["seconds"]),
            enumerated=int(data["enumerated"]),
            profile=Profile(**data["profile"]),
            rerun=tuple(data.get("rerun", ())),
            pages=tuple(data.get("pages", ())),
            added=tuple(data.get("added", ())),
            dropped=int(data.get("dropped", 0)),
        )
    except (OSError, ValueError, KeyError, TypeError):
        raise StaleMutantRun(f"{path}: no earlier mutant run to take survivors from") from None


def _edit_key(page: str, diff: str) -> tuple[str, tuple[str, ...]]:
    """A mutant's edit without its position: its page and the lines the diff removes,
    adds and keeps around them."""
    body = tuple(
        line
        for line in diff.splitlines()
        if line[:1] in "+- " and not line.startswith(("+++", "---"))
    )
    return page, body


def _new_page_mutants(current: Sequence[Mutant], last: MutantRun) -> tuple[Mutant, ...]:
    """The mutants among ``current`` of pages added since ``last`` (none when ``last``
    did not record its pages)."""
    if not last.pages:
        return ()
    known = set(last.pages)
    return tuple(m for m in current if m.page not in known)


@dataclass(frozen=True)
class RerunPlan:
    """What a re-run of the survivors runs, keeps and leaves out (:func:`plan_rerun`)."""

    now_id: dict[str, str]
    """Each survivor's id in the last run -> its id among the pages' mutants now."""
    kept: tuple[MutantOutcome, ...]
    """The last run's outcomes that stay (all of them after a sample)."""
    added: tuple[Mutant, ...]
    """Mutants never run: a page added since, or after a whole run any new edit."""
    whole: bool
    """Whether the last run had every mutant (then ``kept`` and ``added`` are exact)."""

    @property
    def size(self) -> int:
        """How many mutants the re-run checks."""
        return len(self.now_id) + len(self.added)


def plan_rerun(game_dir: Path, last: MutantRun) -> RerunPlan:
    """Match ``last``'s survivors and outcomes with the pages' mutants now.

    After a whole run (every mutant, not a sample) the plan is exact: mutants whose edit
    is new (a page or lines added or changed since) are added, and outcomes that are no
    longer mutants of the pages (a changed or deleted line) are left out. Raises
    :class:`StaleMutantRun` when the last run was a sample and a survivor is no longer
    the same mutant of the pages.
    """
    current = select_mutants(game_dir, None, last.profile.seed)[0]
    whole = len(last.outcomes) == last.enumerated
    # a survivor is found again by its edit, not its id: evidence added elsewhere on its
    # page moves its line and renumbers the page's mutants, but leaves it the same edit
    now_id: dict[str, str] = {}
    gone = []
    for o in last.survivors:
        same = [m for m in current if _edit_key(m.page, m.diff) == _edit_key(o.page, o.diff)]
        if same:
            now_id[o.id] = min(same, key=lambda m: abs(m.line - o.line)).id
        else:
            gone.append(o.id)
    if gone and not whole:
        raise StaleMutantRun(
            f"{len(gone)} survivor(s) of the last mutant run (e.g. {gone[0]}) are no longer "
            "mutants of these pages (the lines they edit changed), and that run was a "
            "sample: run all mutants again"
        )
    if not whole:
        return RerunPlan(now_id, last.outcomes, _new_page_mutants(current, last), whole)
    now_keys = {_edit_key(m.page, m.diff) for m in current}
    last_keys = {_edit_key(o.page, o.diff) for o in last.outcomes}
    kept = tuple(o for o in last.outcomes if _edit_key(o.page, o.diff) in now_keys)
    added = tuple(m for m in current if _edit_key(m.page, m.diff) not in last_keys)
    return RerunPlan(now_id, kept, added, whole)


def rerun_survivors(
    game_dir: Path,
    *,
    workers: int = WORKERS,
    profile: Profile | None = None,
    on_mutant: Callable[[MutantOutcome], None] | None = None,
    runner: Runner | None = None,
    plan: RerunPlan | None = None,
) -> MutantRun:
    """Run the last run's unexplained survivors again and fold the outcomes into that run.

    Every survivor is run, whatever sample the last run drew; a survivor reviewed as
    equivalent since is not run but counted as such. The returned run, written to
    ``reports/``, is the last run with those outcomes replaced (``rerun`` names them), so
    its counts and report stay those of the whole run. Mutants never run join it: those
    of a page added since, and after a whole run those of any line added or changed
    (``added`` names their pages); after a whole run, outcomes that are no longer
    mutants of the pages leave it (``dropped``). See :func:`plan_rerun`, whose
    :class:`StaleMutantRun` this raises, as it does when there is no last run. ``plan``:
    one already made from the same last run (the CLI sizes its progress from it).
    """
    reports = open_workspace(game_dir).reports_dir
    last = read_mutant_run(reports)
    plan = plan or plan_rerun(game_dir, last)
    now_id, kept, added, whole = plan.now_id, plan.kept, plan.added, plan.whole
    added_ids = {m.id for m in added}
    profile = profile or last.profile
    fresh = run_mutants(
        game_dir,
        seed=profile.seed,
        workers=workers,
        profile=profile,
        on_mutant=on_mutant,
        write=False,
        runner=runner,
        only=frozenset(now_id.values()) | added_ids,
    )
    by_id = {old: o for o in fresh.outcomes for old, new in now_id.items() if new == o.id}
    first = tuple(o for o in fresh.outcomes if o.id in added_ids)
    merged = MutantRun(
        last.game,
        (*(by_id.get(o.id, o) for o in kept), *first),
        round(last.seconds + fresh.seconds, 3),
        len(kept) + len(added) if whole else last.enumerated + len(added),
        profile,
        rerun=(*(o.id for o in by_id.values()), *(o.id for o in first)),
        pages=tuple(sorted({*last.pages, *(m.page for m in added)})),
        added=tuple(sorted({m.page for m in added})),
        dropped=len(last.outcomes) - len(kept),
    )
    write_mutant_report(merged, reports)
    return merged
