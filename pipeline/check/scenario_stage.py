"""The scenarios stage of ``rulebook2game check``: play every ``scenarios/*.toml``.

A broken expectation is a finding of kind ``scenario`` with the scenario's name, the
step, the pages involved (located as for any finding), the cited example text first
and the rendered position where it showed. See :mod:`rulebook2game.check.scenarios`
for the format.
"""

from __future__ import annotations

import time
from functools import partial

from rulebook2game.check.findings import SCENARIO, Finding, SectionRef, cited_sections
from rulebook2game.check.report import StageResult
from rulebook2game.check.scenarios import (
    Failure,
    Scenario,
    read_scenario,
    run_scenario,
    scenario_paths,
)
from rulebook2game.check.shrink import trace_of
from rulebook2game.check.stages import StageContext
from rulebook2game.errors import BadInputError, EngineFault

StageReturn = tuple[StageResult, tuple[Finding, ...]]
_LEGAL_WHATS = {"allowed": "legal", "forbidden": "legal", "illegal": "legal"}
"""Failures about which actions are offered: their preconditions are involved."""


_row = partial(StageResult.since, "scenarios")


def scenarios(ctx: StageContext) -> StageReturn:
    """Play every scenario from the start; one finding per scenario that broke."""
    started = time.perf_counter()
    paths = scenario_paths(ctx.workspace.root)
    if ctx.engine is None:
        why = "no engine (compile failed)" if ctx.compile_failed else "no engine"
        return _row("skipped", started, why, scenarios=0, found=len(paths)), ()
    if not paths:
        return _row("skipped", started, "no scenarios in scenarios/", scenarios=0), ()
    findings: list[Finding] = []
    unreadable: list[str] = []
    needs_setup: list[str] = []
    cites: list[str] = []
    for path in paths:
        try:
            scenario = read_scenario(path)
        except BadInputError as exc:
            unreadable.append(str(exc))
            continue
        if scenario.setup is not None and not scenario.setup.runnable():
            needs_setup.append(path.stem)
            continue
        cites.extend(scenario.all_cites())
        run = run_scenario(ctx.engine, scenario)
        if run.failure is not None:
            findings.append(_finding(ctx, path.stem, scenario, run.failure))
    played = len(paths) - len(unreadable) - len(needs_setup)
    passed = played - len(findings)
    summary = f"{passed}/{played} scenarios passed"
    if needs_setup:
        summary += f"; {len(needs_setup)} not run (a [setup] without a state or set)"
    if unreadable:
        summary = f"{len(unreadable)} unreadable scenario(s): {unreadable[0]}; {summary}"
    status = "error" if unreadable else ("failed" if findings else "ok")
    if not played and not unreadable:
        status = "skipped"
    stats = {
        "scenarios": played,
        "passed": passed,
        "needs_setup": needs_setup,
        "unreadable": unreadable,
        "cites": sorted(set(cites)),
    }
    return _row(status, started, summary, **stats), tuple(findings)


def _finding(ctx: StageContext, name: str, scenario: Scenario, failure: Failure) -> Finding:
    """A located finding: pages from the actions in question, the example text first."""
    assert ctx.engine is not None
    prefix = scenario.actions[: failure.after]
    trace = None
    if scenario.setup is None:  # a counterexample trace starts from the opening
        try:
            trace = trace_of(ctx.engine, prefix, game=ctx.config.name)
        except EngineFault:
            trace = None
    actions = failure.actions
    if not actions and failure.after < len(scenario.actions):
        actions = (scenario.actions[failure.after],)
    note = f" ({failure.note})" if failure.note else ""
    finding = Finding(
        SCENARIO,
        "scenarios",
        f"{name}: {failure}{note}",
        trace=trace,
        step=failure.after,
        expected=failure.expected,
        actual=failure.actual,
        actions=actions,
        extra={
            "scenario": name,
            "what": _LEGAL_WHATS.get(failure.what, failure.what),
            "position": failure.position,
            "cites": list(scenario.all_cites()),
        },
    )
    located = ctx.index.locate(finding)
    wanted = [*failure.cites, *scenario.cites]
    examples = cited_sections(ctx.workspace.root, wanted)
    refs = [examples.get(c, SectionRef(c)) for c in dict.fromkeys(wanted)]
    seen = {r.id for r in refs}
    return Finding(
        **{
            **located.__dict__,
            "sections": (*refs, *(s for s in located.sections if s.id not in seen)),
        }
    )
