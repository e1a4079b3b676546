"""Read one RulePage page file into typed clauses (the syntax is in ``reference.md``).

A page is a sequence of clauses, each starting at column 0 with its keyword::

    offer mark(row, col) when g.cells[row * 3 + col] == EMPTY
    on mark(row, col):
        g.cells[row * 3 + col] = g.player + 1

Clauses ending in ``:`` own the indented block below them. Lines starting with ``#``
at column 0 are comments (the page header among them). Every expression and block is
rl, kept with its page line and column so errors in the generated program map back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Tier = Literal["ordinary", "priority", "chance"]


@dataclass(frozen=True)
class Span:
    """Where a piece of text starts in a page: ``file`` (``pages/x.page``), line, column."""

    file: str
    line: int
    column: int


@dataclass(frozen=True)
class Text:
    """One line of rl (an expression or a statement) and where it starts."""

    text: str
    at: Span


@dataclass(frozen=True)
class Block:
    """The indented lines under a clause, with the block's indentation removed."""

    lines: tuple[Text, ...]
    at: Span
    """The clause line that owns the block."""


@dataclass(frozen=True)
class ActionRef:
    """``name(a, b)``: an action (or event) and the names its arguments are bound to."""

    name: str
    params: tuple[str, ...]
    at: Span


@dataclass(frozen=True)
class Offer:
    """``offer NAME(args) [when COND] [weight EXPR]``: the page offers the action while
    COND holds; on a chance page, EXPR (an ``Int``, default 1) is the outcome's weight:
    its probability is its weight over the sum of the weights of the outcomes offered."""

    action: ActionRef
    condition: Text | None
    weight: Text | None = None


@dataclass(frozen=True)
class Require:
    """``require NAME(args) when COND`` (a modifier): ANDed onto the bonded page's offers."""

    action: ActionRef
    condition: Text


@dataclass(frozen=True)
class Reducer:
    """``on NAME(args):`` the page's reduce step for the action (or internal event)."""

    action: ActionRef
    body: Block


@dataclass(frozen=True)
class Slots:
    """``slots NAME(args) for k < COUNT:`` where the action's legal moves can be: COUNT
    slots (an ``Int`` of the state), and the block sets the arguments of slot ``k``; an
    argument left outside its range (each starts one below its minimum) leaves the slot
    empty. Speed only: the engine still tests every offer."""

    action: ActionRef
    index: str
    count: Text
    body: Block


@dataclass(frozen=True)
class Auto:
    """``auto when COND:`` an entailment applied after every reduction while COND holds."""

    condition: Text
    body: Block


@dataclass(frozen=True)
class Returns:
    """``returns(p): EXPR``: player ``p``'s return (a Float) at the end."""

    player: str
    value: Text


@dataclass(frozen=True)
class Bond:
    """One modifier named in ``bonds A, B``."""

    name: str
    at: Span


@dataclass(frozen=True)
class PageProblem:
    """A syntax error at a page line."""

    at: Span
    message: str


@dataclass(frozen=True)
class Page:
    """Every clause of one page, in the order written."""

    name: str
    file: str
    modifier: Span | None = None
    """Where ``modifier`` was written (a page bonded onto another), if it was."""
    tier: Tier = "ordinary"
    when: Text | None = None
    """Page condition (``when``/``priority when``/``chance when``), ANDed onto every offer."""
    bonds: tuple[Bond, ...] = ()
    offers: tuple[Offer, ...] = ()
    requires: tuple[Require, ...] = ()
    reducers: tuple[Reducer, ...] = ()
    slots: tuple[Slots, ...] = ()
    autos: tuple[Auto, ...] = ()
    ends: tuple[Text, ...] = ()
    returns: Returns | None = None
    player: Text | None = None
    state: Block | None = None
    setup: Block | None = None
    code: Block | None = None
    show: Block | None = None
    rebuild: Block | None = None
    """Statements that make again what the pages derive from other state (lists kept for
    slots): run after a ``set`` edits fields, and on a copy whose hidden cards a search
    bot dealt anew."""
    imports: tuple[Text, ...] = ()
    problems: tuple[PageProblem, ...] = field(default=(), compare=False)


