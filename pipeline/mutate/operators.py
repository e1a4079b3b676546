"""Mutation operators on rl page source.

Each operator looks at a :class:`~rulebook2game.mutate.source.PageSource` and yields
:class:`Edit` records: replace lines ``[start, end)`` by new lines. Operators only
touch code (never comments, strings or the page header) and skip the definitions
named in ``skip`` (presentation-only functions such as ``pretty_print``).

| operator | what it does |
|---|---|
| ``cmp_flip`` | ``==``↔``!=``; ``<`` → ``>=``/``<=``; ``<=`` → ``>``/``<``; same for ``>``/``>=`` |
| ``bool_flip`` | ``and``↔``or``; ``true``↔``false`` |
| ``negate_cond`` | ``if C:`` / ``while C:`` → ``if !(C):`` / ``while !(C):`` |
| ``off_by_one`` | an integer literal ``n`` → ``n+1`` and ``n-1`` |
| ``delete_stmt`` | an assignment, call, ``break``, ``continue`` or bare ``return`` → a no-op |
| ``swap_args`` | two adjacent, different arguments of a call exchanged |
| ``drop_precondition`` | one condition of an ``act name(...) { ... }`` removed |
| ``widen_range`` | a literal range of an action argument: ``BInt<a, b+1>``, ``BInt<a-1, b>`` |
| ``terminal_player`` | before a ``return`` that ends the game, the seat to move is swapped |

``widen_range`` runs before ``off_by_one``, which would make the same edit of a literal
bound: such a mutant is reported as a wider range. It is rejected at compile when
``interface.toml`` fixes the range (the interface contract), so it measures games
without one.
``terminal_player`` reads the seat field from ``get_current_player`` (its last
``return g.FIELD``) and, in an ``act`` body, inserts ``FIELD = 1 - FIELD`` before each
bare ``return`` (which ends the game): whoever scores from the seat to move at the
end (the player to move has no move and loses) then scores the wrong seat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rulebook2game.mutate.source import (
    PageSource,
    indent_of,
    matching_close,
    split_top_level,
)

NOOP = "0"
"""An expression statement that does nothing: what a deleted statement becomes."""


@dataclass(frozen=True)
class Edit:
    """Replace lines ``[start, end)`` (0-based) of a page by ``new_lines``."""

    operator: str
    start: int
    end: int
    new_lines: tuple[str, ...]
    description: str


Operator = Callable[[PageSource, frozenset[str]], Iterator[Edit]]

_CMP = re.compile(r"==|!=|<=|>=|->|<|>")
_CMP_SWAPS = {
    "==": ("!=",),
    "!=": ("==",),
    "<": (">=", "<="),
    "<=": (">", "<"),
    ">": ("<=", ">="),
    ">=": ("<", ">"),
}
_WORD = re.compile(r"(?<![A-Za-z0-9_.:])(and|or|true|false)(?![A-Za-z0-9_])")
_WORD_SWAPS = {"and": "or", "or": "and", "true": "false", "false": "true"}
_INT = re.compile(r"(?<![A-Za-z0-9_.])[0-9]+(?![A-Za-z0-9_.])")
_COND = re.compile(r"^(\s*)((?:else\s+)?if|while)\s+(.*?)\s*:\s*$")
_CALL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\s*\(")
_DECL_START = re.compile(r"^\s*(fun|act|cls|enum|trait|import|using|const)\b")
_NOT_DELETABLE = re.compile(
    r"^\s*(if|else|while|for|fun|act|actions|cls|enum|trait|import|using|const|let|frm|ref"
    r"|subaction|return\s+\S|@)"
)
_ASSIGN = re.compile(r"^\s*[A-Za-z_][^=!<>()]*?([-+*/%]?=)(?!=)")
_SIMPLE = re.compile(r"^\s*(break|continue|return)\s*$")
_ACT_STMT = re.compile(r"^\s*act\s+[A-Za-z_][A-Za-z0-9_]*\s*\(")
_GENERIC_OPEN = re.compile(r"[A-Z][A-Za-z0-9_]*$")


def _lines_in_scope(page: PageSource, skip: frozenset[str]) -> Iterator[int]:
    for i in range(page.header_end, len(page.lines)):
        if page.owners[i] not in skip and page.masks[i].strip():
            yield i


def _replace(line: str, start: int, end: int, new: str) -> str:
    return line[:start] + new + line[end:]


def _generic_spans(mask: str) -> list[tuple[int, int]]:
    """Spans of ``Type<...>`` generic argument lists, whose ``<``/``>`` are not comparisons."""
    spans = []
    for i, ch in enumerate(mask):
        if ch == "<" and _GENERIC_OPEN.search(mask[:i]):
            close = matching_close(mask, i)
            if close > 0:
                spans.append((i, close))
    return spans


def cmp_flip(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Relational operator replacement (negation and boundary shifts)."""
    for i in _lines_in_scope(page, skip):
        mask = page.masks[i]
        generics = _generic_spans(mask)
        for match in _CMP.finditer(mask):
            op = match.group(0)
            if op == "->" or any(a <= match.start() <= b for a, b in generics):
                continue
            for new in _CMP_SWAPS[op]:
                line = _replace(page.lines[i], match.start(), match.end(), new)
                yield Edit("cmp_flip", i, i + 1, (line,), f"`{op}` → `{new}`")


