"""Run a game's native playout loop in this process, for a sampling profiler.

    python evals/profile_native.py corpora/hearts --seconds 3
    perf record -g -o hearts.data python evals/profile_native.py corpora/hearts
    perf report -i hearts.data --no-children --sort sym

The loop runs in the engine worker during ``bench`` and ``check``; here it runs in the
profiled process itself (the same optimized build, the same ``r2g_playouts`` call with
the build's resume points), so ``perf`` sees the rl functions by name. Prints the
playouts per second and how many entries the native loop tests at each resumption
point.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from rulebook2game.targets import get_target
from rulebook2game.targets.rl.worker_main import LoadedGame
from rulebook2game.workspace import open_workspace


def main() -> None:
    """Compile the optimized build of GAME_DIR and play random games for a while."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_dir", type=Path)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--batch", type=int, default=200)
    args = parser.parse_args()
    ws = open_workspace(args.game_dir)
    build = get_target(ws.config().target).compile(ws, optimized=True).build
    if build is None:
        raise SystemExit(f"{args.game_dir}: the pages do not compile")
    game = LoadedGame(build.directory / "wrapper.py")
    groups = Counter(game.points) if game.points else {"(whole table)": len(game.texts)}
    print(f"{ws.root.name}: {len(game.texts)} entries; tested per point: {dict(groups)}")
    played, seed = 0, 1
    started = time.process_time()
    while time.process_time() - started < args.seconds:
        game.op_playouts({"seed": seed, "count": args.batch, "aggregate": True})
        played, seed = played + args.batch, seed + 1
    print(f"{played / (time.process_time() - started):,.0f} playouts/s")


if __name__ == "__main__":
    main()
