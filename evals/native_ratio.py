"""Native playouts/s of two builds of each game, measured alternately, and their ratio.

    python evals/native_ratio.py corpora corpora/rulepage --rounds 3 --seconds 1.5

For every game found in both corpus folders, runs ``profile_native.py`` (the -O2
build's native loop in a fresh process, CPU time) on the first folder's game, then on
the second's, ``--rounds`` times in turn, so that both see the same load of a shared
machine; prints each side's median and the ratio first / second. The builds are
compiled (or taken from the cache) before the timed rounds.
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
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--games", nargs="*", default=None)
    args = parser.parse_args()
    names = sorted(
        p.parent.name
        for p in args.first.glob("*/game.toml")
        if (args.second / p.parent.name / "game.toml").is_file()
    )
    if args.games:
        names = [n for n in names if n in args.games]
    print(f"| game | {args.first} | {args.second} | ratio |")
    print("|---|---|---|---|")
    for name in names:
        pair = (args.first / name, args.second / name)
        for game in pair:  # compile outside the timed rounds
            rate(game, 0.1)
        runs: tuple[list[float], list[float]] = ([], [])
        for _ in range(args.rounds):
            for side, game in enumerate(pair):
                runs[side].append(rate(game, args.seconds))
        a, b = (statistics.median(r) for r in runs)
        print(f"| {name} | {a:,.0f} | {b:,.0f} | {a / b:.2f} |", flush=True)


if __name__ == "__main__":
    main()
