"""Record the golden traces of corpus games, chosen for coverage, from their OpenSpiel oracle.

    python scripts/record_golden_traces.py                  # every corpus game
    python scripts/record_golden_traces.py corpora/pig      # some games
    python scripts/record_golden_traces.py --check          # exit 1 if a file would change

Per game, :data:`WALKS` seeded walks of the oracle named in game.toml are played under
every policy of ``rulebook2game.traces.walks`` (uniform; one action name preferred;
chance dealing its first or last outcome; one seat playing its last legal action and
the others their first). From those candidates a small set is kept by greedy set
cover (``rulebook2game.traces.search.choose``), in two rounds:

1. every ending signature (draw, or which seats got the best return, with the sum of
   the returns: a hearts moon shot by each seat is its own signature), every action
   kind and every argument value that any candidate reaches;
2. every mutant of the gold pages that the replay of some candidate kills. A mutant
   that no kept candidate kills is hunted through the next :data:`HUNT` finished walks,
   in seed order, until one kills it; that walk joins the candidates (pig's turn total starting
   at 1 is killed only by a game where player 0 holds a lucky first turn and later
   stands at exactly 99).

Why mutants stand in for line and branch coverage: the checked build of the pages is
native code that rlc generates, and per-line counters would need a second, instrumented
build that the checks never run. A trace that kills a mutant of a line has executed that
line *and* shown its effect in what replay compares (legal sets, chance outcomes, the
player to move, the end and the returns), which is the property the golden traces exist
for: a change of that line fails ``regress``. Mutants that no candidate kills are listed
in ``traces/selection.json``: code random play does not reach, or an edit with no
observable effect.

The walks are seeded, the selection deterministic, and mutant results are cached in
``GAME_DIR/build/trace-adequacy.json`` (by the hash of the mutated pages and of the
trace), so ``--check`` re-derives the selection in memory and compares the bytes of
every file; without the cache the first run compiles every mutant once (minutes, run
with ``nice``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulebook2game.oracle import load_oracle
from rulebook2game.traces.search import (
    SELECTION_FILE,
    choose,
    oracle_walks,
    rule_mutants,
    selection_record,
)
from rulebook2game.workspace import open_workspace

ROOT = Path(__file__).resolve().parent.parent
WALKS = 3000
"""Seeded walks per game (cheap: OpenSpiel plays them in seconds)."""
MAX_TRACES = 16
"""Most traces kept per game: hearts needs 14 for every mutant some walk kills (12 left two
that hunted walks kill uncovered); the other games stop below 8, everything covered."""
HUNT = 600
"""Reserve walks replayed, at most, through each mutant no kept candidate kills."""
WORKERS = 1


def golden_files(game_dir: Path, *, workers: int = WORKERS) -> dict[str, str]:
    """File name -> text of every file of ``traces/`` (kept traces and selection.json)."""
    config = open_workspace(game_dir).config()
    if config.oracle is None:
        raise SystemExit(f"{game_dir}: game.toml names no oracle")
    engine = load_oracle(config.oracle, game_dir)
    limit = config.max_game_length or 10_000
    candidates, reserve = oracle_walks(engine, game=config.name, walks=WALKS, max_steps=limit)
    mutants = rule_mutants(game_dir)

    seen = [0]

    def progress(_kills: object) -> None:
        seen[0] += 1
        if seen[0] % 50 == 0:
            print(f"  {config.name}: {seen[0]}/{len(mutants)} mutants", file=sys.stderr)

    choice = choose(
        candidates,
        game_dir=game_dir,
        mutants=mutants,
        max_traces=MAX_TRACES,
        cache=game_dir / "build" / "trace-adequacy.json",
        workers=workers,
        on_mutant=progress,
        reserve=reserve,
        hunt_limit=HUNT,
    )
    out = {
        f"{p.candidate.name}.jsonl": p.candidate.trace.to_jsonl() for p in choice.selection.picks
    }
    out[SELECTION_FILE] = selection_record(
        choice, game=config.name, source=config.oracle, walks=WALKS
    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path, help="game directories (default: all)")
    parser.add_argument("--check", action="store_true", help="only report changed files")
    parser.add_argument("-j", "--workers", type=int, default=WORKERS, help="mutant workers")
    args = parser.parse_args()
    dirs = args.games or sorted(p.parent for p in (ROOT / "corpora").glob("*/game.toml"))
    changed = 0
    for game in dirs:
        files = golden_files(game, workers=args.workers)
        folder = game / "traces"
        stale = [p for p in sorted(folder.glob("*.jsonl")) if p.name not in files]
        if args.check:
            for name, text in files.items():
                path = folder / name
                if not path.is_file() or path.read_text(encoding="utf-8") != text:
                    print(f"changed: {path}")
                    changed += 1
            for path in stale:
                print(f"not selected: {path}")
                changed += 1
            continue
        folder.mkdir(parents=True, exist_ok=True)
        for path in stale:
            path.unlink()
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        print(f"{game.name}: {len(files) - 1} traces -> {folder}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
