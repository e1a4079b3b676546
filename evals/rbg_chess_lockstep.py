"""Walk RBG chess and its oracle in lockstep on many trajectories, and count what matters.

    python evals/rbg_chess_lockstep.py corpora/rbg/chess --trajectories 1000 --seed 0

Unlike ``check``'s oracle stage (whose odd runs replay the engine's own native games and
only ask whether the oracle accepts each chosen move), every trajectory here is a full
lockstep walk (:func:`rulebook2game.check.lockstep.walk`): at every state both engines
are asked the player to move, the whole legal set, the terminal flag and, at the end,
the returns. Even trajectories draw each move from the oracle's legal set, odd ones
from the engine's. The engine is the checked build, as in ``check``.

The oracle is the game directory's own (``oracle.toml``): OpenSpiel's chess with UCI
actions and no threefold-repetition draw (rules.md section 7). Each trajectory is also
replayed in OpenSpiel's unmodified chess, to count the trajectories that pass a
position OpenSpiel would have ended as a repetition draw, and the steps compared after
it. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel

from rulebook2game.check.lockstep import walk
from rulebook2game.oracle import load_oracle
from rulebook2game.targets.base import compile_and_start
from rulebook2game.workspace import open_workspace

FILES = "abcdefgh"
PROMOTED = "nbrq"
_ARGS = re.compile(r"(\w+)=(\d+)")


def uci(action: str, white: bool) -> str:
    """The UCI text of a canonical ``move(...)`` or ``promote(...)`` (White to move or not)."""
    args = {k: int(v) for k, v in _ARGS.findall(action)}
    if action.startswith("promote"):
        ranks = "78" if white else "21"
        return (
            f"{FILES[args['from_file']]}{ranks[0]}{FILES[args['to_file']]}{ranks[1]}"
            f"{PROMOTED[args['piece']]}"
        )
    return f"{FILES[args['from_file']]}{args['from_rank']}{FILES[args['to_file']]}{args['to_rank']}"


def replay(actions: tuple[str, ...]) -> tuple[int | None, int, str]:
    """Replay in OpenSpiel's unmodified chess: (the step after which it declares a
    repetition draw, or None; how many repetition draws the oracle passed; the end)."""
    game = pyspiel.load_game("chess")
    state = game.new_initial_state()
    first: int | None = None
    passed = 0
    for step, action in enumerate(actions, start=1):
        state.apply_action(state.parse_move_to_action(uci(action, state.current_player() == 1)))
        if state.is_terminal() and state.is_repetition_draw():
            first = step if first is None else first
            passed += 1
            state = game.new_initial_state(state.board().to_fen())
    if not state.is_terminal():
        return first, passed, "cut"
    return first, passed, "draw" if state.returns()[0] == 0 else "decisive"


def main() -> int:
    """Run the walks and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_dir", type=Path)
    parser.add_argument("--trajectories", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=20_000)
    args = parser.parse_args()
    ws = open_workspace(args.game_dir)
    config = ws.config()
    assert config.oracle is not None
    oracle: Any = load_oracle(config.oracle, ws.root)
    started = time.perf_counter()
    out: dict[str, Any] = {"trajectories": 0, "steps": 0, "disagreements": [], "ends": {}}
    reps = {"trajectories": 0, "passed": 0, "steps_after": 0}
    with compile_and_start(ws) as made:
        cand = made.engine
        if cand is None:
            print(made.error, file=sys.stderr)
            return 2
        for run in range(args.trajectories):
            rng = random.Random(f"{args.seed}:rbg-chess-lockstep:{run}")
            trajectory = walk(oracle, cand, rng, args.max_steps, run % 2 == 1)
            out["trajectories"] += 1
            out["steps"] += len(trajectory.actions)
            if trajectory.mismatch is not None:
                out["disagreements"].append(
                    {
                        "run": run,
                        "step": len(trajectory.actions),
                        "what": trajectory.mismatch.what,
                        "message": trajectory.mismatch.message,
                        "actions": list(trajectory.actions),
                    }
                )
                continue
            at, passed, end = replay(trajectory.actions)
            out["ends"][end] = out["ends"].get(end, 0) + 1
            if at is not None:
                reps["trajectories"] += 1
                reps["passed"] += passed
                reps["steps_after"] += len(trajectory.actions) - at
            if run % 50 == 49:
                print(
                    f"{run + 1} trajectories, {out['steps']} steps, "
                    f"{len(out['disagreements'])} disagreements",
                    file=sys.stderr,
                )
    out["repetition_draws_passed"] = reps
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out, indent=1))
    return 1 if out["disagreements"] else 0


if __name__ == "__main__":
    sys.exit(main())
