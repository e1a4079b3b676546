"""Render eval reports and their comparison: Markdown for files, rich tables for the terminal."""

from __future__ import annotations

from rich.table import Table

from rulebook2game.evals.compare import NOT_MEASURED, Change
from rulebook2game.evals.report import EvalReport, GameRecord, Ratio

COLUMNS = ("game", "compiles", "check", "oracle", "golden", "coverage", "mutants", "runs", "cost")

METHOD = """\
How each number was measured (see `rulebook2game.evals.metrics`):

- **compiles**, **check**: one check run (`rulebook2game.check.run.run_check`) with the
  stages listed per game, this seed and the fuzz and oracle budgets above. A pass names
  what it rests on: `ref` (a reference engine agreed), `rules` (scenarios, golden traces
  or a second opinion agreed), `fuzz only` (agreement with the rulebook unverified).
- **oracle-blind** (`--oracle-blind`): the check run above does not see the reference
  engine, so its pass is what a user with a new game gets; the reference engine only
  scores the finished pages (**oracle**).
- **oracle**: lockstep trajectories against the game's oracle that never disagreed;
  trajectory `run` draws with `random.Random(f"{seed}:oracle:{run}")`, moves from the
  oracle on even runs and from the engine on odd runs.
- **golden**: golden traces (`traces/*.jsonl`) the check's replay stage passed.
- **coverage**: rule sentences of the rulebook ledger cited by some page header
  (`# implements:`); citing a section covers all of its sentences.
- **mutants**: mutants of the gold pages the checks killed, and the wall time of the
  game's mutant run (only with `--mutants`).
- **runs**: totals over `runs/*/summary.json` (agent runs): runs, repairs, model calls,
  tokens, cost.
"""


def pct(r: Ratio | None) -> str:
    """``8/8 (100%)``, or ``-`` when nothing was measured."""
    if r is None or r.rate is None:
        return "-"
    return f"{r.num}/{r.den} {r.rate:.0%}"


_ASSURANCE_WORDS = {
    "reference": "pass (ref)",
    "rulebook": "pass (rules)",
    "fuzz_only": "pass (fuzz only)",
    "none": "pass (nothing)",
}


def _check_cell(g: GameRecord) -> str:
    """``pass (reference)``, ``pass (fuzz only)``, ...: a pass names what it rests on."""
    if not g.check_passes:
        return "FAIL"
    return _ASSURANCE_WORDS.get(g.assurance, "pass")


def _mutant_cell(g: GameRecord) -> str:
    """Kill rate, and the wall time of the game's mutant run when known."""
    if g.mutants is None:
        return "-"
    took = "" if g.mutants.seconds is None else f" in {g.mutants.seconds:.0f} s"
    return pct(g.mutants.killed) + took


def _coverage_cell(g: GameRecord) -> str:
    if g.coverage is None:
        return "-"
    apart = len(g.coverage.out_of_scope)
    return pct(g.coverage.sentences) + (f" ({apart} out of scope)" if apart else "")


def _row(g: GameRecord) -> list[str]:
    runs = f"{g.runs.green}/{g.runs.runs} green, {g.runs.repairs} repairs" if g.runs else "-"
    cost = f"${g.runs.cost_usd:.4f}" if g.runs and g.runs.cost_usd is not None else "-"
    return [
        g.game,
        "yes" if g.compiles else "NO",
        _check_cell(g),
        pct(g.oracle.agreement) if g.oracle else "-",
        pct(g.golden),
        _coverage_cell(g),
        _mutant_cell(g),
        runs,
        cost,
    ]


def _overall_row(report: EvalReport) -> list[str]:
    o = report.overall
    cost = f"${o.cost_usd:.4f}" if o.cost_usd is not None else "-"
    runs = f"{o.model_calls} calls, {o.tokens} tokens" if o.model_calls else "-"
    return [
        "overall",
        pct(o.compiles),
        pct(o.check_passes),
        pct(o.oracle_agreement),
        pct(o.golden),
        pct(o.coverage),
        pct(o.mutants),
        runs,
        cost,
    ]


def rich_table(report: EvalReport) -> Table:
    """The per-game table with the overall row."""
    table = Table(title=f"eval {report.suite}", title_justify="left")
    for column in COLUMNS:
        table.add_column(column, no_wrap=column == "game")
    for g in report.games:
        table.add_row(*_row(g), style=None if g.check_passes else "red")
    table.add_row(*_overall_row(report), style="bold")
    return table


def _provenance(report: EvalReport) -> list[str]:
    s = report.settings
    commit = report.git_commit or "unknown"
    dirty = " with uncommitted changes" if report.git_dirty else ""
    suite = (
        f"`{report.suite_file}` (sha256 {report.suite_sha256})" if report.suite_file else "ad hoc"
    )
    return [
        f"- suite: {suite}",
        f"- tool: rulebook2game {report.version} at commit `{commit}`{dirty}",
        f"- created: {report.created}; took {report.seconds:.1f} s",
        f"- settings: seed {s.get('seed')}, {s.get('trajectories')} oracle-agreement "
        f"trajectories, fuzz {s.get('fuzz')}, check oracle {s.get('oracle')}, "
        f"mutants {'on' if s.get('mutants') else 'off'}",
        f"- repeat: `{report.command}`",
    ]


