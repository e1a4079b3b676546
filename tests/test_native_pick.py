"""The optimized playout loop keeps its draws inside the loop function.

``r2g_playouts`` (``targets/rl/runtime/r2g_runtime.rl``) draws from the action table in
its own body, so that the compiled loop holds the generator, the group and the game in
registers, and a group of one action type tests and applies each drawn entry with that
type's own ``can`` and ``apply``. That is where the loop's speed over the earlier shape
(an out-of-line ``r2g_pick`` and ``r2g_draw``, then a second dispatch to apply) comes
from; the draws themselves are checked elsewhere (``test_native_lockstep.py``). These
tests read the ``-O2`` LLVM IR that rlc emits for two corpus games and fail when the
draws leave the loop function: ``r2g_pick`` called instead of folded away, or the
generator stepped outside the loop.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.rl.compile import RUNTIME_DIR, RUNTIME_FILES, optimized_flags
from rulebook2game.targets.rl.toolchain import find_toolchain

LCG_MULTIPLIER = str(6364136223846793005)
"""The generator's multiplier as LLVM prints an i64 constant."""


def _loop_ir(game: Path) -> str:
    """The body of ``r2g_playouts`` in the optimized IR of ``game``'s pages and the runtime."""
    tools = find_toolchain()
    page_files = sorted((game / "pages").glob("*.rl"))
    pages = [p.relative_to(game).as_posix() for p in page_files]
    runtime = [str(RUNTIME_DIR / name) for name in RUNTIME_FILES]
    flags = optimized_flags(tools, page_files)
    cmd = [str(tools.rlc), *pages, *runtime, str(tools.learn_rl), "--ir", *flags]
    cmd += ["-i", "pages", "-i", str(RUNTIME_DIR)]
    done = subprocess.run(cmd, cwd=game, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r"^define [^\n]*@rl_r2g_playouts__.*?^}", done.stdout, re.M | re.S)
    assert found is not None, "no r2g_playouts in the IR"
    return found.group(0)


def _called(body: str) -> set[str]:
    return set(re.findall(r"call [^@\n]*@([\w.]+)\(", body))


@pytest.mark.parametrize("game", ["tic_tac_toe", "pig"])
def test_table_draws_are_compiled_into_the_loop(game: str) -> None:
    body = _loop_ir(CORPORA_DIR / game)
    called = _called(body)
    # Neither game lists its moves: r2g_pick is `return R2G_TABLE`, folded into the loop.
    assert not [name for name in called if name.startswith("rl_r2g_pick")], called
    assert not [name for name in called if name.startswith("rl_r2g_draw")], called
    # The generator steps inside the loop function (not in a called pick or `next`).
    assert LCG_MULTIPLIER in body
    assert not [name for name in called if name.startswith("rl_m_next__R2GRandom")], called
    # Only the fallback after every draw missed (scan, then one draw) is out of line.
    assert [name for name in called if name.startswith("rl_r2g_")] == [
        name for name in called if name.startswith(("rl_r2g_scanned", "rl_r2g_candidates"))
    ]


def test_slot_step_and_actions_are_compiled_into_the_loop() -> None:
    # With the optimized build's inlining budget (compile.INLINE_FLAGS), Hearts' step
    # among its candidate slots, and the actions it tests and applies, are part of the
    # loop function: with LLVM's default budget the step stayed a call of its own, and
    # the loop ran about 1.4x slower (evals/reports/2026-11-29-inline-budget.md).
    body = _loop_ir(CORPORA_DIR / "hearts")
    called = _called(body)
    assert not [name for name in called if name.startswith("rl_r2g_slot_step")], called
    assert not [name for name in called if name.startswith(("rl_can_play", "rl_play_card"))]
    assert LCG_MULTIPLIER in body
