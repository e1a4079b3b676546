"""Does ``regress`` kill every mutant that ``check`` kills? Two mutant sets, before and after.

    python scripts/regress_vs_check.py --before REV [corpora/GAME ...] [-j 2] [--sample N]

For each corpus game and each of two mutant sets:

- *operators*: every mutant of the gold pages that ``rulebook2game.mutate`` makes,
  less those reviewed as equivalent (``evals/mutants/equivalent.toml``);
- *listed*: the hand-written mutants of ``evals/mutants/semantic.toml`` (whole rules
  misread: a draw scored as a loss, a moon shot by some seats ignored, ...);

it finds which mutants ``check`` kills (replay of the golden traces, fuzz 1000, oracle
200, seed 0) and which ``regress`` kills (the same replay, fuzz 100, oracle 20, seed 0),
with the golden traces of ``--before`` (a git revision) and with the current ones.

A mutant is killed when any stage finds something, so each verdict is "the replay
kills it, or the seeded fuzz and oracle passes do". The replay part is measured by
``rulebook2game.traces.adequacy.kill_sets`` (one compile per mutant, every old and new
trace replayed through it); the
fuzz and oracle passes, which do not read the traces, run once per mutant and budget,
and only for mutants that some replay leaves alive. Both are cached under
``GAME_DIR/build/``, so a rerun costs only what changed. ``--sample N`` keeps a seeded
sample of N operator mutants per game (the listed set is always run whole).

Writes the table between the ``regress-vs-check`` markers of ``evals/reports/mutants.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from rulebook2game.check import run as check_run
from rulebook2game.errors import BadInputError, Rulebook2GameError
from rulebook2game.mutate import Mutant, materialize, read_pages
from rulebook2game.mutate.listed import listed_mutants
from rulebook2game.targets.rl.compile import check_syntax
from rulebook2game.trace import Trace, parse_trace, read_trace, write_text_atomic
from rulebook2game.traces.adequacy import kill_sets, mutant_key
from rulebook2game.traces.search import rule_mutants
from rulebook2game.workspace import open_workspace

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "evals" / "reports" / "mutants.md"
LISTED = ROOT / "evals" / "mutants" / "semantic.toml"
CHECK = (1000, 200)
REGRESS = (100, 20)
MARK = "<!-- regress-vs-check{}: {} -->"


def traces_at(rev: str, game_dir: Path) -> dict[str, Trace]:
    """The golden traces of ``game_dir`` at git revision ``rev``."""
    rel = game_dir.resolve().relative_to(ROOT)
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{rev}:{rel}/traces"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    out = {}
    for name in names:
        if name.endswith(".jsonl"):
            text = subprocess.run(
                ["git", "show", f"{rev}:{rel}/traces/{name}"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            out[name[: -len(".jsonl")]] = parse_trace(text, name)
    return out


def fuzz_oracle_kills(job: tuple[Path, Mutant, tuple[int, int]]) -> bool | None:
    """Whether the seeded fuzz and oracle passes alone find the mutant (None: no compile)."""
    game_dir, mutant, (fuzz, oracle) = job
    with contextlib.suppress(OSError):
        os.nice(max(0, 10 - os.nice(0)))
    dest = game_dir / "build" / "regress-vs-check" / f"{mutant.id.replace(':', '-')}-{fuzz}"
    try:
        materialize(game_dir, mutant, dest)
        for trace in (dest / "traces").glob("*.jsonl"):
            trace.unlink()
        ws = open_workspace(dest)
        if not check_syntax(ws).ok:
            return None
        options = {
            "fuzz": fuzz,
            "oracle": oracle,
            "shrink": False,
            "stop_at_first": True,
            "request_timeout": 2.0,
            "batch_timeout": 3.0,
        }
        ctx = check_run.CheckContext(ws, ws.config(), 0, options)
        try:
            for stage in (check_run.compile_stage, check_run.fuzz_stage, check_run.oracle_stage):
                outcome = stage(ctx)
                if outcome.result.name == "compile" and outcome.result.status != "ok":
                    return None
                if outcome.findings:
                    return True
            return False
        finally:
            ctx.close()
    except Rulebook2GameError:
        return None
    finally:
        shutil.rmtree(dest, ignore_errors=True)


@dataclass(frozen=True)
class Verdicts:
    """Per mutant: compiled, killed by old/new replay, by check's and regress's fuzz+oracle."""

    compiled: dict[str, bool]
    replay_old: dict[str, bool]
    replay_new: dict[str, bool]
    fo: dict[tuple[str, tuple[int, int]], bool]
    has_old: bool = True

    def kills(self, mid: str, new: bool, budget: tuple[int, int]) -> bool:
        replayed = (self.replay_new if new else self.replay_old)[mid]
        return replayed or self.fo.get((mid, budget), False)


def measure(game_dir: Path, mutants: list[Mutant], old: dict[str, Trace], workers: int) -> Verdicts:
    pages = read_pages(game_dir / "pages")
    cache = game_dir / "build" / "trace-adequacy.json"
    new = {p.stem: read_trace(p) for p in sorted((game_dir / "traces").glob("*.jsonl"))}
    if old:
        # One compile per mutant: every old and new trace is replayed through it.
        both = {**{f"old:{n}": t for n, t in old.items()}}
        both.update({f"new:{n}": t for n, t in new.items()})
        ks = kill_sets(game_dir, pages, mutants, both, cache=cache, workers=workers)
    else:
        # In the order the recording picked them: its cached answers are then enough.
        record = json.loads((game_dir / "traces" / "selection.json").read_text())
        order = [t["file"][: -len(".jsonl")] for t in record["traces"]]
        named = {f"new:{n}": new[n] for n in order if n in new}
        ks = kill_sets(
            game_dir, pages, mutants, named, first=list(named), cache=cache, workers=workers
        )
    compiled = {m.id: ks[m.id].compiled for m in mutants}
    replay_old = {m.id: any(k.startswith("old:") for k in ks[m.id].killers) for m in mutants}
    if not old:  # no old traces: only the current ones decide
        replay_old = {m.id: any(k.startswith("new:") for k in ks[m.id].killers) for m in mutants}
    replay_new = {m.id: any(k.startswith("new:") for k in ks[m.id].killers) for m in mutants}
    fo_cache_path = game_dir / "build" / "regress-vs-check.json"
    fo_cache = json.loads(fo_cache_path.read_text()) if fo_cache_path.is_file() else {}
    jobs = []
    for m in mutants:
        if compiled[m.id] and not (replay_old[m.id] and replay_new[m.id]):
            for budget in (CHECK, REGRESS):
                key = f"{mutant_key(pages, m)}:{budget[0]}:{budget[1]}"
                if key not in fo_cache:
                    jobs.append((key, (game_dir, m, budget)))
    print(
        f"  {game_dir.name}: {len(mutants)} mutants, {len(jobs)} fuzz+oracle runs", file=sys.stderr
    )
    if jobs:
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork")) as pool:
            for (key, _), result in zip(
                jobs, pool.map(fuzz_oracle_kills, [j for _, j in jobs]), strict=True
            ):
                fo_cache[key] = result
        write_text_atomic(fo_cache_path, json.dumps(fo_cache, sort_keys=True))
    fo = {}
    for m in mutants:
        for budget in (CHECK, REGRESS):
            value = fo_cache.get(f"{mutant_key(pages, m)}:{budget[0]}:{budget[1]}")
            if value is not None:
                fo[(m.id, budget)] = bool(value)
    return Verdicts(compiled, replay_old, replay_new, fo, bool(old))


def row(game: str, label: str, mutants: list[Mutant], v: Verdicts) -> tuple[str, list[str]]:
    ids = [m.id for m in mutants if v.compiled[m.id]]

    def count(new: bool, budget: tuple[int, int]) -> set[str]:
        return {i for i in ids if v.kills(i, new, budget)}

    cb, rb = count(False, CHECK), count(False, REGRESS)
    ca, ra = count(True, CHECK), count(True, REGRESS)
    gap = sorted(ca - ra)
    before = [f"{len(cb)}", f"{len(rb & cb)}/{len(cb)}"] if v.has_old else ["-", "-"]
    cells = [
        game,
        label,
        str(len(ids)),
        *before,
        f"{len(ca)}",
        f"{len(ra & ca)}/{len(ca)}",
        f"{sum(v.replay_new[i] for i in ids)}",
    ]
    return "| " + " | ".join(cells) + " |", gap


def merge_rows(
    text: str, start: str, end: str, lines: list[str], gaps: list[str]
) -> tuple[list[str], list[str]]:
    """``lines`` (table) and ``gaps`` with the rows of games not measured now kept from
    the section between ``start`` and ``end`` of ``text``, every row sorted by game."""
    if start not in text:
        return lines, gaps
    old = text[text.index(start) : text.index(end)].splitlines()
    measured = {row.split("|")[1].strip() for row in lines[2:]}
    kept = [r for r in old if r.startswith("| ") and r.split("|")[1].strip() not in measured]
    kept = [r for r in kept if not r.startswith("| game |")]
    old_gaps = [g for g in old if g.startswith("- ") and g[2:].split(" ")[0] not in measured]
    rows = sorted([*lines[2:], *kept], key=lambda r: r.split("|")[1].strip())
    return [*lines[:2], *rows], sorted([*gaps, *old_gaps])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path)
    parser.add_argument("--before", required=True, help="git revision with the old traces")
    parser.add_argument("-j", "--workers", type=int, default=2)
    parser.add_argument("--sample", type=int, default=0, help="operator mutants per game (0: all)")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--after-only",
        action="store_true",
        help="every operator mutant, current traces only (answers cached by the recording)",
    )
    args = parser.parse_args()
    dirs = args.games or sorted(p.parent for p in (ROOT / "corpora").glob("*/game.toml"))
    lines = [
        "| game | set | mutants | check kills (before) | regress kills of those (before) "
        "| check kills (after) | regress kills of those (after) | replay alone kills (after) |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    gaps: list[str] = []
    for game_dir in dirs:
        name = open_workspace(game_dir).config().name
        operators = rule_mutants(game_dir)
        if args.sample and args.sample < len(operators) and not args.after_only:
            keep = sorted(random.Random(0).sample(range(len(operators)), args.sample))
            operators = [operators[i] for i in keep]
        try:
            listed = listed_mutants(LISTED, name, read_pages(game_dir / "pages"))
        except BadInputError as exc:  # the pages moved on: say so, measure the rest
            print(f"warning: {exc}", file=sys.stderr)
            listed = []
        old = {} if args.after_only else traces_at(args.before, game_dir)
        v = measure(game_dir, operators + listed, old, args.workers)
        for label, ms in (("operators", operators), ("listed", listed)):
            text, gap = row(name, label, ms, v)
            lines.append(text)
            gaps += [f"- {name} ({label}): `{g}`" for g in gap]
            print(text)
    mode = "-all" if args.after_only else ""
    start, end = MARK.format(mode, "start"), MARK.format(mode, "end")
    if args.games:  # some games measured: keep the other games' rows of the last table
        lines, gaps = merge_rows(REPORT.read_text(encoding="utf-8"), start, end, lines, gaps)
    sampled = args.sample and not args.after_only
    command = "python scripts/regress_vs_check.py --before " + args.before
    command += (
        " --after-only" if args.after_only else (f" --sample {args.sample}" if sampled else "")
    )
    title = "every operator mutant, current traces" if args.after_only else "before and after"
    section = [
        start,
        f"### `regress` against `check`: {title}",
        "",
        (
            ""
            if args.after_only
            else f"Golden traces before: revision `{args.before}` (recorded by seed); after: "
        )
        + ("The current" if args.after_only else "the current")
        + " ones (chosen for coverage by `scripts/record_golden_traces.py`). "
        "`check`: replay, fuzz 1000, oracle 200; `regress`: replay, fuzz 100, oracle 20; seed 0 "
        "for both. *operators*: compiled mutants of `rulebook2game.mutate` not reviewed as "
        "equivalent"
        + (f" (a seeded sample of {args.sample} per game)" if sampled else " (all)")
        + "; *listed*: the hand-written mutants of `evals/mutants/semantic.toml` (all). "
        f"Reproduce: `{command}`.",
        "",
        *lines,
        "",
        "Mutants `check` kills and `regress` does not (after): " + ("none." if not gaps else ""),
        *gaps,
        end,
    ]
    print("\n".join(section))
    if not args.no_write:
        text = REPORT.read_text(encoding="utf-8")
        if start in text:
            text = (
                text[: text.index(start)] + "\n".join(section) + text[text.index(end) + len(end) :]
            )
        else:
            text = text.rstrip("\n") + "\n\n" + "\n".join(section) + "\n"
        REPORT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
