"""Render every fixture variant, extract it, score it and time it."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.extract import Rulebook, extract_rulebook, write_rulebook
from rulebook2game.extract_eval.score import Score, score
from rulebook2game.extract_eval.variants import Variant


@dataclass(frozen=True)
class Result:
    """One variant's extraction: its score, size and speed."""

    variant: Variant
    score: Score
    pages: int
    page_ms: tuple[float, ...]
    """Wall-clock milliseconds per page: each page's reading time plus an equal share of
    the document-level stages."""
    page_cpu_ms: tuple[float, ...]
    """The same in CPU time of this process, which other load on the machine does not inflate."""
    rulebook: Rulebook


def run_variant(variant: Variant, directory: Path) -> Result:
    """Render ``variant`` into ``directory``, extract and score it."""
    pdf = variant.render(directory)
    marks: list[tuple[float, float]] = []

    def mark(done: int, total: int) -> None:
        marks.append((time.perf_counter(), time.process_time()))

    start = (time.perf_counter(), time.process_time())
    rulebook = extract_rulebook(pdf, progress=mark)
    end = (time.perf_counter(), time.process_time())
    write_rulebook(rulebook, directory / f"{variant.name}.json")
    return Result(
        variant,
        score(variant.book, rulebook),
        len(marks),
        _per_page([m[0] for m in marks], start[0], end[0]),
        _per_page([m[1] for m in marks], start[1], end[1]),
        rulebook,
    )


def _per_page(marks: list[float], start: float, end: float) -> tuple[float, ...]:
    reads = [b - a for a, b in zip([start, *marks], marks, strict=False)]
    share = (end - (marks[-1] if marks else start)) / max(1, len(reads))
    return tuple(1000 * (r + share) for r in reads)


def run_all(variants: Iterable[Variant], keep: Path | None = None) -> list[Result]:
    """Run ``variants`` in a temporary directory (or in ``keep``, which is left in place)."""
    variants = list(variants)
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        return _run(variants, keep)
    with tempfile.TemporaryDirectory(prefix="rb2g-extract-eval-") as tmp:
        return _run(variants, Path(tmp))


def _run(variants: list[Variant], directory: Path) -> list[Result]:
    if variants:  # the first extraction pays for imports and caches; keep it off the clock
        run_variant(variants[0], directory)
    return [run_variant(v, directory) for v in variants]


def median_page_ms(results: Iterable[Result], cpu: bool = False) -> float:
    """Median milliseconds per page (wall clock, or CPU time) over every page of ``results``."""
    values = [ms for r in results for ms in (r.page_cpu_ms if cpu else r.page_ms)]
    return statistics.median(values) if values else 0.0
