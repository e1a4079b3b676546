"""``python -m rulebook2game.extract_eval``: the extraction score table.

Renders every fixture variant (reportlab and typst), extracts it, scores it against its
source and prints one row per variant plus the median milliseconds per page; then reads
the long groff fixtures kept under ``tests/data/extract/long/`` and counts their ledger
errors (figure rows as sentences, spliced, split and misfiled sentences, wrong sections
and roles), which must all be 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from rulebook2game.extract_eval.long_score import LongResult, run_long
from rulebook2game.extract_eval.run import Result, median_page_ms, run_all
from rulebook2game.extract_eval.variants import VARIANTS, variant


def main(argv: list[str] | None = None) -> int:
    """Run the evaluation; exit status 1 when a variant scores below ``--threshold``."""
    parser = argparse.ArgumentParser(prog="python -m rulebook2game.extract_eval")
    parser.add_argument("--variant", action="append", help="run only this variant (repeatable)")
    parser.add_argument("--tuned-only", action="store_true", help="leave out held-out variants")
    parser.add_argument("--keep", type=Path, help="write the PDFs and rulebook.json files here")
    parser.add_argument("--problems", action="store_true", help="list each variant's mismatches")
    parser.add_argument("--threshold", type=float, default=0.95)
    args = parser.parse_args(argv)
    chosen = [variant(n) for n in args.variant] if args.variant else list(VARIANTS)
    if args.tuned_only:
        chosen = [v for v in chosen if not v.held_out]
    console = Console(width=max(Console().width, 150))
    results = run_all(chosen, keep=args.keep)
    console.print(_table(results))
    tuned = [r for r in results if not r.variant.held_out]
    held = [r for r in results if r.variant.held_out]
    console.print(
        f"median ms/page over {sum(r.pages for r in results)} pages: "
        f"{median_page_ms(results):.0f} wall, {median_page_ms(results, cpu=True):.0f} cpu "
        f"(tuned {median_page_ms(tuned, cpu=True):.0f} cpu, "
        f"held-out {median_page_ms(held, cpu=True):.0f} cpu)"
    )
    if args.problems:
        for r in results:
            for problem in r.score.problems:
                console.print(f"[dim]{r.variant.name}:[/] {problem}", highlight=False)
    long_results = [] if args.variant else run_long()
    if long_results:
        console.print(_long_table(long_results))
        if args.problems:
            for lr in long_results:
                for problem in lr.score.problems:
                    console.print(f"[dim]{lr.book.name}:[/] {problem}", highlight=False)
    failed = [r.variant.name for r in results if r.score.overall < args.threshold]
    failed += [lr.book.name for lr in long_results if lr.score.errors]
    if failed:
        console.print(f"[red]below {args.threshold}:[/] {', '.join(failed)}")
    return 1 if failed else 0


_COLUMNS = (
    "variant", "engine", "pages", "sections", "order", "text", "kinds", "cells", "sentences",
    "overall", "ms/page", "cpu ms/page",
)  # fmt: skip


def _table(results: list[Result]) -> Table:
    table = Table(title="rulebook extraction scores (0..1)")
    for name in _COLUMNS:
        table.add_column(name, justify="left" if name in ("variant", "engine") else "right")
    for r in results:
        s = r.score
        style = "green" if s.overall >= 0.95 else "red"
        table.add_row(
            r.variant.name,
            r.variant.engine,
            str(r.pages),
            *(f"{v:.3f}" for v in (s.sections, s.order, s.text, s.kinds, s.cells, s.sentences)),
            f"[{style}]{s.overall:.3f}[/]",
            f"{sum(r.page_ms) / max(1, r.pages):.0f}",
            f"{sum(r.page_cpu_ms) / max(1, r.pages):.0f}",
        )
    return table


_LONG_COLUMNS = (
    "long fixture", "engine", "pages", "sentences", "exact", "figure rows", "spliced", "split",
    "misfiled", "wrong sections", "wrong roles", "cpu ms/page",
)  # fmt: skip


def _long_table(results: list[LongResult]) -> Table:
    table = Table(title="long rulebooks: ledger errors (all 0 when right)")
    for name in _LONG_COLUMNS:
        table.add_column(name, justify="left" if name in _LONG_COLUMNS[:2] else "right")
    for r in results:
        s = r.score
        errors = (s.figure_rows, s.spliced, s.split, s.misfiled, s.sections_wrong, s.roles_wrong)
        table.add_row(
            r.book.name,
            "groff",
            str(r.pages),
            str(s.expected),
            str(s.exact),
            *(f"[{'green' if e == 0 else 'red'}]{e}[/]" for e in errors),
            f"{r.cpu_ms_per_page:.0f}",
        )
    return table


if __name__ == "__main__":
    sys.exit(main())
