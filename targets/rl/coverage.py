"""Line coverage of rule pages: a build whose statements report that they ran.

rlc has no coverage option, so the coverage build inserts a probe before every
statement of the staged pages (the copy rlc compiles, see
:mod:`rulebook2game.targets.rl.compile`): ``r2g_cov_hit(K)``, an ``ext fun`` defined in
a small C file linked into the library, which sets byte ``K`` of the table
``r2g_cov_table``. The worker reads and clears the table on request
(``{"op": "coverage"}``), so a check can ask which page lines ran during a walk or
during one step.

A probe can stand where a statement can: in the body of a function or an action,
not in a class's field list, not before ``else`` or as a child of ``actions:`` (an
``act`` there is reached through its body, whose lines are probed). The drawing
function ``pretty_print`` is not probed: no check needs it to run. Inserting lines
shifts the line numbers of the coverage build, so its probe table
(``coverage.json``) says for each probe the page file and the line as written; the
coverage build is for measuring only, and findings come from the checked build.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.targets.rl.lexical import code_of
from rulebook2game.targets.rl.toolchain import ToolchainError

HIT_FUNCTION = "r2g_cov_hit"
TABLE_SYMBOL = "r2g_cov_table"
TABLE_SIZE = 1 << 16
"""Probes a build may hold (one byte each)."""
PROBES_FILE = "coverage.json"
"""The probe table of a coverage build: ``{"probes": [[file, line], ...]}``."""

DECLARATION = f"ext fun {HIT_FUNCTION}(Int id)\n"
"""The rl side of the probe (a runtime file of coverage builds)."""
C_SOURCE = f"""\
#include <stdint.h>
unsigned char {TABLE_SYMBOL}[{TABLE_SIZE}];
void rl_{HIT_FUNCTION}__int64_t(const int64_t *id) {{
    {TABLE_SYMBOL}[(uint64_t)*id & {TABLE_SIZE - 1}u] = 1;
}}
"""
"""The probe and its table; rlc passes an ``Int`` argument of an ``ext fun`` by pointer."""

NOT_PROBED = frozenset({"pretty_print", "r2gp_show"})
"""Functions whose lines are neither probed nor counted: drawing only (``r2gp_show`` is
a RulePage page's ``show:`` block, lowered)."""

_FIRST_WORD = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)")
_FUN_NAME = re.compile(r"^fun\s+(?:<[^>]*>\s*)?([A-Za-z_][A-Za-z0-9_]*)")

_DECL = "decl"
_CODE = "code"
_ACTIONS = "actions"
_SKIP = "skip"


@dataclass(frozen=True)
class Instrumented:
    """A page with probes: the new text and, per probe in order, its line as written."""

    text: str
    lines: tuple[int, ...]
    """1-based line of the page (as written) that each probe stands before."""


def _depth_change(code: str) -> int:
    return sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")


def _opens(parent: str, stripped: str) -> str:
    """The kind of block a line opens, given the kind of block it sits in."""
    word_match = _FIRST_WORD.match(stripped)
    word = word_match.group(1) if word_match else ""
    if parent == _SKIP:
        return _SKIP
    if word == "fun":
        name = _FUN_NAME.match(stripped)
        return _SKIP if name and name.group(1) in NOT_PROBED else _CODE
    if parent == _DECL:
        return _CODE if word == "act" else _DECL
    if stripped.rstrip(":").strip() == "actions":
        return _ACTIONS
    return _CODE


def probe_lines(text: str) -> list[tuple[int, int]]:
    """``(line index, indentation)`` of every statement a probe can stand before."""
    stack: list[tuple[int, str]] = [(-1, _DECL)]
    found: list[tuple[int, int]] = []
    depth = 0
    for i, line in enumerate(text.split("\n")):
        code = code_of(line.expandtabs(4))
        if not code.strip():
            continue
        if depth > 0:
            depth = max(depth + _depth_change(code), 0)
            continue
        indent = len(code) - len(code.lstrip())
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        stripped = code.strip()
        if parent == _CODE and not stripped.startswith("else") and not stripped.startswith("@"):
            found.append((i, indent))
        stack.append((indent, _opens(parent, stripped)))
        depth = max(_depth_change(code), 0)
    return found


def instrument(text: str, first_id: int) -> Instrumented:
    """``text`` with ``r2g_cov_hit(ID)`` before each statement, ids from ``first_id``."""
    lines = text.split("\n")
    at = dict(probe_lines(text))
    out: list[str] = []
    written: list[int] = []
    for i, line in enumerate(lines):
        if i in at:
            lead = line[: len(line) - len(line.lstrip())]
            out.append(f"{lead}{HIT_FUNCTION}({first_id + len(written)})")
            written.append(i + 1)
        out.append(line)
    return Instrumented("\n".join(out), tuple(written))


def executable_lines(text: str) -> list[int]:
    """The 1-based lines of a page that a coverage build probes."""
    return [i + 1 for i, _ in probe_lines(text)]


def add_probes(work: Path, pages: list[str], source_dir: Path) -> list[str]:
    """Put probes into the staged ``pages`` under ``source_dir``; the extra rlc inputs.

    Writes the probe table (:data:`PROBES_FILE`) into ``work`` and returns the rl file
    declaring the probe and the object file defining it, both to be compiled with the
    pages.

    Raises:
        ToolchainError: no C compiler to build the probe's table.
    """
    probes: list[list[object]] = []
    for page in pages:
        path = source_dir / page
        done = instrument(path.read_text(encoding="utf-8"), len(probes))
        if len(probes) + len(done.lines) > TABLE_SIZE:
            raise ToolchainError(f"more than {TABLE_SIZE} statements: no coverage build")
        path.write_text(done.text, encoding="utf-8")
        probes.extend([page, line] for line in done.lines)
    (work / PROBES_FILE).write_text(json.dumps({"probes": probes}) + "\n", encoding="utf-8")
    declaration = work / "r2g_coverage.rl"
    declaration.write_text(DECLARATION, encoding="utf-8")
    c_file, obj = work / "r2g_coverage.c", work / "r2g_coverage.o"
    c_file.write_text(C_SOURCE, encoding="utf-8")
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise ToolchainError("a coverage build needs a C compiler (cc or gcc)")
    made = subprocess.run(
        [compiler, "-O2", "-fPIC", "-c", str(c_file), "-o", str(obj)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if made.returncode != 0:
        raise ToolchainError(f"cannot compile the coverage table: {made.stderr.strip()[:300]}")
    return [str(declaration), str(obj)]


def read_probes(build_dir: Path) -> tuple[tuple[str, int], ...]:
    """The probe table of a coverage build: (page file, line as written) per probe id."""
    data = json.loads((build_dir / PROBES_FILE).read_text(encoding="utf-8"))
    return tuple((str(f), int(n)) for f, n in data["probes"])
