"""Read RBG pages: tokens, ``#`` definitions, macro expansion and the rules expression.

An RBG description (Regular Boardgames, Kowalski et al., AAAI 2019) is a set of
definitions ``#name = ...``: ``#players``, ``#pieces``, ``#variables``, ``#board`` and
``#rules``, plus macros ``#name(p1; p2) = ...`` substituted C-like wherever ``name(a; b)``
(or a parameterless ``name``) occurs later. The pages of a game are read in name order
as one text; ``//`` starts a comment. See ``reference.md`` for the syntax.

Every token keeps the page, line and column it was written at, so each problem found
here or in :mod:`rulebook2game.targets.rbg.model` names the place and the offending part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebook2game.errors import Rulebook2GameError

MACRO_DEPTH = 64
"""Most nested macro expansions (a deeper one is taken for a recursive macro)."""
SECTIONS = ("players", "pieces", "variables", "board", "rules")
TARGET_SECTIONS = ("moves", "returns")
"""Optional sections of this target beyond RBG: how a move becomes an interface action,
and the returns (the same as ``rbg.toml``, for writers who can only write pages)."""


@dataclass(frozen=True)
class Span:
    """Where a token starts: page file (``pages/rules.rbg``), line and column (1-based)."""

    file: str
    line: int
    column: int


@dataclass(frozen=True)
class Token:
    """One token and where it was written."""

    text: str
    at: Span

    @property
    def is_name(self) -> bool:
        """An identifier."""
        return bool(_NAME.fullmatch(self.text))

    @property
    def is_int(self) -> bool:
        """A non-negative integer literal."""
        return self.text.isdigit()


class RbgProblem(Rulebook2GameError):
    """A fault in an RBG description, at a page line, naming the offending part."""

    def __init__(self, at: Span, message: str) -> None:
        super().__init__(f"{at.file}:{at.line}:{at.column}: {message}")
        self.at = at
        self.message = message


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HASH_HEADER = re.compile(r"[ \t]*#\s*(page|implements|sections|cites)\s*:")
_TOKEN = re.compile(
    r"\s+|//[^\n]*|(?P<tok>->>|->|==|!=|<=|>=|[A-Za-z_][A-Za-z0-9_]*|\d+|[#=()\[\]{},;+*\-/$?!<>^])"
)


def tokenize(file: str, text: str) -> list[Token]:
    """The tokens of one page (comments and blanks dropped).

    Raises:
        RbgProblem: a character that starts no token.
    """
    out: list[Token] = []
    line, line_start, i = 1, 0, 0
    while i < len(text):
        match = _TOKEN.match(text, i)
        header = _HASH_HEADER.match(text, i) if i == line_start else None
        if header is not None:
            raise RbgProblem(
                Span(file, line, 1),
                f"`# {header.group(1)}:` starts a definition in RBG; header lines are "
                f"comments: `// {header.group(1)}: ...`",
            )
        if match is None:
            raise RbgProblem(
                Span(file, line, i - line_start + 1), f"unexpected character {text[i]!r}"
            )
        if match.group("tok") is not None:
            out.append(Token(match.group("tok"), Span(file, line, i - line_start + 1)))
        chunk = match.group(0)
        newlines = chunk.count("\n")
        if newlines:
            line += newlines
            line_start = i + chunk.rindex("\n") + 1
        i = match.end()
    return out


@dataclass(frozen=True)
class Definition:
    """``#name(params) = body``."""

    name: str
    params: tuple[str, ...]
    body: tuple[Token, ...]
    at: Span


def definitions(tokens: list[Token]) -> list[Definition]:
    """Split a page's tokens into its definitions.

    Raises:
        RbgProblem: text before the first ``#``, or a malformed definition head.
    """
    out: list[Definition] = []
    i = 0
    while i < len(tokens):
        head = tokens[i]
        if head.text != "#":
            raise RbgProblem(head.at, f"expected a definition `#name = ...`, found `{head.text}`")
        if i + 1 >= len(tokens) or not tokens[i + 1].is_name:
            raise RbgProblem(head.at, "`#` must be followed by the name being defined")
        name = tokens[i + 1].text
        j = i + 2
        params: list[str] = []
        if j < len(tokens) and tokens[j].text == "(":
            j += 1
            while True:
                if j >= len(tokens) or not tokens[j].is_name:
                    raise RbgProblem(
                        tokens[min(j, len(tokens) - 1)].at, f"bad parameters of #{name}"
                    )
                params.append(tokens[j].text)
                j += 1
                if j < len(tokens) and tokens[j].text == ";":
                    j += 1
                    continue
                if j < len(tokens) and tokens[j].text == ")":
                    j += 1
                    break
                raise RbgProblem(
                    tokens[min(j, len(tokens) - 1)].at,
                    f"parameters of #{name} are separated by `;` and closed by `)`",
                )
        if j >= len(tokens) or tokens[j].text != "=":
            raise RbgProblem(tokens[i + 1].at, f"expected `=` after #{name}")
        j += 1
        start = j
        while j < len(tokens) and tokens[j].text != "#":
            j += 1
        out.append(Definition(name, tuple(params), tuple(tokens[start:j]), head.at))
        i = j
    return out


