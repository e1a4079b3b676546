"""Compare the native playout loops of two builds of one game, alternated in one process.

    python evals/ab_native.py BUILD_A BUILD_B --count 1000 --rounds 12

BUILD_A and BUILD_B are optimized build folders (``build/rl-optimized-*``, holding
``wrapper.py``, ``lib.so`` and ``resume_points.json``), for instance a copy of the
build made before a runtime change and the one made after. Each round plays the same
seeded batch on A, then on B, so both share the machine's load; the ratio of their CPU
times is the speed-up of B over A. On a shared machine this is steadier than two
``bench`` runs made minutes apart (about +-5% against +-25%).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from rulebook2game.targets.rl.worker_main import _load_module, table_points


class Loop:
    """One build's ``r2g_playouts``, with its action table and resume points."""

    def __init__(self, build: Path) -> None:
        self.m = _load_module(build / "wrapper.py")
        self.all = self.m.enumerate(self.m.AnyGameAction())
        texts = [str(self.all.get(i).contents).strip() for i in range(self.all.size())]
        points = table_points(build / "resume_points.json", texts)
        self.points: Any = self.m.wrappers["r2g_int_buffer"][0](len(points))
        for i, point in enumerate(points):
            self.points._data[i] = point
        self.playouts = self.m.wrappers["r2g_playouts"][0]

    def seconds(self, seed: int, count: int) -> float:
        """CPU seconds for ``count`` playouts from ``seed``."""
        ints, floats = self.m.VectorTint64_tT(), self.m.VectorTdoubleT()
        started = time.process_time()
        self.playouts(self.all, self.points, seed, count, 10_000, False, ints, floats)
        return time.process_time() - started


def main() -> None:
    """Alternate the two builds' loops and print playouts per second and B's speed-up."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_a", type=Path)
    parser.add_argument("build_b", type=Path)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args()
    a, b = Loop(args.build_a), Loop(args.build_b)
    time_a = time_b = 0.0
    for r in range(args.rounds):
        time_a += a.seconds(r + 1, args.count)
        time_b += b.seconds(r + 1, args.count)
    played = args.count * args.rounds
    print(
        f"A {played / time_a:,.0f} playouts/s  B {played / time_b:,.0f} playouts/s  "
        f"B/A speed-up {time_a / time_b:.2f}"
    )


if __name__ == "__main__":
    main()
