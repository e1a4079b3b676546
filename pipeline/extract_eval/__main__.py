"""``python -m rulebook2game.extract_eval``: the extraction score table.

Renders every fixture variant (reportlab and typst), extracts it, scores it against its
source and prints one row per variant plus the median milliseconds per page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

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
    failed = [r.variant.name for r in results if r.score.overall < args.threshold]
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


if __name__ == "__main__":
    sys.exit(main())
