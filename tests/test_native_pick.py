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
from rulebook2game.targets.rulepage.compile import generated_workspace, lower_workspace, slot_draw
from rulebook2game.workspace import open_workspace
from tests.rl_support import game_copy

LCG_MULTIPLIER = str(6364136223846793005)
"""The generator's multiplier as LLVM prints an i64 constant."""


def _ir(root: Path, pages: list[str]) -> str:
    """The optimized IR of ``pages`` (paths relative to ``root``) and the runtime."""
    tools = find_toolchain()
    runtime = [str(RUNTIME_DIR / name) for name in RUNTIME_FILES]
    flags = optimized_flags(tools, [root / page for page in pages])
    cmd = [str(tools.rlc), *pages, *runtime, str(tools.learn_rl), "--ir", *flags]
    cmd += ["-i", "pages", "-i", str(RUNTIME_DIR)]
    done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _body(ir: str, function: str) -> str:
    """The body of the function whose name starts with ``function``."""
    found = re.search(rf"^define [^\n]*@{function}.*?^}}", ir, re.M | re.S)
    assert found is not None, f"no {function} in the IR"
    return found.group(0)


def _loop_ir(game: Path) -> str:
    """The body of ``r2g_playouts`` in the optimized IR of ``game``'s pages and the runtime."""
    pages = [p.relative_to(game).as_posix() for p in sorted((game / "pages").glob("*.rl"))]
    return _body(_ir(game, pages), "rl_r2g_playouts__")


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


def test_rulepage_steps_are_one_function_with_every_action_compiled_in(tmp_path: Path) -> None:
    # The RulePage target writes a game with slots its own playout steps
    # (``r2g_slot_play``): the loop hands it each playout, and every action's method,
    # applied after the draws, is compiled into it. Applied where each draw was found,
    # deep in the draws' tests, Hearts' play and pass_card stayed calls (LLVM took the
    # call for a cold one), and a draw called once a step was too big to be inlined into
    # the loop: 1.22x fewer playouts a second
    # (evals/reports/2026-11-29-slot-play.md).
    ws = open_workspace(game_copy(CORPORA_DIR / "rulepage" / "hearts", tmp_path))
    lowered = lower_workspace(ws)
    assert not isinstance(lowered, list), lowered
    generated = generated_workspace(ws, lowered.source)
    draw = slot_draw(generated, lowered)
    assert draw is not None
    pages = ["pages/generated.rl", draw.relative_to(generated.root).as_posix()]
    ir = _ir(generated.root, pages)
    body = _body(ir, "rl_r2g_slot_play__")
    called = _called(body)
    methods = ("rl_m_pass_direction__", "rl_m_deal__", "rl_m_pass_card__", "rl_m_play__")
    assert not [name for name in called if name.startswith(methods)], called
    assert not [name for name in called if name.startswith("rl_r2gp_")], called
    assert LCG_MULTIPLIER in body
    loop = _called(_body(ir, "rl_r2g_playouts__"))
    assert [name for name in loop if name.startswith("rl_r2g_slot_play__")], loop
