"""rl that ``rlc`` accepts but compiles to something else: refused before it runs.

- **A minus sign before a ``let`` variable.** With rl_language_core 0.4.18,
  ``let s = step`` followed by ``let t = -s``, ``s = -s``, ``3 * -s``, ``1 + -s`` or
  ``return -s`` gives 0 (or 1 for ``1 + -s``) instead of the negative number; other
  ``let`` variables come out right, so the fault is easy to miss. The pages compile and
  play, with a wrong direction or offset where the rules need a negative one (a trial
  translator's downward jumps took the wrong stone). ``0 - s`` and ``-(s)`` are right
  everywhere, as is the minus sign before a parameter, a ``frm`` variable, a field, a
  call or a constant. So every ``-name`` in unary position, where ``name`` is declared
  by ``let`` in the same function, is refused with the fix.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulebook2game.targets.rl.diagnostics import Diagnostic, page_diagnostic
from rulebook2game.targets.rl.lexical import code_of

_UNARY_NAME = re.compile(
    r"(?:^|[=(\[{,:+\-*/%<>!]|\breturn|\band|\bor|\bif|\bwhile)\s*"
    r"(?P<minus>-)\s*(?P<name>[a-z_][A-Za-z0-9_]*)\b(?!\s*[.(\[])"
)
_LET = re.compile(r"^\s*let\s+(?P<name>[A-Za-z_][A-Za-z0-9_]*)")
_DEFINITION = re.compile(r"^(?:\s*fun|act)\s")
"""Where the ``let`` variables of the definition before end: a function (or method),
or a top-level ``act`` (the actions inside ``play`` share its body)."""


def unary_minus_names(code: str) -> list[tuple[int, str]]:
    """(0-based column of the ``-``, the name) of each ``-name`` in unary position."""
    found = []
    for match in _UNARY_NAME.finditer(code):
        start = match.start("minus")
        if code[start : start + 2] == "->":
            continue  # a function's return type
        found.append((start, match.group("name")))
    return found


def trap_diagnostics(root: Path, pages: list[Path]) -> list[Diagnostic]:
    """One error per minus sign before a ``let`` variable in ``pages``."""
    out: list[Diagnostic] = []
    for page in pages:
        lines = page.read_text(encoding="utf-8", errors="replace").splitlines()
        local: set[str] = set()
        for number, line in enumerate(lines, start=1):
            code = code_of(line)
            if _DEFINITION.match(code):
                local = set()
            for column, name in unary_minus_names(code):
                if name not in local:
                    continue
                message = (
                    f"write `0 - {name}`, not `-{name}`: rlc can compile a minus sign before "
                    "a `let` variable to 0 (the line compiles and the game goes wrong)"
                )
                out.append(page_diagnostic(root, page, number, message, column + 1))
            declared = _LET.match(code)
            if declared:
                local.add(declared.group("name"))
    return out