_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_CALL = rf"({_IDENT})\s*\(([^)]*)\)"
_CLAUSES: dict[str, re.Pattern[str]] = {
    "block": re.compile(r"^(state|setup|code|show|rebuild)\s*:\s*$"),
    "player": re.compile(r"^player\s*:\s*(\S.*)$"),
    "tier": re.compile(r"^(when|priority\s+when|chance\s+when)\s+(\S.*)$"),
    "modifier": re.compile(r"^modifier\s*$"),
    "bonds": re.compile(r"^bonds\s+(\S.*)$"),
    "offer": re.compile(rf"^offer\s+{_CALL}\s*(?:when\s+(\S.*?))?\s*(?:\bweight\s+(\S.*))?$"),
    "require": re.compile(rf"^require\s+{_CALL}\s*when\s+(\S.*)$"),
    "on": re.compile(rf"^on\s+{_CALL}\s*:\s*$"),
    "slots": re.compile(rf"^slots\s+{_CALL}\s+for\s+({_IDENT})\s*<\s*(\S.*?)\s*:\s*$"),
    "auto": re.compile(r"^auto\s+when\s+(\S.*?)\s*:\s*$"),
    "end": re.compile(r"^end\s+when\s+(\S.*)$"),
    "returns": re.compile(rf"^returns\s*\(\s*({_IDENT})\s*\)\s*:\s*(\S.*)$"),
    "import": re.compile(r"^import\s+[A-Za-z_][A-Za-z0-9_.]*\s*$"),
}
KEYWORDS = (
    "state:",
    "setup:",
    "player:",
    "when",
    "priority when",
    "chance when",
    "modifier",
    "bonds",
    "offer",
    "require",
    "on",
    "slots",
    "auto when",
    "end when",
    "returns(p):",
    "code:",
    "show:",
    "rebuild:",
    "import",
)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block(lines: list[str], start: int, file: str, header: Span) -> tuple[Block, int]:
    """The indented lines after ``start`` (0-based index of the clause line)."""
    body: list[tuple[int, str]] = []
    i = start + 1
    while i < len(lines):
        raw = lines[i].rstrip()
        if raw and _indent(raw) == 0:
            break
        body.append((i, raw))
        i += 1
    while body and not body[-1][1].strip():
        body.pop()
    indents = [_indent(text) for _, text in body if text.strip()]
    base = min(indents) if indents else 0
    out = tuple(
        Text(text[base:], Span(file, index + 1, base + 1)) for index, text in body if text.strip()
    )
    return Block(out, header), i


def strip_comment(line: str) -> str:
    """``line`` without a trailing ``# comment`` (a ``#`` inside a string literal stays)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i].rstrip()
    return line.rstrip()


def _params(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.split(",") if p.strip())


def parse_page(name: str, file: str, source: str) -> Page:
    """The clauses of one page; syntax errors are collected in ``problems``."""
    lines = source.expandtabs(4).splitlines()
    fields: dict[str, object] = {}
    lists: dict[str, list[object]] = {
        k: []
        for k in (
            "bonds",
            "offers",
            "requires",
            "reducers",
            "slots",
            "autos",
            "ends",
            "imports",
        )
    }
    problems: list[PageProblem] = []

    def once(key: str, value: object, at: Span) -> None:
        if key in fields:
            problems.append(PageProblem(at, f"`{key}` is given twice on this page"))
        fields[key] = value

    def text_at(match: re.Match[str], group: int, line: int) -> Text:
        return Text(match.group(group).strip(), Span(file, line, match.start(group) + 1))

    i = 0
    while i < len(lines):
        raw = lines[i].rstrip()
        number = i + 1
        here = Span(file, number, 1)
        if not raw.strip() or raw.startswith("#"):
            i += 1
            continue
        raw = strip_comment(raw)
        if _indent(raw) > 0:
            problems.append(
                PageProblem(here, "indented line outside a block (a clause ends with ':')")
            )
            i += 1
            continue
        kind, match = next(
            ((k, m) for k, p in _CLAUSES.items() if (m := p.match(raw)) is not None),
            ("", None),
        )
        i += 1
        if match is None:
            word = raw.split()[0]
            problems.append(
                PageProblem(
                    here,
                    f"`{word}` does not start a RulePage clause; expected one of "
                    + ", ".join(KEYWORDS),
                )
            )
            continue
        if kind == "block":
            block, i = _block(lines, i - 1, file, here)
            once(match.group(1), block, here)
        elif kind == "player":
            once("player", text_at(match, 1, number), here)
        elif kind == "tier":
            word = match.group(1).split()[0]
            once("when", text_at(match, 2, number), here)
            fields["tier"] = {"when": "ordinary", "priority": "priority", "chance": "chance"}[word]
        elif kind == "modifier":
            once("modifier", here, here)
        elif kind == "bonds":
            start = match.start(1)
            for part in re.finditer(r"[^,⊕\s]+", match.group(1)):
                lists["bonds"].append(
                    Bond(part.group(0), Span(file, number, start + part.start() + 1))
                )
        elif kind in ("offer", "require", "on"):
            ref = ActionRef(match.group(1), _params(match.group(2)), here)
            if kind == "offer":
                cond = text_at(match, 3, number) if match.group(3) else None
                weight = text_at(match, 4, number) if match.group(4) else None
                lists["offers"].append(Offer(ref, cond, weight))
            elif kind == "require":
                lists["requires"].append(Require(ref, text_at(match, 3, number)))
            else:
                block, i = _block(lines, i - 1, file, here)
                lists["reducers"].append(Reducer(ref, block))
        elif kind == "slots":
            ref = ActionRef(match.group(1), _params(match.group(2)), here)
            block, i = _block(lines, i - 1, file, here)
            count = text_at(match, 4, number)
            lists["slots"].append(Slots(ref, match.group(3), count, block))
        elif kind == "auto":
            block, i = _block(lines, i - 1, file, here)
            lists["autos"].append(Auto(text_at(match, 1, number), block))
        elif kind == "end":
            lists["ends"].append(text_at(match, 1, number))
        elif kind == "returns":
            once("returns", Returns(match.group(1), text_at(match, 2, number)), here)
        elif kind == "import":
            lists["imports"].append(Text(raw.strip(), here))
    return Page(
        name=name,
        file=file,
        problems=tuple(problems),
        **{k: tuple(v) for k, v in lists.items()},  # type: ignore[arg-type]
        **fields,  # type: ignore[arg-type]
    )