def _game_section(g: GameRecord) -> list[str]:
    lines = [f"### {g.game}", "", f"`{g.path}` — {g.seconds:.1f} s", ""]
    lines += [f"- {name}: {text}" for name, text in g.stages.items()]
    lines += [f"- finding: {f}" for f in g.findings[:10]]
    if g.oracle and g.oracle.disagreements:
        lines += [
            f"- oracle trajectory {d.run} disagrees after {d.step} steps: {d.what}: {d.message}"
            for d in g.oracle.disagreements[:10]
        ]
    if g.coverage:
        c = g.coverage
        shown = ", ".join(c.uncited[:30]) + (" ..." if len(c.uncited) > 30 else "")
        lines.append(f"- coverage from {c.source}; uncited rule sentences: {shown or 'none'}")
        if c.uncovered_examples:
            shown = ", ".join(c.uncovered_examples[:30])
            lines.append(f"- example sentences no scenario covers: {shown}")
        if c.out_of_scope:
            shown = "; ".join(f"{i} ({why})" for i, why in list(c.out_of_scope.items())[:30])
            lines.append(f"- out of scope, with reasons (scope.toml): {shown}")
        if c.dangling:
            lines.append(f"- citations naming nothing in the rulebook: {', '.join(c.dangling)}")
    if g.mutants:
        m = g.mutants
        took = "" if m.seconds is None else f" in {m.seconds:.0f} s"
        lines.append(
            f"- mutants: {m.killed.num}/{m.killed.den} killed{took}, {m.equivalent} reviewed "
            f"as equivalent, {len(m.survivors)} surviving" + (":" if m.survivors else "")
        )
        lines += [f"  - {s}" for s in m.survivors]
    if g.runs:
        r = g.runs
        lines.append(
            f"- agent runs: {r.runs} ({r.finished} finished, {r.green} green, latest "
            f"{r.latest}); {r.repairs} repairs, {r.model_calls} model calls, {r.tokens} tokens"
        )
    lines += ["- re-run:", *[f"  - `{c}`" for c in g.commands], ""]
    return lines


def render_markdown(report: EvalReport) -> str:
    """The report as Markdown: table, provenance, method, per-game details."""
    lines = [f"# Eval `{report.suite}` — {report.created[:10]}", ""]
    lines += ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_row(g)) + " |" for g in report.games]
    lines += ["| " + " | ".join(f"**{c}**" for c in _overall_row(report)) + " |", ""]
    lines += ["## Provenance", "", *_provenance(report), "", "## Method", "", METHOD]
    lines += ["## Per game", ""]
    for g in report.games:
        lines += _game_section(g)
    return "\n".join(lines).rstrip("\n") + "\n"


def _fmt(metric: str, value: float | None) -> str:
    if value is None:
        return "-"
    if metric in ("repairs", "model_calls", "tokens"):
        return f"{value:.0f}"
    if metric == "cost_usd":
        return f"${value:.4f}"
    return f"{value:.1%}"


def compare_table(changes: list[Change], only_changed: bool = True) -> Table:
    """Old and new value of each metric, with a verdict."""
    table = Table(title="eval comparison", title_justify="left")
    for column in ("game", "metric", "old", "new", "verdict"):
        table.add_column(column)
    colours = {"better": "green", "worse": "red", "new": "cyan", "same": "dim"}
    for c in changes:
        if c.verdict == NOT_MEASURED or (only_changed and c.verdict == "same"):
            continue
        verdict = f"[{colours[c.verdict]}]{c.verdict}[/]"
        table.add_row(c.game, c.metric, _fmt(c.metric, c.old), _fmt(c.metric, c.new), verdict)
    return table


def compare_markdown(changes: list[Change], old: EvalReport, new: EvalReport) -> str:
    """The comparison as Markdown (every metric, changed or not)."""
    lines = [
        f"# Eval comparison: `{old.suite}` {old.created} → `{new.suite}` {new.created}",
        "",
        f"Old commit `{old.git_commit}`, new commit `{new.git_commit}`.",
        "",
        "| game | metric | old | new | verdict |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {c.game} | {c.metric} | {_fmt(c.metric, c.old)} | {_fmt(c.metric, c.new)} | "
        f"{c.verdict} |"
        for c in changes
        if c.verdict != NOT_MEASURED
    ]
    missing = not_measured_text(changes)
    if missing:
        lines += ["", "## Not measured in the new report (not compared)", "", missing]
    return "\n".join(lines) + "\n"


def not_measured_text(changes: list[Change]) -> str:
    """The metrics the new report did not measure, one line per game (empty if none)."""
    by_game: dict[str, list[str]] = {}
    for c in changes:
        if c.verdict == NOT_MEASURED:
            by_game.setdefault(c.game, []).append(c.metric)
    return "\n".join(f"- {game}: {', '.join(metrics)}" for game, metrics in by_game.items())
