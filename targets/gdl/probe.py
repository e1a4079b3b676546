"""Ground a description in a child process under a time and memory bound, and describe it.

A GDL description whose terms grow without end (``(<= (next (s ?x)) (true ?x))``) makes
any grounder run until memory is gone. :func:`probe` therefore grounds the program once
in a child process with an address-space limit and a wall-clock deadline, and the
engine grounds it in the pipeline's process only after the probe finished within both.
The child prints one JSON object: the grounding time, the number of ground atoms, the
roles, each role's moves, the goal values that can occur and the ``input`` moves.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GROUND_SECONDS = 60.0
"""Wall-clock bound of one grounding."""
GROUND_BYTES = 2 << 30
"""Address-space bound of the grounding child (2 GiB)."""
MAX_ATOMS = 2_000_000
"""Ground atoms beyond which a description is refused (the engine would be too slow)."""


@dataclass(frozen=True)
class Probe:
    """What one grounding found, or why it failed."""

    ok: bool
    error: str | None = None
    seconds: float = 0.0
    atoms: int = 0
    roles: tuple[str, ...] = ()
    moves: dict[str, tuple[str, ...]] | None = None
    inputs: dict[str, tuple[str, ...]] | None = None
    goals: tuple[int | str, ...] = ()


def _limit(memory: int) -> None:  # runs in the child before exec
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def probe(program: Path, *, seconds: float = GROUND_SECONDS, memory: int = GROUND_BYTES) -> Probe:
    """Ground ``program`` (a clingo file written by :mod:`~rulebook2game.targets.gdl.asp`)."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rulebook2game.targets.gdl.probe", str(program)],
            capture_output=True,
            text=True,
            timeout=seconds,
            preexec_fn=lambda: _limit(memory),
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    except subprocess.TimeoutExpired:
        return Probe(
            False,
            f"grounding did not finish within {seconds:.0f} s (the bound): a term that grows "
            "without end, or a description too large to ground",
        )
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no message"])[-1]
        if "MemoryError" in done.stderr or "bad_alloc" in done.stderr or done.returncode < 0:
            return Probe(
                False,
                f"grounding ran out of its {memory >> 20} MiB memory bound: a term that grows "
                "without end, or a description too large to ground",
            )
        return Probe(False, f"grounding failed: {tail}")
    data = json.loads(done.stdout)
    if data.get("error"):
        return Probe(False, str(data["error"]))
    return Probe(
        True,
        None,
        float(data["seconds"]),
        int(data["atoms"]),
        tuple(data["roles"]),
        {k: tuple(v) for k, v in data["moves"].items()},
        {k: tuple(v) for k, v in data["inputs"].items()} if data["inputs"] else None,
        tuple(data["goals"]),
    )


def _describe(path: Path) -> dict[str, Any]:
    import clingo

    from rulebook2game.targets.gdl.reasoner import symbol_text

    names: dict[str, str] = json.loads(path.with_suffix(".names.json").read_text("utf-8"))
    started = time.perf_counter()
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], path.read_text(encoding="utf-8"))
    ctl.ground([("base", [])])
    seconds = time.perf_counter() - started
    atoms = ctl.symbolic_atoms
    if len(atoms) > MAX_ATOMS:
        return {"error": f"the grounding has {len(atoms)} atoms, over the bound of {MAX_ATOMS}"}
    roles = [symbol_text(a.symbol.arguments[0], names) for a in atoms.by_signature("g_role", 1)]
    moves: dict[str, list[str]] = {r: [] for r in roles}
    for a in atoms.by_signature("g_does", 2):
        role, move = (symbol_text(s, names) for s in a.symbol.arguments)
        moves.setdefault(role, []).append(move)
    inputs: dict[str, list[str]] = {}
    for a in atoms.by_signature("g_input", 2):
        if a.is_fact:
            role, move = (symbol_text(s, names) for s in a.symbol.arguments)
            inputs.setdefault(role, []).append(move)
    base = {symbol_text(a.symbol.arguments[0], names) for a in atoms.by_signature("g_base", 1)}
    if base:
        for a in atoms.by_signature("g_init", 1):
            text = symbol_text(a.symbol.arguments[0], names)
            if text not in base:
                return {"error": f"(init {text}) is not a base proposition (no (base {text}))"}
    goals = sorted(
        {symbol_text(a.symbol.arguments[1], names) for a in atoms.by_signature("x_goal", 2)}
    )
    return {
        "seconds": seconds,
        "atoms": len(atoms),
        "roles": roles,
        "moves": {k: sorted(v) for k, v in moves.items()},
        "inputs": {k: sorted(v) for k, v in inputs.items()},
        "goals": [int(g) if g.isdigit() else g for g in goals],
    }


if __name__ == "__main__":
    try:
        print(json.dumps(_describe(Path(sys.argv[1]))))
    except RuntimeError as exc:  # clingo's own parse or grounding error
        print(json.dumps({"error": f"clingo could not ground the description: {exc}"}))
