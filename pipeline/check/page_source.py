"""What a rule page declares, read from its source: header, actions, functions, calls.

Enough of rl is understood to point a finding at pages: the header comment
(``# page:`` / ``# implements:``), every action statement ``act NAME(...)`` with the
functions its precondition calls and the functions its effect calls (the statements
that follow it up to the next action or the end of its block), and every function
and method definition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.page_header import header_fields, parse_page_header, split_citations
from rulebook2game.targets.rl.lexical import code_of
from rulebook2game.targets.rl.names import canonical_name

_ACT = re.compile(r"^(\s*)(?:act|offer|require|on)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(")
"""An rl action statement, or a RulePage ``offer``/``require``/``on`` clause."""
_WHEN = re.compile(r"\)\s*when\s+(.*)$")
_HOOK_CLAUSES = (
    (re.compile(r"^returns\s*\("), "score"),
    (re.compile(r"^end\s+when\b"), "score"),
    (re.compile(r"^(?:player\s*:|chance\s+when\b)"), "get_current_player"),
    (re.compile(r"^slots\s"), "r2g_candidate_at"),
)
"""RulePage clauses that play the part of an rl hook (to name their page in a finding)."""
_CODE_INDENT = 4
"""In a RulePage page, functions of a ``code:`` block sit at this indentation."""
_FUN = re.compile(r"^(\s*)fun\s+(?:<[^>]*>\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_CALL = re.compile(r"(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_METHOD_CALL = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_NOT_CALLS = frozenset({"if", "while", "for", "return", "and", "or", "not", "act", "fun", "can"})


@dataclass(frozen=True)
class ActionDecl:
    """One ``act NAME(...)`` statement of a page."""

    name: str
    line: int
    precondition_calls: tuple[str, ...]
    effect_calls: tuple[str, ...]
    """Names called after the action (``.name`` for methods)."""


@dataclass(frozen=True)
class PageInfo:
    """What the index knows about one page."""

    name: str
    path: Path
    title: str
    sections: tuple[str, ...]
    actions: tuple[tuple[str, int], ...]
    """(action name, line) of every ``act`` declaration in the page."""
    functions: tuple[tuple[str, int], ...] = ()
    """(function name, line) of every top-level ``fun`` definition in the page."""
    methods: tuple[tuple[str, int], ...] = ()
    """(method name, line) of every ``fun`` defined inside a class or enum."""
    declarations: tuple[ActionDecl, ...] = ()


parse_header = header_fields
"""The ``# key: value`` lines of the leading comment block of a page."""

parse_section_ids = split_citations
"""``"4.1, 4.2#3"`` -> ``("4.1", "4.2#3")`` (section ids, in order, no repeats)."""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _calls(text: str) -> list[str]:
    found = [m.group(1) for m in _CALL.finditer(text) if m.group(1) not in _NOT_CALLS]
    found += ["." + m.group(1) for m in _METHOD_CALL.finditer(text)]
    return list(dict.fromkeys(found))


def _statement_end(lines: list[str], start: int) -> int:
    depth = 0
    for j in range(start, len(lines)):
        depth += sum(lines[j].count(c) for c in "([{") - sum(lines[j].count(c) for c in ")]}")
        if depth <= 0:
            return j
    return len(lines) - 1


def _declaration(lines: list[str], i: int, name: str) -> ActionDecl:
    """The action at line ``i``: its precondition's calls and its effect's calls."""
    end = _statement_end(lines, i)
    statement = " ".join(lines[i : end + 1])
    params_close = _matching(statement, statement.index("("))
    brace = statement.find("{", params_close)
    pre = statement[brace + 1 : statement.rfind("}")] if brace >= 0 else ""
    when = _WHEN.search(statement)
    if brace < 0 and when is not None:  # a RulePage offer or require
        pre = when.group(1)
    indent = _indent(lines[i])
    body: list[str] = []
    for line in lines[end + 1 :]:
        if not line.strip():
            continue
        if _indent(line) < indent or _ACT.match(line):
            break
        body.append(line)
    return ActionDecl(name, i + 1, tuple(_calls(pre)), tuple(_calls(" ".join(body))))


def _matching(text: str, open_at: int) -> int:
    depth = 0
    for k in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            return k
    return len(text) - 1


def read_page_info(path: Path) -> PageInfo:
    """Read one page's header, actions, functions and methods."""
    source = path.read_text(encoding="utf-8", errors="replace")
    header = header_fields(source)
    lines = [code_of(line) for line in source.splitlines()]
    declarations: list[ActionDecl] = []
    functions: list[tuple[str, int]] = []
    methods: list[tuple[str, int]] = []
    rulepage = path.suffix == ".page"
    for i, line in enumerate(lines):
        if rulepage:
            functions += [(hook, i + 1) for pattern, hook in _HOOK_CLAUSES if pattern.match(line)]
        act = _ACT.match(line)
        # `act NAME(...) -> Type:` declares an action function, not an action.
        if act and "->" not in line:
            # `act pass_()` declares the action `pass()`: findings name canonical actions
            declarations.append(_declaration(lines, i, canonical_name(act.group(2))))
        fun = _FUN.match(line)
        if fun:
            top = not fun.group(1) or (rulepage and len(fun.group(1)) <= _CODE_INDENT)
            (functions if top else methods).append((fun.group(2), i + 1))
    return PageInfo(
        name=path.stem,
        path=path,
        title=header.get("page", path.stem),
        sections=parse_page_header(source).cites,
        actions=tuple((d.name, d.line) for d in declarations),
        functions=tuple(functions),
        methods=tuple(methods),
        declarations=tuple(declarations),
    )
