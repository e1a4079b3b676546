"""Play a corpus game's gold rl pages and its OpenSpiel oracle in lockstep.

    python scripts/lockstep_gold.py corpora/pig [--games 300] [--seed 0]

Compiles ``GAME_DIR/pages`` with rlc (checked build: preconditions and bounds on)
into ``GAME_DIR/build/lockstep/``, drives it through ``rlc.Program`` and the oracle
through ``rulebook2game.oracle.load_oracle`` along seeded random trajectories, and
compares at every step: terminal flag, current player, legal set (as canonical
text), chance outcomes (rl chance is uniform over the legal chance actions) and,
at the end, the returns against rl's ``score``. Exit 0 when every game agrees.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

from rulebook2game.oracle import load_oracle
from rulebook2game.workspace import open_workspace

_RL_ACTION = re.compile(r"^\s*(\w+)\s*\{(.*)\}\s*$")


def stdlib_dir() -> Path:
    """The rl standard library shipped with rl_language_core."""
    rlc = shutil.which("rlc")
    candidates = [Path(sysconfig.get_paths()["data"]) / "lib" / "rlc" / "stdlib"]
    if rlc:
        candidates.append(Path(rlc).resolve().parent.parent / "lib" / "rlc" / "stdlib")
    for path in candidates:
        if (path / "learn.rl").is_file():
            return path
    sys.exit("cannot find the rl stdlib (is rl_language_core installed?)")


def compile_pages(game_dir: Path) -> Path:
    """Compile every page into build/lockstep; return the wrapper path."""
    pages = sorted((game_dir / "pages").glob("*.rl"))
    out = game_dir / "build" / "lockstep"
    out.mkdir(parents=True, exist_ok=True)
    std = stdlib_dir()
    sources = [str(p) for p in pages] + [str(std / "learn.rl")]
    common = ["-i", str(game_dir / "pages"), "-i", str(std)]
    for extra in (
        ["--python", "-o", str(out / "wrapper.py")],
        ["--shared", "--pylib", "-o", str(out / "lib.so")],
    ):
        done = subprocess.run(["rlc", *sources, *extra, *common], capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"rlc failed:\n{done.stderr}{done.stdout}")
    return out / "wrapper.py"


def canonical_of(rl_text: str) -> str:
    """``drop {col: 3}`` -> ``drop(col=3)``."""
    match = _RL_ACTION.match(rl_text)
    if match is None:
        raise ValueError(f"unexpected rl action text {rl_text!r}")
    body = match.group(2).strip()
    args = [p.split(":", 1) for p in body.split(",")] if body else []
    inner = ", ".join(f"{k.strip()}={v.strip()}" for k, v in args)
    return f"{match.group(1)}({inner})"


class RlSide:
    """The compiled gold pages, driven through rlc's Python wrapper."""

    def __init__(self, wrapper: Path) -> None:
        from rlc import Program

        self.program = Program(str(wrapper))
        self.module = self.program.module
        self.players = int(self.module.get_num_players())
        self._probe = self.program.start()  # owns the enumerated action vector
        self.actions = [(canonical_of(str(a)), a) for a in self._probe.actions]

    def start(self) -> Any:
        return self.module.play()

    def done(self, state: Any) -> bool:
        return bool(state.resume_index == -1)

    def player(self, state: Any) -> int:
        return int(self.module.get_current_player(state))

    def legal(self, state: Any) -> dict[str, Any]:
        return {t: a for t, a in self.actions if self.module.can_apply(a, state)}

    def returns(self, state: Any) -> list[float]:
        return [float(self.module.score(state, p)) for p in range(self.players)]


def play_one(rl: RlSide, oracle: Any, rng: random.Random, game: int) -> str | None:
    """One trajectory; the first disagreement, or None."""
    ours, theirs = rl.start(), oracle.initial()
    for t in range(100_000):
        where = f"game {game} step {t}"
        if rl.done(ours) != oracle.is_terminal(theirs):
            return f"{where}: terminal rl={rl.done(ours)} openspiel={oracle.is_terminal(theirs)}"
        if oracle.is_terminal(theirs):
            break
        p_rl, p_os = rl.player(ours), oracle.current_player(theirs)
        if p_rl != p_os:
            return f"{where}: player rl={p_rl} openspiel={p_os}"
        legal = rl.legal(ours)
        if p_os == -1:
            outcomes = oracle.chance_outcomes(theirs)
            want = sorted(a for a, _ in outcomes)
            uniform = 1.0 / len(outcomes)
            if any(not math.isclose(p, uniform, rel_tol=1e-9) for _, p in outcomes):
                return f"{where}: openspiel chance is not uniform: {outcomes}"
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            want = oracle.legal_actions(theirs)
            action = rng.choice(want)
        if sorted(legal) != want:
            missing = sorted(set(want) - set(legal))
            extra = sorted(set(legal) - set(want))
            return f"{where}: legal set differs: missing {missing[:6]} extra {extra[:6]}"
        rl.module.apply(legal[action], ours)
        theirs = oracle.apply(theirs, action)
    got, want_r = rl.returns(ours), oracle.returns(theirs)
    if any(not math.isclose(a, b, abs_tol=1e-9) for a, b in zip(got, want_r, strict=True)):
        return f"game {game} end: returns rl={got} openspiel={want_r}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_dir", type=Path)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    ws = open_workspace(args.game_dir)
    binding = ws.config().oracle
    if binding is None:
        sys.exit(f"{args.game_dir}: game.toml has no oracle")
    rl = RlSide(compile_pages(args.game_dir))
    oracle = load_oracle(binding)
    rng = random.Random(args.seed)
    failures = [f for g in range(args.games) if (f := play_one(rl, oracle, rng, g))]
    for failure in failures[:10]:
        print(failure)
    print(f"{ws.config().name}: {args.games - len(failures)}/{args.games} games agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
