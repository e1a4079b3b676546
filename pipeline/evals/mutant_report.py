"""The mutant report of one game: ``reports/mutants.json`` and ``reports/mutants.md``."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook2game.trace import write_text_atomic

if TYPE_CHECKING:
    from rulebook2game.evals.mutants import MutantOutcome, MutantRun

MUTANTS_JSON = "mutants.json"


def write_mutant_report(run: MutantRun, reports_dir: Path) -> tuple[Path, Path]:
    """``mutants.json`` (every outcome) and ``mutants.md`` (summary, survivors with diffs)."""
    data = {
        "format": "rulebook2game-mutants/1",
        "game": run.game,
        "enumerated": run.enumerated,
        "run": len(run.outcomes),
        "compiled": run.compiled,
        "equivalent": len(run.equivalents),
        "not_compiled": run.not_compiled,
        "killed": run.killed,
        "survived": len(run.survivors),
        "errors": len(run.errors),
        "kill_rate": run.rate,
        "raw_kill_rate": run.raw_rate,
        "median_kill_seconds": run.median_kill_seconds,
        "seconds": run.seconds,
        "profile": asdict(run.profile),
        "by_operator": {k: {"killed": a, "compiled": b} for k, (a, b) in run.by_operator().items()},
        "rerun": list(run.rerun),
        "pages": list(run.pages),
        "added": list(run.added),
        "dropped": run.dropped,
        "outcomes": [asdict(o) for o in run.outcomes],
    }
    json_path, md_path = reports_dir / MUTANTS_JSON, reports_dir / "mutants.md"
    write_text_atomic(json_path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    write_text_atomic(md_path, render_mutants_markdown(run))
    return json_path, md_path


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.1f}%"


def render_mutants_markdown(run: MutantRun) -> str:
    """Summary table, kills per operator and stage, survivors and equivalents with diffs."""
    median = run.median_kill_seconds
    lines = [
        f"# Mutants of `{run.game}`",
        "",
        "| mutants | run | not compiled | compiled | equivalent | killed | survived | errors "
        "| kill rate | raw kill rate | median time to kill |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {run.enumerated} | {len(run.outcomes)} | {run.not_compiled} | {run.compiled} "
        f"| {len(run.equivalents)} | {run.killed} | {len(run.survivors)} | {len(run.errors)} "
        f"| {_pct(run.rate)} | {_pct(run.raw_rate)} "
        f"| {'-' if median is None else f'{median:.2f} s'} |",
        "",
        "Kill rate: killed / (compiled - reviewed equivalent); raw: killed / compiled.",
        f"Checks per mutant: fuzz {run.profile.fuzz}, oracle {run.profile.oracle}, "
        f"seed {run.profile.seed}; stops at the first finding. Total {run.seconds:.0f} s.",
        "Reviewed-equivalent mutants are not run: `mutants.toml` of the game (and, for the "
        "corpus, `evals/mutants/equivalent.toml`) says why each one cannot be killed.",
        *_rerun_line(run),
        "",
        "| operator | killed / compiled |",
        "|---|---:|",
    ]
    lines += [f"| {op} | {k} / {n} |" for op, (k, n) in sorted(run.by_operator().items())]
    killers: dict[str, int] = {}
    for o in run.outcomes:
        if o.status == "killed" and o.stage:
            killers[o.stage] = killers.get(o.stage, 0) + 1
    lines += ["", "Killed by stage: " + ", ".join(f"{k} {v}" for k, v in sorted(killers.items()))]
    lines += _section("Survivors (not explained: weaknesses of the checks)", run.survivors)
    lines += _section("Reviewed as equivalent", run.equivalents)
    lines += _section("Errors", run.errors)
    lines += _refused(run)
    return "\n".join(lines) + "\n"


def _refused(run: MutantRun) -> list[str]:
    """The mutants the compiler refused, one line each (they count in no rate)."""
    refused = [o for o in run.outcomes if o.status == "not_compiled"]
    if not refused:
        return []
    lines = ["", "## Not compiled (the compiler refused the change; counted in no rate)", ""]
    for o in refused:
        first = (o.finding or "").strip().splitlines()[:1]
        why = f": {first[0][:160]}" if first else ""
        lines.append(f"- `{o.id}` at {o.where}: {o.description}{why}")
    return lines


def _rerun_line(run: MutantRun) -> list[str]:
    """What the latest call (a re-run of the survivors) changed in the counts above."""
    if not run.rerun and not run.dropped:
        return []
    again = run.rerun_outcomes
    killed = sum(o.status == "killed" for o in again)
    surviving = sum(o.status == "survived" and o.equivalent is None for o in again)
    equivalent = sum(o.equivalent is not None for o in again)
    new = sum(o.page in run.added for o in again)
    also = f" and the {new} mutants new since (on {', '.join(run.added)})" if run.added else ""
    gone = (
        f" {run.dropped} mutants of the run before are no longer mutants of the pages "
        "(their lines changed) and were left out."
        if run.dropped
        else ""
    )
    return [
        "",
        f"The latest call re-ran only the {len(again) - new} survivors of the run before "
        f"it{also}: {killed} killed now, {surviving} still surviving, {equivalent} reviewed "
        f"as equivalent since.{gone} The counts above are the whole run's.",
    ]


def _section(title: str, items: list[MutantOutcome]) -> list[str]:
    if not items:
        return []
    lines = ["", f"## {title}", ""]
    for o in items:
        why = o.equivalent or o.finding
        # the id is what review_mutant and --equivalent take; where says page:line:column
        lines += [f"### `{o.id}` at {o.where}: {o.description}", ""]
        lines += [why, ""] if why else []
        lines += ["```diff", o.diff.rstrip(), "```", ""]
    return lines


def summarize_reports(paths: list[Path]) -> str:
    """One Markdown table over several games' ``mutants.json``, then their survivors."""
    rows = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    lines = [
        "# Mutant kill rate of the corpus",
        "",
        "| game | mutants | not compiled | compiled | equivalent | killed | survived "
        "| kill rate | raw kill rate | median time to kill | wall time |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for d in rows:
        median = d["median_kill_seconds"]
        lines.append(
            f"| {d['game']} | {d['run']} | {d['not_compiled']} | {d['compiled']} "
            f"| {d['equivalent']} | {d['killed']} | {d['survived']} | {_pct(d['kill_rate'])} "
            f"| {_pct(d['raw_kill_rate'])} | {'-' if median is None else f'{median:.2f} s'} "
            f"| {d['seconds']:.0f} s |"
        )
    lines += [
        "",
        "Kill rate: killed / (compiled - reviewed equivalent); raw: killed / compiled.",
        "Equivalent mutants and why: `evals/mutants/equivalent.toml`.",
    ]
    for d in rows:
        survivors = [o for o in d["outcomes"] if o["status"] == "survived" and not o["equivalent"]]
        if survivors:
            lines += ["", f"## Survivors of `{d['game']}`", ""]
            for o in survivors:
                where = f"{o['page']}:{o['line']}" + (f":{o['column']}" if o.get("column") else "")
                lines += [f"### `{where}` {o['operator']}: {o['description']}", "", "```diff"]
                lines += [o["diff"].rstrip(), "```", ""]
    return "\n".join(lines) + "\n"
