"""A game's native playout loop against OpenSpiel C++, alternated in one process.

    python evals/openspiel_ratio.py corpora/hearts --rounds 20 --seconds 0.5

``bench`` times its rows one after the other, 3 s each, so on a shared machine a burst
of load during one row moves the ratio (Hearts read 7.3x and 11.1x in two runs a
minute apart). Here each round times the optimized build's ``r2g_playouts`` (as
``ab_native.py`` does) and then OpenSpiel's C++ loop with uniform random bots (as
``bench`` does, ``pyspiel.evaluate_bots``) for about ``--seconds`` of CPU each, so both
see the same load; prints each engine's playouts per CPU second over all rounds, the
median of the per-round ratios and their range.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from ab_native import Loop

from rulebook2game.bench import openspiel_name
from rulebook2game.targets import get_target
from rulebook2game.workspace import open_workspace


def main() -> None:
    """Alternate the native loop and OpenSpiel C++ and print their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_dir", type=Path)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=0.5)
    args = parser.parse_args()
    import pyspiel

    ws = open_workspace(args.game_dir)
    config = ws.config()
    if config.oracle is None:
        raise SystemExit(f"{args.game_dir}: game.toml names no OpenSpiel oracle")
    build = get_target(config.target).compile(ws, optimized=True).build
    if build is None:
        raise SystemExit(f"{args.game_dir}: the pages do not compile")
    loop = Loop(build.directory)
    game = pyspiel.load_game(openspiel_name(config.oracle))
    bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(game.num_players())]
    native = [0, 0.0]
    spiel = [0, 0.0]
    ratios = []
    batch = 200
    for r in range(args.rounds):
        played, spent = 0, 0.0
        while spent < args.seconds:
            spent += loop.seconds(r * 1000 + played, batch)
            played += batch
        native_rate = played / spent
        native[0], native[1] = native[0] + played, native[1] + spent
        games, started = 0, time.process_time()
        while time.process_time() - started < args.seconds:
            for _ in range(32):
                pyspiel.evaluate_bots(game.new_initial_state(), bots, r * 100_000 + games)
                games += 1
        took = time.process_time() - started
        spiel[0], spiel[1] = spiel[0] + games, spiel[1] + took
        ratios.append(native_rate / (games / took))
    print(
        f"{config.name}: native {native[0] / native[1]:,.0f} playouts/s, "
        f"openspiel c++ {spiel[0] / spiel[1]:,.0f} playouts/s, "
        f"ratio {native[0] / native[1] / (spiel[0] / spiel[1]):.1f}x "
        f"(per round: median {statistics.median(ratios):.1f}x, "
        f"{min(ratios):.1f}x to {max(ratios):.1f}x, {args.rounds} rounds)"
    )


if __name__ == "__main__":
    main()