def bool_flip(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """``and``↔``or``, ``true``↔``false``."""
    for i in _lines_in_scope(page, skip):
        for match in _WORD.finditer(page.masks[i]):
            word = match.group(1)
            new = _WORD_SWAPS[word]
            line = _replace(page.lines[i], match.start(), match.end(), new)
            yield Edit("bool_flip", i, i + 1, (line,), f"`{word}` → `{new}`")


def negate_cond(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """``if C:`` → ``if !(C):`` (also ``else if`` and ``while``); ``while true`` is skipped."""
    for i in _lines_in_scope(page, skip):
        match = _COND.match(page.masks[i])
        if match is None or match.group(3).strip() in ("true", "false", ""):
            continue
        start, end = match.start(3), match.end(3)
        cond = page.lines[i][start:end]
        line = _replace(page.lines[i], start, end, f"!({cond})")
        yield Edit("negate_cond", i, i + 1, (line,), f"`{match.group(2)} {cond}` negated")


def off_by_one(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """An integer literal ``n`` → ``n+1`` and ``n-1`` (not in ``import`` lines)."""
    for i in _lines_in_scope(page, skip):
        mask = page.masks[i]
        if mask.lstrip().startswith(("import ", "@")):
            continue
        for match in _INT.finditer(mask):
            value = int(match.group(0))
            for new in (value + 1, value - 1):
                text = str(new) if new >= 0 else f"({new})"
                line = _replace(page.lines[i], match.start(), match.end(), text)
                yield Edit("off_by_one", i, i + 1, (line,), f"`{value}` → `{new}`")


def delete_stmt(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """A simple statement (assignment, call, break, continue, bare return) → a no-op."""
    starts = page.statement_starts()
    for i in _lines_in_scope(page, skip):
        mask = page.masks[i]
        if not starts[i] or indent_of(mask) == 0 or _NOT_DELETABLE.match(mask):
            continue
        end = page.statement_end(i)
        whole = " ".join(page.masks[j].strip() for j in range(i, end + 1))
        is_call = whole.endswith(")") and "(" in whole and "=" not in whole.split("(", 1)[0]
        if not (_ASSIGN.match(whole) or _SIMPLE.match(whole) or is_call):
            continue
        pad = page.lines[i][: indent_of(page.lines[i])]
        shown = " ".join(page.lines[i].split())
        yield Edit("delete_stmt", i, end + 1, (pad + NOOP,), f"`{shown}` deleted")


def swap_args(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Exchange two adjacent arguments of a call when their texts differ."""
    for i in _lines_in_scope(page, skip):
        mask = page.masks[i]
        if _DECL_START.match(mask) or _ACT_STMT.match(mask):
            continue
        for call in _CALL.finditer(mask):
            open_at = call.end() - 1
            close = matching_close(mask, open_at)
            if close < 0:
                continue
            inner = mask[open_at + 1 : close]
            spans = split_top_level(inner)
            for k in range(len(spans) - 1):
                (a0, a1), (b0, b1) = spans[k], spans[k + 1]
                left = page.lines[i][open_at + 1 + a0 : open_at + 1 + a1]
                right = page.lines[i][open_at + 1 + b0 : open_at + 1 + b1]
                if left.strip() == right.strip() or not left.strip() or not right.strip():
                    continue
                swapped = _swap(left, right)
                line = _replace(page.lines[i], open_at + 1 + a0, open_at + 1 + b1, swapped)
                name = call.group(0)[:-1].strip()
                desc = f"arguments `{left.strip()}` and `{right.strip()}` of {name} swapped"
                yield Edit("swap_args", i, i + 1, (line,), desc)


def _swap(left: str, right: str) -> str:
    lpad = left[: len(left) - len(left.lstrip())]
    rpad = right[: len(right) - len(right.lstrip())]
    return f"{lpad}{right.strip()},{rpad}{left.strip()}"


def drop_precondition(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Remove one condition of an action's precondition block ``{ c1, c2, ... }``."""
    for i in _lines_in_scope(page, skip):
        if not _ACT_STMT.match(page.masks[i]) or "->" in page.masks[i]:
            continue
        end = page.statement_end(i)
        text = "\n".join(page.lines[i : end + 1])
        mask = "\n".join(page.masks[i : end + 1])
        params_open = mask.index("(")
        params_close = matching_close(mask, params_open)
        brace = mask.find("{", params_close)
        if params_close < 0 or brace < 0:
            continue
        close = matching_close(mask, brace)
        if close < 0:
            continue
        name = mask[:params_open].split()[-1]
        parts = split_top_level(mask[brace + 1 : close])
        for a, b in parts:
            cond = " ".join(text[brace + 1 + a : brace + 1 + b].split())
            if not cond:
                continue
            if len(parts) == 1:
                new_text = text[:brace].rstrip() + text[close + 1 :]
            else:
                new_text = _drop_part(text, brace + 1, parts, (a, b))
            desc = f"precondition `{cond}` of act {name} dropped"
            yield Edit("drop_precondition", i, end + 1, tuple(new_text.split("\n")), desc)


def _drop_part(text: str, offset: int, parts: list[tuple[int, int]], drop: tuple[int, int]) -> str:
    """``text`` without one comma-separated part of the list starting at ``offset``."""
    k = parts.index(drop)
    if k + 1 < len(parts):
        start, end = parts[k][0], parts[k + 1][0]
    else:
        start, end = parts[k - 1][1], parts[k][1]
    return text[: offset + start] + text[offset + end :]


_ARG_RANGE = re.compile(r"BInt<\s*([^,<>]+?)\s*,\s*([^,<>]+?)\s*>")
_SEAT_RETURN = re.compile(r"^\s*return\s+[A-Za-z_][A-Za-z0-9_]*\.([A-Za-z_][A-Za-z0-9_.]*)\s*$")


def widen_range(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """An action argument's literal range one wider at either end (``BInt<a, b>`` in an ``act``).

    rl's type arguments are literals or names: a named bound (``BInt<0, CARDS>``) and a
    lower bound of 0 cannot be widened in place and are left alone.
    """
    for i in _lines_in_scope(page, skip):
        mask = page.masks[i]
        if not _ACT_STMT.match(mask):
            continue
        offset = mask.index("(")
        params = mask[offset : matching_close(mask, offset) + 1]
        for match in _ARG_RANGE.finditer(params):
            low, high = match.group(1), match.group(2)
            start, end = offset + match.start(), offset + match.end()
            wider = []
            if high.isdigit():
                wider.append((f"BInt<{low}, {int(high) + 1}>", "upper"))
            if low.isdigit() and int(low) > 0:
                wider.append((f"BInt<{int(low) - 1}, {high}>", "lower"))
            for new, what in wider:
                line = _replace(page.lines[i], start, end, new)
                desc = f"`{match.group(0)}` → `{new}` ({what} bound widened)"
                yield Edit("widen_range", i, i + 1, (line,), desc)


def _seat_field(page: PageSource) -> str | None:
    """The field ``get_current_player`` returns last (``g.current`` → ``current``)."""
    field = None
    for i, owner in enumerate(page.owners):
        if owner == "get_current_player":
            match = _SEAT_RETURN.match(page.masks[i])
            if match:
                field = match.group(1)
    return field


def terminal_player(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Swap the seat to move just before each game-ending bare ``return`` of an ``act``.

    Only on the page that defines ``get_current_player`` (where the seat field is
    known), and only in ``act`` bodies, where a bare ``return`` ends the game.
    """
    field = _seat_field(page)
    if field is None:
        return
    for i in _lines_in_scope(page, skip):
        if not _SIMPLE.match(page.masks[i]) or page.masks[i].strip() != "return":
            continue
        owner = page.owners[i]
        if not owner or not any(
            _ACT_STMT.match(page.masks[j]) and page.owners[j] == owner
            for j in range(page.header_end, len(page.lines))
            if indent_of(page.masks[j]) == 0
        ):
            continue
        pad = page.lines[i][: indent_of(page.lines[i])]
        swap = f"{pad}{field} = 1 - {field}"
        desc = f"seat to move swapped (`{field} = 1 - {field}`) before the game ends"
        yield Edit("terminal_player", i, i + 1, (swap, page.lines[i]), desc)


OPERATORS: dict[str, Operator] = {
    "cmp_flip": cmp_flip,
    "bool_flip": bool_flip,
    "negate_cond": negate_cond,
    "widen_range": widen_range,
    "off_by_one": off_by_one,
    "delete_stmt": delete_stmt,
    "swap_args": swap_args,
    "drop_precondition": drop_precondition,
    "terminal_player": terminal_player,
}
"""Every operator, in enumeration order."""

CLASSIC = (
    "cmp_flip",
    "bool_flip",
    "negate_cond",
    "off_by_one",
    "delete_stmt",
    "swap_args",
    "drop_precondition",
)
"""The operators the corpus golden traces were selected against (``selection.json``)."""
