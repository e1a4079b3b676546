"""List the calls LLVM left out of an optimized build's playout loop, and why.

    python evals/inline_remarks.py corpora/rulepage/hearts/build/rulepage/build/rl-optimized-*

Each BUILD is an optimized build folder (``wrapper.py``, ``src/``). Its library is
compiled again, to LLVM IR thrown away, with the command its wrapper's header records
(so with the runtime and generated files it names as they are now) plus LLVM's
``--pass-remarks-missed=inline`` (rlc hands LLVM's options to LLVM). The misses into the
loop's functions are printed, names shortened: ``r2g_playouts`` and the slot and typed
steps, or, for a RulePage game with slots, the steps it plays itself
(``r2g_slot_play``, which the loop then calls instead). "threshold=45" is LLVM's budget
for a call it takes for a cold one (a call deep in rarely taken branches), whatever
budget the build asks for: ``evals/reports/2026-11-29-slot-play.md`` found Hearts'
actions left out that way.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
from collections import Counter
from pathlib import Path

from rulebook2game.targets.rulepage.compile import SLOT_DRAW

SLOT_DRAW_FILE = Path(SLOT_DRAW).name

LOOP_FUNCTIONS = ("r2g_playouts", "r2g_slot_step", "r2g_typed_step")
"""The functions whose callees make the playout loop's speed."""
SLOT_PLAY_FUNCTIONS = ("r2g_playouts", "r2g_slot_play")
"""The same for a game that plays its steps itself (the loop calls neither step)."""


def build_command(build: Path) -> list[str]:
    """The library's compile command from the wrapper's header (its third line), made to
    write IR to nowhere instead of the library."""
    line = (build / "wrapper.py").read_text(encoding="utf-8").splitlines()[2]
    cmd = shlex.split(line.lstrip("#").strip())
    out = cmd.index("-o")
    kept = [part for part in cmd[:out] + cmd[out + 2 :] if part not in ("--shared", "--pylib")]
    return [*kept, "--ir", "-o", "/dev/null"]


def missed(build: Path) -> Counter[str]:
    """Each remark of a call not inlined into a loop function, names shortened (the
    types after ``__`` dropped), with how many times it was made."""
    cmd = [*build_command(build), "--pass-remarks-missed=inline"]
    done = subprocess.run(cmd, cwd=build / "src", capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{build}: the compile failed\n{done.stderr[-2000:]}")
    plays = any(Path(part).name == SLOT_DRAW_FILE for part in cmd)
    functions = SLOT_PLAY_FUNCTIONS if plays else LOOP_FUNCTIONS
    found: Counter[str] = Counter()
    for line in done.stderr.splitlines():
        text = line.split(": ", 2)[-1] if line.startswith("remark:") else ""
        into = re.search(r"into '(rl_\w+?)__", text)
        if into and into.group(1).removeprefix("rl_").startswith(functions):
            found[re.sub(r"__\w*'", "'", text)] += 1
    return found


def main() -> None:
    """Print each build's misses on the playout path, or that there are none."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", type=Path, nargs="+", metavar="BUILD")
    builds = parser.parse_args().builds
    for build in builds:
        if not (build / "wrapper.py").is_file():
            raise SystemExit(f"{build}: not a build folder (no wrapper.py)")
    for build in builds:
        found = missed(build)
        print(f"{build}:")
        for text, count in sorted(found.items()):
            print(f"{count:>5}  {text}")
        if not found:
            print("       every call on the playout path is inlined")


if __name__ == "__main__":
    main()
