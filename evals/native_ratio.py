"""Native playouts/s of two or more builds of each game, measured alternately, and ratios.

    python evals/native_ratio.py corpora corpora/rulepage --rounds 3 --seconds 1.5

For every game found in every corpus folder given, runs ``profile_native.py`` (the -O2
build's native loop in a fresh process, CPU time) on each folder's game in turn,
``--rounds`` times, so that all see the same load of a shared machine; prints each
folder's median and the ratio of the first folder's median to each other's. The
builds are compiled (or taken from the cache) before the timed rounds.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

PROFILE = Path(__file__).with_name("profile_native.py")
RATE = re.compile(r"^([\d,]+) playouts/s$", re.MULTILINE)


def rate(game: Path, seconds: float) -> float:
    """One run's playouts/s."""
    out = subprocess.run(
        [sys.executable, str(PROFILE), str(game), "--seconds", str(seconds)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = RATE.search(out)
    if found is None:
        raise SystemExit(f"{game}: no rate in {out!r}")
    return float(found.group(1).replace(",", ""))


def main() -> None:
    """Measure every game of both folders alternately and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--games", nargs="*", default=None)
    args = parser.parse_args()
    first, others = args.folders[0], args.folders[1:]
    if not others:
        raise SystemExit("give at least two corpus folders")
    names = sorted(
        p.parent.name
        for p in first.glob("*/game.toml")
        if all((o / p.parent.name / "game.toml").is_file() for o in others)
    )
    if args.games:
        names = [n for n in names if n in args.games]
    heads = [str(f) for f in args.folders] + [f"{first} / {o}" for o in others]
    print("| game | " + " | ".join(heads) + " |")
    print("|---" * (len(heads) + 1) + "|")
    for name in names:
        games = [f / name for f in args.folders]
        for game in games:  # compile outside the timed rounds
            rate(game, 0.1)
        runs: list[list[float]] = [[] for _ in games]
        for _ in range(args.rounds):
            for side, game in enumerate(games):
                runs[side].append(rate(game, args.seconds))
        medians = [statistics.median(r) for r in runs]
        cells = [f"{m:,.0f}" for m in medians] + [f"{medians[0] / m:.2f}" for m in medians[1:]]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
