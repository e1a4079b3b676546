"""``ingest``: rulebook in, checked rule pages out (extract -> agent -> final check).

The orchestrator is a few calls to overridable hooks (:class:`IngestHooks`):
prepare the workspace (copy the inputs, extract the rulebook), write the
``AGENTS.md`` brief, and, when a model endpoint is configured, run the agent and
check the result. Without an endpoint it stops after the brief: a coding agent
can do the job from there through the command line.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from rulebook2game._ingest_second import FirstRun, SecondRun, run_second_opinion
from rulebook2game._ingest_workspace import prepare_workspace
from rulebook2game.agent import (
    AgentSettings,
    LoopState,
    Progress,
    PromptContext,
    RunLog,
    Toolbox,
    finished_run,
    open_run,
    render,
    run_translation,
)
from rulebook2game.agent.backends import real_toolbox
from rulebook2game.agent.prompts import target_reference
from rulebook2game.agent.toolbox import CheckReport, RulebookView
from rulebook2game.errors import BadInputError, ModelError
from rulebook2game.llm import (
    Budget,
    CachedModel,
    ChatModel,
    Endpoint,
    OpenAIChatModel,
    RequestCache,
    load_prices,
    price_for,
    resolve_endpoint,
)
from rulebook2game.llm.pricing import DEFAULT_PRICES, Price
from rulebook2game.llm.retry import RetryEvent
from rulebook2game.trace import write_text_atomic
from rulebook2game.workspace import Workspace

Outcome = Literal["green", "not_green", "handed_off"]

EXIT_CODES: dict[Outcome, int] = {"green": 0, "not_green": 1, "handed_off": 3}
"""``ingest`` exit codes: 0 checks green, 1 not green (or the run failed), 2 bad input
(from the error tree), 3 no model endpoint: workspace and ``AGENTS.md`` written."""


@dataclass(frozen=True)
class IngestOptions:
    """Everything ``rulebook2game ingest`` was asked to do."""

    rules: Path
    out: Path
    target: str = "rl"
    model: str | None = None
    base_url: str | None = None
    interface: Path | None = None
    oracle: str | None = None
    vassal: Path | None = None
    players: int | None = None
    password: str | None = None
    budget: Budget = field(default_factory=Budget)
    no_cache: bool = False
    cache_dir: Path | None = None
    prices: Path | None = None
    price_in: float | None = None
    price_out: float | None = None
    timeout: float = 300.0
    resume: bool = True
    second_opinion: bool = False
    """After the translation, a second one in a fresh context, walked in lockstep with it."""
    second_target: str | None = None
    """Target of the second translation (default: the other target when there is one)."""
    env: dict[str, str] | None = None
    """Environment to read ``OPENAI_*`` from (``None`` = the process environment)."""


@dataclass(frozen=True)
class Prepared:
    """A workspace ready for the agent."""

    workspace: Workspace
    rulebook: RulebookView
    context: PromptContext
    fingerprint: str
    """Hash of what defines the job (inputs and model), to find a run to resume."""


@dataclass(frozen=True)
class IngestResult:
    """How ``ingest`` ended."""

    outcome: Outcome
    workspace: Workspace
    brief: Path
    run: RunLog | None = None
    agent: LoopState | None = None
    report: CheckReport | None = None
    repeated: bool = False
    """``run`` is an earlier run of the same job that had finished: no model call was made."""
    second: SecondRun | None = None
    """How the second opinion went, when one was asked for."""

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.outcome]


def _digest(path: Path | None) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else None


class IngestHooks:
    """The stages of ``ingest``; override one to replace it (tests, other targets)."""

    def prepare(self, options: IngestOptions) -> Prepared:
        """Copy inputs into the game directory, extract the rulebook, build the context."""
        reference = target_reference(options.target)  # before anything is written
        ws, rulebook, inventory = prepare_workspace(options)
        config = ws.config()
        interface = ws.root / "interface.toml"
        context = PromptContext(
            game=config.title or config.name,
            players=config.players,
            target=options.target,
            reference=reference,
            toc=rulebook.toc_text(),
            interface=interface.read_text(encoding="utf-8") if interface.is_file() else None,
            inventory=inventory,
            oracle=config.oracle,
            page_suffix=ws.page_suffix,
        )
        job = {
            "rules": _digest(options.rules),
            "interface": _digest(options.interface),
            "vassal": _digest(options.vassal),
            "oracle": options.oracle,
            "target": options.target,
            "model": options.model,
        }
        if options.second_opinion:  # a new job; the fingerprints of others stay as they were
            job["second_opinion"] = options.second_target or "other"
        fingerprint = hashlib.sha256(json.dumps(job, sort_keys=True).encode()).hexdigest()
        return Prepared(ws, rulebook, context, fingerprint[:16])

    def write_brief(self, prepared: Prepared) -> Path:
        """Render ``AGENTS.md`` into the workspace."""
        path = prepared.workspace.root / "AGENTS.md"
        write_text_atomic(path, render("AGENTS.md.j2", **prepared.context.as_dict()))
        return path

    def toolbox(self, prepared: Prepared, options: IngestOptions) -> Toolbox:
        """The compiler and checks of the target."""
        return real_toolbox(prepared.rulebook, options.target)

    def model(
        self,
        options: IngestOptions,
        endpoint: Endpoint,
        prepared: Prepared,
        on_retry: Callable[[RetryEvent], None] | None = None,
    ) -> ChatModel:
        """The endpoint behind the request cache (unless ``--no-cache``)."""
        model: ChatModel = OpenAIChatModel(endpoint, timeout=options.timeout, on_retry=on_retry)
        if options.no_cache:
            return model
        cache_dir = options.cache_dir or prepared.workspace.runs_dir / "cache"
        return CachedModel(model, RequestCache(cache_dir))


def ingest(
    options: IngestOptions,
    on_progress: Callable[[Progress], None] | None = None,
    hooks: IngestHooks | None = None,
) -> IngestResult:
    """Run the whole job; see the module docstring."""
    hooks = hooks or IngestHooks()
    # Every check of the command line comes before the first write.
    endpoint = resolve_endpoint(options.base_url, options.env)
    if endpoint is not None and not options.model:
        raise BadInputError("a model endpoint is configured: give --model NAME")
    started = time.monotonic()
    prepared = hooks.prepare(options)
    timings = {"prepare": time.monotonic() - started}
    brief = hooks.write_brief(prepared)
    if endpoint is None:
        return IngestResult("handed_off", prepared.workspace, brief)
    toolbox = hooks.toolbox(prepared, options)
    meta = _run_meta(options, prepared, endpoint)
    done = finished_run(prepared.workspace.runs_dir, prepared.fingerprint)
    if options.resume and done is not None and _same_budget(done, meta):
        # The same job ran to the end before: asking the model again would repeat it.
        report = toolbox.checker.check(prepared.workspace)
        outcome: Outcome = "green" if report.green else "not_green"
        return IngestResult(outcome, prepared.workspace, brief, done, None, report, repeated=True)
    log = open_run(prepared.workspace.runs_dir, prepared.fingerprint, options.resume)
    log.write_json("run.json", meta)

    def retried(event: RetryEvent) -> None:
        log.append("retry", attempt=event.attempt, delay=event.delay, reason=event.reason)

    model = hooks.model(options, endpoint, prepared, retried)
    settings = AgentSettings(options.model or "", options.budget, _price(options))
    state = run_translation(
        prepared.workspace, toolbox, model, settings, log, prepared.context, on_progress
    )
    if state.status == "model_error" and not state.usage:
        # Not one answer came back: there is nothing to check, only the endpoint to fix.
        log.write_json(
            "summary.json",
            {"run": log.id, "status": "failed", "agent_status": state.status,
             "agent_reason": state.reason},
        )  # fmt: skip
        raise ModelError(state.reason)
    if on_progress is not None:
        on_progress(Progress(state.turn, "final_check"))
    started = time.monotonic()
    report = toolbox.checker.check(prepared.workspace)
    timings["final_check"] = time.monotonic() - started
    outcome = "green" if report.green else "not_green"
    log.append(
        "final_check", green=report.green, summary=report.summary, findings=len(report.findings)
    )
    second: SecondRun | None = None
    if options.second_opinion:
        started = time.monotonic()
        first = FirstRun(
            prepared.workspace, toolbox, settings, log, state, prepared.fingerprint, options.resume
        )
        second, state, judged = run_second_opinion(
            first, prepared.rulebook.toc_text(), model, options.second_target, on_progress
        )
        report = judged or report
        timings["second_opinion"] = time.monotonic() - started
        outcome = "green" if report.green else "not_green"
        log.append("second_opinion", **second.to_json())
    summary = _summary(log, state, report, outcome, timings)
    summary["agent_ambiguities"] = _ambiguities(prepared.workspace.reports_dir)
    if second is not None:
        summary["second_opinion"] = second.to_json()
    log.write_json("summary.json", summary)
    return IngestResult(outcome, prepared.workspace, brief, log, state, report, second=second)


def _same_budget(run: RunLog, meta: dict[str, Any]) -> bool:
    """Whether ``run`` had the budgets asked for now (a larger budget is a new job)."""
    earlier = run.read_json("run.json") or {}
    return bool(earlier.get("budget") == meta["budget"])


def _ambiguities(reports_dir: Path) -> list[dict[str, Any]]:
    """The ambiguities the agent resolved, as its ``finish`` recorded them."""
    from rulebook2game.check.report import load_finish_notes

    notes = load_finish_notes(reports_dir)
    return [a.model_dump() for a in notes.ambiguities] if notes else []


def _price(options: IngestOptions) -> Price | None:
    table = load_prices(options.prices or DEFAULT_PRICES)
    return price_for(options.model or "", table, options.price_in, options.price_out)


def _run_meta(options: IngestOptions, prepared: Prepared, endpoint: Endpoint) -> dict[str, Any]:
    return {
        "fingerprint": prepared.fingerprint,
        "rules": str(options.rules),
        "target": options.target,
        "model": options.model,
        "endpoint": endpoint.describe(),
        "oracle": options.oracle,
        "interface": str(options.interface) if options.interface else None,
        "budget": {
            "max_turns": options.budget.max_turns,
            "max_tokens": options.budget.max_tokens,
            "max_repairs": options.budget.max_repairs,
        },
        "cache": None if options.no_cache else str(options.cache_dir or "runs/cache"),
    }


def _summary(
    log: RunLog,
    state: LoopState,
    report: CheckReport,
    outcome: Outcome,
    timings: dict[str, float],
) -> dict[str, Any]:
    times = [e["time"] for e in log.events if "time" in e]
    return {
        "run": log.id,
        "status": outcome,
        "agent_status": state.status,
        "agent_reason": state.reason,
        "agent_summary": state.summary,
        "turns": state.turn,
        "repairs": state.repairs,
        "usage": {stage: usage.to_json() for stage, usage in state.usage.items()},
        "total": state.total.to_json(),
        "seconds": {
            **{stage: round(seconds, 3) for stage, seconds in timings.items()},
            "model": round(
                sum(e.get("seconds", 0) for e in log.events if e["event"] == "response"), 3
            ),
            "tools": round(
                sum(e.get("seconds", 0) for e in log.events if e["event"] == "tool_result"), 3
            ),
            "wall": round(max(times) - min(times), 3) if times else 0.0,
        },
        "checks": {
            "green": report.green,
            "summary": report.summary,
            "verdict": report.verdict,
            "assurance": report.assurance,
            "findings": [f"{f.check}: {f.kind}: {f.message}" for f in report.findings],
        },
    }
