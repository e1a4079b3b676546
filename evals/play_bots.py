"""Search bot against random bots on every corpus game: win rates, returns, moves/s.

    python evals/play_bots.py [--games 100] [--seconds 0.1] [--simulations 500]
        [--bot search|ismcts] [--out evals/reports/bots]

``--bot ismcts`` plays OpenSpiel's information-set MCTS (:class:`ISMCTSBot`, a fixed
number of simulations per move, ``--seconds`` unused) instead of the search bot.

Two-player games: the search bot takes seat 0 in half of the games and seat 1 in the
other half; a win is a return above the opponent's. Games with more players (Hearts):
the search bot sits at seat ``g % players`` of game ``g``, the other seats play
randomly, and its mean return is compared with the random seats' mean return.
Writes ``OUT.json`` and ``OUT.md``; the same arguments give the same games.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import rulebook2game
from rulebook2game.bots import ISMCTSBot, RandomBot, SearchBot
from rulebook2game.resources import CORPORA_DIR


def play(
    game: rulebook2game.Game, seat: int, search: SearchBot | ISMCTSBot, rng: RandomBot
) -> dict[str, Any]:
    """One game; the search bot at ``seat``. Returns, its move count and think time."""
    state = game.new_initial_state()
    moves, thinking, longest, longest_cpu = 0, 0.0, 0.0, 0.0
    while not state.is_terminal():
        if state.current_player() == seat:
            started, cpu = time.perf_counter(), time.process_time()
            action = search.step(game, state)
            spent = time.perf_counter() - started
            moves, thinking, longest = moves + 1, thinking + spent, max(longest, spent)
            longest_cpu = max(longest_cpu, time.process_time() - cpu)
        else:
            action = rng.step(game, state)
        state.apply(action)
    return {
        "returns": state.returns(),
        "moves": moves,
        "seconds": thinking,
        "longest": longest,
        "longest_cpu": longest_cpu,
    }


def evaluate(
    name: str, games: int, seconds: float, simulations: int, bot: str = "search"
) -> dict[str, Any]:
    """``games`` games of one corpus game, search bot against random bots."""
    game = rulebook2game.load(CORPORA_DIR / name)
    players = game.num_players
    wins = draws = moves = 0
    thinking = longest = longest_cpu = 0.0
    mine: list[float] = []
    others: list[float] = []
    for g in range(games):
        seat = g % players
        search: SearchBot | ISMCTSBot = (
            ISMCTSBot(simulations=simulations, seed=g, trust=True)  # checked: loaded above
            if bot == "ismcts"
            else SearchBot(seconds=seconds, simulations=simulations, seed=g)
        )
        result = play(game, seat, search, RandomBot(seed=1000 + g))
        returns = result["returns"]
        mine.append(returns[seat])
        others.extend(r for p, r in enumerate(returns) if p != seat)
        best_other = max(r for p, r in enumerate(returns) if p != seat)
        wins += returns[seat] > best_other
        draws += returns[seat] == best_other
        moves += result["moves"]
        thinking += result["seconds"]
        longest = max(longest, result["longest"])
        longest_cpu = max(longest_cpu, result["longest_cpu"])
    return {
        "game": name,
        "bot": bot,
        "players": players,
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": wins / games,
        "search_mean_return": statistics.fmean(mine),
        "random_mean_return": statistics.fmean(others),
        "search_moves": moves,
        "moves_per_second": moves / thinking if thinking else 0.0,
        "mean_seconds_per_move": thinking / moves if moves else 0.0,
        "max_seconds_per_move": longest,
        "max_cpu_seconds_per_move": longest_cpu,
    }


def render(report: dict[str, Any]) -> str:
    """The Markdown table of a report."""
    lines = [
        "# Search bot against random bots",
        "",
        f"Command: `{report['command']}`  ",
        f"Machine: {report['machine']}; {report['seconds']:.0f} s in all.",
        "",
        "| game | bot | players | games | search wins | draws | win rate | search mean return "
        "| random mean return | s/move (mean / max) | max CPU s/move | moves/s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["results"]:
        lines.append(
            f"| {r['game']} | {r.get('bot', 'search')} "
            f"| {r['players']} | {r['games']} | {r['wins']} | {r['draws']} "
            f"| {r['win_rate']:.0%} | {r['search_mean_return']:.2f} "
            f"| {r['random_mean_return']:.2f} | {r['mean_seconds_per_move']:.3f} / "
            f"{r['max_seconds_per_move']:.3f} | {r['max_cpu_seconds_per_move']:.3f} "
            f"| {r['moves_per_second']:.1f} |"
        )
    lines += [
        "",
        "A win is a return above every other seat's. With more than two players (Hearts)",
        "the search bot plays one seat against three random seats; compare its mean return",
        "with the random seats' mean return. Think time is wall clock; the machine is shared,",
        "so the CPU time of the slowest move is shown beside the wall-clock one.",
    ]
    if any(r.get("bot", "search") == "search" for r in report["results"]):
        lines.append("The search bot stops searching at its time budget (`--seconds`).")
    if any(r.get("bot") == "ismcts" for r in report["results"]):
        lines += [
            "The ismcts bot (OpenSpiel's information-set MCTS) runs `--simulations`",
            "simulations per move; in a game without hidden information it is the search bot.",
        ]
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Play, then write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=0.1, help="think time per move")
    parser.add_argument("--simulations", type=int, default=500, help="most per move")
    parser.add_argument("--only", nargs="*", help="corpus games to play (default: all)")
    parser.add_argument("--bot", choices=("search", "ismcts"), default="search")
    parser.add_argument("--out", type=Path, default=Path("evals/reports/bots"))
    args = parser.parse_args(argv)
    names = args.only or sorted(p.parent.name for p in CORPORA_DIR.glob("*/game.toml"))
    started = time.perf_counter()
    results = []
    for name in names:
        results.append(evaluate(name, args.games, args.seconds, args.simulations, args.bot))
        print(json.dumps(results[-1]), flush=True)
    report = {
        "command": "python evals/play_bots.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "machine": f"{platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}",
        "seconds": time.perf_counter() - started,
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n")
    args.out.with_suffix(".md").write_text(render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