def _split_args(tokens: list[Token], open_at: int) -> tuple[list[list[Token]], int]:
    """Arguments of a macro call whose ``(`` is at ``open_at``: (arguments, index after ``)``)."""
    args: list[list[Token]] = [[]]
    depth = 0
    j = open_at + 1
    while j < len(tokens):
        t = tokens[j].text
        if t in "([{":
            depth += 1
        elif t in ")]}":
            if depth == 0:
                if t != ")":
                    break
                return args, j + 1
            depth -= 1
        elif t == ";" and depth == 0:
            args.append([])
            j += 1
            continue
        args[-1].append(tokens[j])
        j += 1
    raise RbgProblem(tokens[open_at].at, "macro call: `(` is never closed")


def expand(body: tuple[Token, ...], macros: dict[str, Definition], depth: int = 0) -> list[Token]:
    """``body`` with every macro call replaced by the macro's body (recursively).

    Raises:
        RbgProblem: a wrong number of arguments, or a macro that expands forever.
    """
    tokens = list(body)
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        macro = macros.get(tok.text) if tok.is_name else None
        if macro is None:
            out.append(tok)
            i += 1
            continue
        if depth >= MACRO_DEPTH:
            raise RbgProblem(tok.at, f"macro `{tok.text}` expands forever (it calls itself)")
        args: list[list[Token]] = []
        after = i + 1
        if macro.params:
            if after >= len(tokens) or tokens[after].text != "(":
                raise RbgProblem(
                    tok.at,
                    f"macro `{tok.text}` takes {len(macro.params)} arguments: `{tok.text}(...)`",
                )
            args, after = _split_args(tokens, after)
            if len(args) != len(macro.params):
                raise RbgProblem(
                    tok.at,
                    f"macro `{tok.text}` takes {len(macro.params)} arguments separated by `;`, "
                    f"given {len(args)}",
                )
        bound = {
            p: expand(tuple(a), macros, depth + 1) for p, a in zip(macro.params, args, strict=True)
        }
        substituted: list[Token] = []
        for t in macro.body:
            substituted.extend(bound.get(t.text, [t]))
        out.extend(expand(tuple(substituted), macros, depth + 1))
        i = after
    return out


def read_definitions(pages: list[tuple[str, str]]) -> dict[str, tuple[Definition, list[Token]]]:
    """The sections of the description, macro-expanded: name -> (definition, tokens).

    ``pages`` are (file, text) in reading order. A macro may be used on any page, before
    or after its definition (pages have no order a writer could rely on).

    Raises:
        RbgProblem: any fault of tokens, definitions or macros; a section defined twice or
            missing.
    """
    macros: dict[str, Definition] = {}
    heads: dict[str, Definition] = {}
    seen: dict[str, Definition] = {}
    for file, text in pages:
        for d in definitions(tokenize(file, text)):
            if d.name in seen:
                first = seen[d.name].at
                raise RbgProblem(
                    d.at, f"#{d.name} is defined twice (first at {first.file}:{first.line})"
                )
            seen[d.name] = d
            if d.name in SECTIONS or d.name in TARGET_SECTIONS:
                if d.params:
                    raise RbgProblem(d.at, f"#{d.name} takes no parameters")
                heads[d.name] = d
            else:
                macros[d.name] = d
    sections = {
        name: (d, expand(d.body, macros) if name in SECTIONS else list(d.body))
        for name, d in heads.items()
    }
    for name in SECTIONS:
        if name not in sections:
            at = Span(pages[0][0] if pages else "pages", 1, 1)
            raise RbgProblem(at, f"the description has no #{name}")
    return sections
